package parallel

// This file holds the operations without a carry between chunks: For
// and ForMeasured (maps writing disjoint ranges), Reduce (reductions and redomaps with
// per-chunk partials combined in chunk order), StreamMap and StreamRed. It
// does not hold the operations whose chunks depend on their predecessors'
// results (scan.go, filter.go).

import (
	"fmt"
	"time"
)

// For runs body over the chunks of [0, n) (see Chunks), in parallel,
// each chunk once: body(lo, hi) must handle the elements lo <= i < hi and
// write only to positions of preallocated outputs that no other chunk
// writes (out[lo:hi] for a map). With one chunk it calls body(0, n) on
// the caller's goroutine. A panic in body is re-raised on the caller's
// goroutine with the value of the lowest chunk that panicked, after every
// chunk that was running has stopped; chunks above it may not have run.
func For(n, grain int, body func(lo, hi int)) {
	k := Chunks(n, grain)
	if k == 1 {
		body(0, n)
		return
	}
	executeIndependent(k, func(_ *job, c int) {
		body(Bounds(n, k, c))
	})
}

// ForMeasured is For for a map whose work per element the generator
// could not estimate (nested arrays, loops of unknown length): when grain
// would split the work, it times element 0 on the caller's goroutine and
// runs the other elements sequentially or, when they make two grains of
// the timed work (Grain) or more, over chunks of ChunkGrain of it. A map's outputs do not depend on where chunks
// end, so its results stay the same for any core count or timing; do not
// use it where they would (reductions, scans, filters). Panics as For:
// element 0 is the lowest index.
func ForMeasured(n, grain int, body func(lo, hi int)) {
	if Chunks(n, grain) == 1 {
		body(0, n)
		return
	}
	start := time.Now()
	body(0, 1)
	grain = Grain(int(time.Since(start)))
	if Sequential(n-1, grain) {
		body(1, n)
		return
	}
	For(n-1, ChunkGrain(grain), func(lo, hi int) { body(lo+1, hi+1) })
}

// Reduce computes a reduction (or a redomap) over [0, n): body(lo, hi)
// returns the partial result of the chunk's elements, folded left to right
// from the neutral element; Reduce combines the partials in chunk order,
//
//	body(c0) ⊕ body(c1) ⊕ ... ⊕ body(ck-1),   a ⊕ b = op(a, b)
//
// left to right. The result depends only on n, grain and the inputs, not
// on the number of cores. With one chunk it returns body(0, n), computed
// on the caller's goroutine: exactly the sequential loop. Several
// reductions of one fused kernel use a struct A and an op that combines
// field by field. Panics as For.
func Reduce[A any](n, grain int, body func(lo, hi int) A, op func(A, A) A) A {
	k := Chunks(n, grain)
	if k == 1 {
		return body(0, n)
	}
	parts := partials(n, k, body)
	acc := parts[0]
	for _, p := range parts[1:] {
		acc = op(acc, p)
	}
	return acc
}

// partials runs body on each of the k chunks of [0, n) in parallel and
// returns their results in chunk order.
func partials[A any](n, k int, body func(lo, hi int) A) []A {
	parts := make([]A, k)
	executeIndependent(k, func(_ *job, c int) {
		parts[c] = body(Bounds(n, k, c))
	})
	return parts
}

// StreamMap is soac.StreamMap run in parallel: f is applied to the chunks
// of xs (see Chunks; no chunk is empty) and the results are concatenated
// into one fresh slice. f must return exactly len(chunk) elements;
// otherwise StreamMap panics with soac.StreamMap's message naming the
// chunk's bounds in xs (the chunks are this package's, not the
// reference's). A nil or empty xs gives an empty, non-nil result.
func StreamMap[T, U any](xs []T, grain int, f func(chunk []T) []U) []U {
	n := len(xs)
	out := make([]U, n)
	if n == 0 {
		return out
	}
	For(n, grain, func(lo, hi int) {
		ys := f(xs[lo:hi:hi])
		if len(ys) != hi-lo {
			panic(fmt.Sprintf("soac.StreamMap: chunk xs[%d:%d] has %d elements but f returned %d", lo, hi, hi-lo, len(ys)))
		}
		copy(out[lo:hi], ys)
	})
	return out
}

// StreamRed is soac.StreamRed run in parallel:
//
//	f(empty) ⊕ f(c0) ⊕ f(c1) ⊕ ... ⊕ f(ck-1)
//
// left to right over the chunks of xs (see Chunks), the f(ci) computed in
// parallel and folded as they arrive (foldChunks: the same calls of op in
// the same order). A nil or empty xs gives f(empty). Panics as For; a
// panic of op only where no f(ci) panicked.
func StreamRed[T, A any](xs []T, grain int, op func(A, A) A, f func(chunk []T) A) A {
	acc := f(xs[:0:0])
	n := len(xs)
	if n == 0 {
		return acc
	}
	k := Chunks(n, grain)
	if k == 1 {
		return op(acc, f(xs[:n:n]))
	}
	return foldChunks(n, k, acc, op, func(lo, hi int) A { return f(xs[lo:hi:hi]) })
}
