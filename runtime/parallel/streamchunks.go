package parallel

// This file holds the streams whose input is computed chunk by chunk:
// maps fused into a StreamRed or StreamMap (soacgen's chunk loop). The
// body of a chunk computes the maps' elements of its range itself, into
// a buffer or inside the chunk function's own loop, and applies the
// stream's chunk function; no array of the maps' results exists. It does
// not compute any element (the body does) nor decide the chunks
// (chunk.go does).

// StreamRedChunks is StreamRed for a stream whose input the body
// computes: body(lo, hi, buf) computes the elements lo <= i < hi of the
// stream's input and returns the chunk function's result on them, and
// StreamRedChunks returns
//
//	acc ⊕ body(c0) ⊕ body(c1) ⊕ ... ⊕ body(ck-1),   a ⊕ b = op(a, b)
//
// left to right over the chunks of [0, n) (see Chunks), the bodies run in
// parallel and their results folded as they arrive (foldChunks: the same
// calls of op in the same order). The caller passes f(empty) as acc, which the spec computes
// first. The chunks depend on n and grain only, so the result is the
// same for any number of cores (the spec's StreamRed promises it does not
// depend on the chunks at all). With scratch set, buf is a slice of at
// least hi-lo elements (contents unspecified) that the goroutine running
// the chunk reuses for its later chunks: the body's result must not refer
// to it. Otherwise buf is nil. With one chunk it returns
// op(acc, body(0, n, buf)), computed on the caller's goroutine; n <= 0
// returns acc. Panics as For.
func StreamRedChunks[T, A any](n, grain int, scratch bool, acc A, op func(A, A) A, body func(lo, hi int, buf []T) A) A {
	if n <= 0 {
		return acc
	}
	k := Chunks(n, grain)
	chunk := withScratch(n, k, scratch, body)
	if k == 1 {
		return op(acc, chunk(0, n))
	}
	return foldChunks(n, k, acc, op, chunk)
}

// StreamMapChunks is StreamMap for a stream whose input the body
// computes: body(lo, hi, buf) computes the elements lo <= i < hi of the
// stream's input and returns the chunk function's result on them, which
// must have hi-lo elements; they are copied to out[lo:hi] of a fresh
// slice of n elements. It returns that slice and true, or nil and false
// when a chunk's result has another length and no lower chunk panicked:
// generated code then runs the spec's calls, whose panic names the
// reference's chunk (see StreamMapOr). buf is as for StreamRedChunks. A
// panic of a body in a chunk below every length mismatch is re-raised as
// For does. n <= 0 gives an empty, non-nil slice.
func StreamMapChunks[T, U any](n, grain int, scratch bool, body func(lo, hi int, buf []T) []U) ([]U, bool) {
	if n <= 0 {
		return []U{}, true
	}
	// Every element is written by its chunk before out is returned.
	out := Alloc[U](n)
	chunk := withScratch(n, Chunks(n, grain), scratch, func(lo, hi int, buf []T) struct{} {
		ys := body(lo, hi, buf)
		if len(ys) != hi-lo {
			panic(lengthMismatch{})
		}
		copy(out[lo:hi], ys)
		return struct{}{}
	})
	// For cuts the same chunks, Chunks(n, grain) of them.
	if mismatch := forMismatch(n, grain, func(lo, hi int) { chunk(lo, hi) }); mismatch {
		return nil, false
	}
	return out, true
}

// withScratch returns body as a function of a chunk's bounds: with
// scratch, each call gets a buffer of the longest chunk's length from a
// list that the chunks of one operation share (at most one buffer per
// goroutine taking part is ever allocated), returned to it after the
// body; without, a nil buffer.
func withScratch[T, A any](n, k int, scratch bool, body func(lo, hi int, buf []T) A) func(lo, hi int) A {
	if !scratch {
		return func(lo, hi int) A { return body(lo, hi, nil) }
	}
	size := maxLen(n, k)
	free := newScratchList[T](size, k)
	return func(lo, hi int) A {
		buf := free.get(lo / max(size, 1))
		r := body(lo, hi, buf)
		free.put(lo/max(size, 1), buf) // not reached on a panic: that buffer is dropped
		return r
	}
}
