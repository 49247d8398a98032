package parallel

// This file holds the order-keeping parallel filter: each chunk compacts
// its kept elements either straight into the output (when its offset is
// already known as it starts) or into a scratch buffer that it copies to
// its offset once its predecessors' counts are published (carry.go).
// It does not allocate the output (the generated code does, as the cpu
// backend does) nor evaluate any predicate itself (the body does).

import "sync"

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
	var free scratchList[T]
	size := maxLen(n, k)
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
		buf := free.get(size)
		kept, p := body(lo, hi, buf[:hi-lo])
		parts[c] = p
		publishTotal(j, s, kept)
		off, ok := filterOffset(j, slots, c, true)
		if !ok {
			return
		}
		publishIncl(j, s, off+kept)
		copy(out[off:off+kept], buf[:kept])
		free.put(buf)
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

// scratchList hands out the scratch buffers of one Filter call: at most
// one per goroutine taking part, reused from chunk to chunk.
type scratchList[T any] struct {
	mu   sync.Mutex
	bufs [][]T
}

func (s *scratchList[T]) get(size int) []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.bufs); n > 0 {
		b := s.bufs[n-1]
		s.bufs = s.bufs[:n-1]
		return b
	}
	return Alloc[T](size) // only the kept prefix is ever copied out
}

func (s *scratchList[T]) put(b []T) {
	s.mu.Lock()
	s.bufs = append(s.bufs, b)
	s.mu.Unlock()
}
