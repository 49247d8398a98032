package parallel

// This file holds the order-keeping parallel filter: each chunk compacts
// its kept elements either straight into the output (when its offset is
// already known as it starts) or into a scratch buffer that it copies to
// its offset once its predecessors' counts are published (carry.go).
// It does not allocate the output (the generated code does, as the cpu
// backend does) nor evaluate any predicate itself (the body does).

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// Filter runs an order-keeping filter (with any maps fused before or after
// it) over [0, n) in parallel. body(lo, hi, dst) must write the kept
// elements of the chunk, in order, to dst[0], dst[1], ... and return how
// many it kept; dst has hi-lo elements, and body may also write (and
// later overwrite) dst positions beyond the count, as a branch-free
// compaction does. out must have at least n elements; Filter returns the
// total kept, found at out[:total] in the order of the sequential loop.
//
// The output is the same for any number of cores (positions are exact
// counts, nothing is re-associated). With one chunk Filter returns
// body(0, n, out[:n]) on the caller's goroutine: exactly the sequential
// loop. Panics as For.
func Filter[T any](n, grain int, out []T, body func(lo, hi int, dst []T) int) int {
	kept, _ := FilterFold(n, grain, out, func(lo, hi int, dst []T) (int, struct{}) {
		return body(lo, hi, dst), struct{}{}
	}, func(a, _ struct{}) struct{} { return a })
	return kept
}

// FilterFold is Filter for a kernel that also reduces (a filter fused
// horizontally with a reduction or redomap over the same elements): body
// returns, beside the chunk's kept count, its partial result folded from
// the neutral element, and FilterFold returns the total kept and the
// partials combined left to right in chunk order with op, as Reduce does.
// With one chunk it returns body(0, n, out[:n]).
func FilterFold[T, A any](n, grain int, out []T, body func(lo, hi int, dst []T) (int, A), op func(A, A) A) (int, A) {
	k := Chunks(n, grain)
	if k == 1 {
		return body(0, n, out[:n])
	}
	_ = out[n-1] // out too short: panic before any chunk runs
	slots := make([]slot[int], k)
	parts := make([]A, k)
	free := newScratchList[T](maxLen(n, k), k)
	execute(k, func(j *job, c int) {
		lo, hi := Bounds(n, k, c)
		s := &slots[c]
		if off, ok := filterOffset(j, slots, c, false); ok {
			kept, p := body(lo, hi, out[off:off+hi-lo])
			parts[c] = p
			s.total = kept
			publishIncl(j, s, off+kept)
			return
		}
		buf := free.get(c)
		kept, p := body(lo, hi, buf[:hi-lo])
		parts[c] = p
		publishTotal(j, s, kept)
		off, ok := filterOffset(j, slots, c, true)
		if !ok {
			return
		}
		publishIncl(j, s, off+kept)
		copy(out[off:off+kept], buf[:kept])
		free.put(c, buf)
	})
	acc := parts[0]
	for _, p := range parts[1:] {
		acc = op(acc, p)
	}
	return slots[k-1].incl, acc
}

// filterOffset is chunk c's output offset: the number of elements its
// predecessors keep (see carryOf).
func filterOffset(j *job, slots []slot[int], c int, block bool) (int, bool) {
	if c == 0 {
		return 0, true
	}
	return carryOf(j, slots, c, addInt, block)
}

func addInt(a, b int) int { return a + b }

// scratchList hands out the scratch buffers of one operation, each of
// size elements, reused from chunk to chunk: a few slots, each empty or
// holding one free buffer, taken and given back with atomic operations.
// It never blocks: under the mutex it had before, the goroutines of a
// filter of 1e6 points on 16 cores blocked on it about 16 times a call,
// each a sleep and a wake-up on some chunk's path (an execution trace of
// FilterMaxPar on the 16-core host, 2026-11-26). A get that finds no free
// buffer allocates one; a put that finds every slot taken drops its
// buffer. Each goroutine holds at most one buffer at a time, so with a
// slot per goroutine that can take part, buffers are allocated about
// once per goroutine.
type scratchList[T any] struct {
	size  int
	slots []atomic.Pointer[T] // a free buffer's first element, or nil
}

// newScratchList returns an empty list of buffers of size elements for
// an operation of k chunks.
func newScratchList[T any](size, k int) *scratchList[T] {
	return &scratchList[T]{size: size, slots: make([]atomic.Pointer[T], max(1, min(k, runtime.GOMAXPROCS(0))))}
}

// get returns a free buffer, looking first at slot hint (a chunk's
// index: goroutines running neighbouring chunks start at different
// slots), or a new one.
func (s *scratchList[T]) get(hint int) []T {
	if s.size > 0 {
		for i := range s.slots {
			slot := &s.slots[(hint+i)%len(s.slots)]
			if p := slot.Load(); p != nil && slot.CompareAndSwap(p, nil) {
				return unsafe.Slice(p, s.size)
			}
		}
	}
	return Alloc[T](s.size) // only the kept prefix is ever copied out
}

// put gives buf, a buffer from get, back to the list.
func (s *scratchList[T]) put(hint int, buf []T) {
	if len(buf) == 0 {
		return
	}
	for i := range s.slots {
		if s.slots[(hint+i)%len(s.slots)].CompareAndSwap(nil, &buf[0]) {
			return
		}
	}
}
