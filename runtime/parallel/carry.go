package parallel

// This file holds the carry between chunks that scans and filters need:
// each chunk publishes its total as soon as its own pass is done, and
// finds its carry by looking back over its predecessors' totals to the
// nearest published inclusive prefix (decoupled look-back, as in
// single-pass GPU scans), so that no chunk waits for a chain of other
// chunks to wake up one after another. It does not run chunks (pool.go)
// nor know what a total is (scan.go, filter.go).

import "sync/atomic"

// Slot states, in the order a chunk's slot goes through them.
const (
	slotEmpty int32 = iota // nothing published
	slotTotal              // total is published
	slotIncl               // total and incl are published
)

// slot is the published state of one chunk: total, the fold of the
// chunk's own elements, and incl, the left fold of the totals of chunks
// 0..c. Each field is written once, before state says so, and never after.
type slot[A any] struct {
	total A
	incl  A
	state atomic.Int32
}

// carryOf returns the carry of chunk c > 0: the left fold
//
//	t0 ⊕ t1 ⊕ ... ⊕ t(c-1)
//
// of its predecessors' totals. It starts from the nearest predecessor j
// whose inclusive prefix is published and folds the totals of j+1..c-1
// onto it; since that prefix is the same left fold up to j, the result is
// the same bits whichever j is found, so it does not depend on timing.
// With block set it waits for missing totals (returning false if a chunk
// below c panicked meanwhile); without, it returns false at once when one
// is missing.
func carryOf[A any](j *job, slots []slot[A], c int, op func(A, A) A, block bool) (A, bool) {
	var zero A
	k := c - 1
	for {
		s := &slots[k]
		if st := s.state.Load(); st == slotEmpty {
			if !block || !j.wait(c, func() bool { return s.state.Load() != slotEmpty }) {
				return zero, false
			}
		}
		if s.state.Load() == slotIncl {
			break
		}
		k-- // chunk 0 publishes its inclusive prefix at once, so k stays >= 0
	}
	acc := slots[k].incl
	for i := k + 1; i < c; i++ {
		acc = op(acc, slots[i].total)
	}
	return acc, true
}

// publishTotal makes chunk c's total visible to its successors.
func publishTotal[A any](j *job, s *slot[A], total A) {
	s.total = total
	s.state.Store(slotTotal)
	j.publish()
}

// publishIncl makes chunk c's inclusive prefix visible; its total must be
// in place already (by publishTotal, or written directly for chunk 0),
// unless no chunk reads it: carryOf reads totals only of chunks whose
// state it saw at slotTotal, so a slot that goes from slotEmpty straight
// to slotIncl (ScanExact's one-pass chunks) needs none.
func publishIncl[A any](j *job, s *slot[A], incl A) {
	s.incl = incl
	s.state.Store(slotIncl)
	j.publish()
}
