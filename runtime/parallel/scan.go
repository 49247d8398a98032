package parallel

// This file holds the chunked inclusive scan (and, through its bodies,
// scanomap): one pass in which every chunk scans its elements locally,
// publishes its total, finds its carry from its predecessors' totals and
// adds it to its outputs while they are still in cache.
// It does not hold the classic three-phase scan it was measured against
// (scan_alt_test.go keeps that for the benchmarks), nor filters.

// Scan computes an inclusive scan (or a scanomap) over [0, n) in
// parallel, with two bodies the generator writes:
//
//   - scan(lo, hi) scans the chunk's elements from the neutral element,
//     left to right, writing the local prefixes to out[lo:hi], and returns
//     the chunk's total (the last local prefix, or the neutral element
//     for an empty range);
//   - fix(lo, hi, carry) replaces each out[i] of the chunk by
//     op(carry, out[i]).
//
// Chunk c's outputs are carry(c) ⊕ local prefix, where carry(c) is the
// left fold t0 ⊕ t1 ⊕ ... ⊕ t(c-1) of the chunk totals; chunk 0 is not
// fixed up. That association depends only on n and grain, so the results
// are the same bits for any number of cores. Scan returns the total of all
// elements (the last output; the neutral element when n == 0).
//
// Chunks start in increasing order; each publishes its total as soon as
// its local scan is done and finds its carry by looking back over its
// predecessors' totals (carry.go), so it waits only for chunks still in
// their local scan. With one chunk Scan returns scan(0, n) on the caller's goroutine:
// exactly the sequential loop. Panics as For.
func Scan[A any](n, grain int, scan func(lo, hi int) A, fix func(lo, hi int, carry A), op func(A, A) A) A {
	k := Chunks(n, grain)
	if k == 1 {
		return scan(0, n)
	}
	slots := make([]slot[A], k)
	execute(k, func(j *job, c int) {
		lo, hi := Bounds(n, k, c)
		t := scan(lo, hi)
		s := &slots[c]
		if c == 0 {
			s.total = t
			publishIncl(j, s, t)
			return
		}
		publishTotal(j, s, t)
		carry, ok := carryOf(j, slots, c, op, true)
		if !ok {
			return
		}
		publishIncl(j, s, op(carry, t))
		fix(lo, hi, carry)
	})
	return slots[k-1].incl
}

// ScanExact is Scan for an operator that is exactly associative (on
// integers, say, but not on floats): any grouping of op gives the same
// bits, so a chunk whose carry is already known when it starts (its
// predecessors have published their prefixes, as when one goroutine runs
// the chunks in order) scans from that carry in one pass:
//
//   - scan(lo, hi, start) scans the chunk's elements from start, writing
//     op(start, x[lo]), ... to out[lo:hi], and returns the last of them
//     (start for an empty range);
//   - fix(lo, hi, carry), as Scan's, runs only on chunks that scanned from
//     neutral before their carry was known.
//
// The results are those of the sequential loop for any number of cores.
// With one chunk it returns scan(0, n, neutral) on the caller's
// goroutine. Panics as For.
func ScanExact[A any](n, grain int, neutral A, scan func(lo, hi int, start A) A, fix func(lo, hi int, carry A), op func(A, A) A) A {
	k := Chunks(n, grain)
	if k == 1 {
		return scan(0, n, neutral)
	}
	slots := make([]slot[A], k)
	execute(k, func(j *job, c int) {
		lo, hi := Bounds(n, k, c)
		s := &slots[c]
		if c == 0 {
			t := scan(lo, hi, neutral)
			s.total = t
			publishIncl(j, s, t)
			return
		}
		if carry, ok := carryOf(j, slots, c, op, false); ok {
			// Successors stop their look-back at a published prefix and
			// never read this chunk's total.
			publishIncl(j, s, scan(lo, hi, carry))
			return
		}
		t := scan(lo, hi, neutral)
		publishTotal(j, s, t)
		carry, ok := carryOf(j, slots, c, op, true)
		if !ok {
			return
		}
		publishIncl(j, s, op(carry, t))
		fix(lo, hi, carry)
	})
	return slots[k-1].incl
}
