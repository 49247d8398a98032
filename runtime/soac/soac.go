package soac

import "fmt"

// ChunkSize is the number of elements the reference implementation hands to
// each call of a StreamMap or StreamRed chunk function (the last chunk may be
// shorter).
//
// The reference runs sequentially, so chunking only has to amortise the cost
// of calling f: 4096 elements makes that call negligible next to the work on
// the chunk, and keeps a chunk of float64 (32 KiB) within a typical L1 data
// cache so that a chunk function making several passes over its chunk reads
// it from cache. Callers promise that f gives the same overall result for
// every partition, so the value is not part of the semantics; generated code
// chooses its own chunks.
const ChunkSize = 4096

// Map applies f to every element of xs, left to right:
//
//	Map(xs, f) = [f(xs[0]), f(xs[1]), ..., f(xs[n-1])]
//
// The result is freshly allocated and never nil: a nil or empty xs gives an
// empty, non-nil slice. f is called exactly once per element, in order.
func Map[T, U any](xs []T, f func(T) U) []U {
	f = Opaque(f)
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// Map2 applies f to the elements of xs and ys pairwise:
//
//	Map2(xs, ys, f) = [f(xs[0], ys[0]), ..., f(xs[n-1], ys[n-1])]
//
// It panics, before calling f, if len(xs) != len(ys); the panic message names
// Map2 and both lengths. The result is freshly allocated and never nil.
func Map2[T1, T2, U any](xs []T1, ys []T2, f func(T1, T2) U) []U {
	if len(xs) != len(ys) {
		panic(LengthError("Map2", len(xs), len(ys)))
	}
	f = Opaque(f)
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x, ys[i])
	}
	return out
}

// Map3 applies f to the elements of xs, ys and zs element-wise:
//
//	Map3(xs, ys, zs, f) = [f(xs[0], ys[0], zs[0]), ..., f(xs[n-1], ys[n-1], zs[n-1])]
//
// It panics, before calling f, if the three lengths are not all equal; the
// panic message names Map3 and the lengths. The result is freshly allocated
// and never nil.
func Map3[T1, T2, T3, U any](xs []T1, ys []T2, zs []T3, f func(T1, T2, T3) U) []U {
	if len(xs) != len(ys) || len(xs) != len(zs) {
		panic(LengthError("Map3", len(xs), len(ys), len(zs)))
	}
	f = Opaque(f)
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x, ys[i], zs[i])
	}
	return out
}

// Reduce folds xs with op from the left, starting from ne:
//
//	Reduce(xs, ne, op) = op(...op(op(ne, xs[0]), xs[1])..., xs[n-1])
//
// A nil or empty xs gives ne. The caller promises that op is associative and
// that ne is its neutral element, so that generated parallel code may
// re-associate the fold; this reference never does.
func Reduce[T any](xs []T, ne T, op func(T, T) T) T {
	op = Opaque(op)
	acc := ne
	for _, x := range xs {
		acc = op(acc, x)
	}
	return acc
}

// Scan is the inclusive prefix scan of xs under op, starting from ne:
//
//	Scan(xs, ne, op) = [ne⊕x0, ne⊕x0⊕x1, ..., ne⊕x0⊕...⊕x(n-1)]
//
// where a⊕b is op(a, b) applied left to right, so that the last element equals
// Reduce(xs, ne, op). The caller promises that op is associative with neutral
// element ne. The result is freshly allocated and never nil.
func Scan[T any](xs []T, ne T, op func(T, T) T) []T {
	op = Opaque(op)
	out := make([]T, len(xs))
	acc := ne
	for i, x := range xs {
		acc = op(acc, x)
		out[i] = acc
	}
	return out
}

// Filter returns the elements x of xs for which pred(x) holds, in their
// original order. pred is called exactly once per element, in order. The
// result is freshly allocated (it never shares memory with xs) and never nil.
func Filter[T any](xs []T, pred func(T) bool) []T {
	pred = Opaque(pred)
	out := make([]T, 0)
	for _, x := range xs {
		if pred(x) {
			out = append(out, x)
		}
	}
	return out
}

// StreamMap splits xs into consecutive chunks, applies f to each and
// concatenates the results:
//
//	StreamMap(xs, f) = f(c1) ++ f(c2) ++ ... ++ f(ck)   where xs = c1 ++ ... ++ ck
//
// The caller promises that the result does not depend on the partition of xs
// into chunks; this reference uses chunks of ChunkSize elements (unless a
// test set others: SetChunking), generated code may use others. f must
// return exactly len(chunk) elements: otherwise StreamMap panics with a
// message that names the chunk's offset in xs and both lengths. f is never
// called with an empty chunk; a nil or empty xs gives an empty, non-nil
// result. f must not retain or modify its chunk, which aliases xs.
func StreamMap[T, U any](xs []T, f func(chunk []T) []U) []U {
	f = Opaque(f)
	out := make([]U, 0, len(xs))
	size := chunkSize()
	for lo := 0; lo < len(xs); lo += size {
		hi := min(lo+size, len(xs))
		ys := f(xs[lo:hi:hi])
		if len(ys) != hi-lo {
			panic(fmt.Sprintf("soac.StreamMap: chunk xs[%d:%d] has %d elements but f returned %d", lo, hi, hi-lo, len(ys)))
		}
		out = append(out, ys...)
	}
	return out
}

// StreamRed splits xs into consecutive chunks, reduces each with f and
// combines the partial results with op:
//
//	StreamRed(xs, op, f) = f(empty) ⊕ f(c1) ⊕ ... ⊕ f(ck)   where xs = c1 ++ ... ++ ck
//
// with a⊕b = op(a, b) applied left to right; f of the empty chunk is the
// neutral element of op. A nil or empty xs gives f(empty). The caller
// promises that op is associative with neutral element f(empty) and that the
// result does not depend on the partition of xs into chunks; this reference
// uses chunks of ChunkSize elements. f must not retain or modify its chunk,
// which aliases xs.
func StreamRed[T, A any](xs []T, op func(A, A) A, f func(chunk []T) A) A {
	op, f = Opaque(op), Opaque(f)
	acc := f(xs[:0:0])
	size := chunkSize()
	for lo := 0; lo < len(xs); lo += size {
		hi := min(lo+size, len(xs))
		acc = op(acc, f(xs[lo:hi:hi]))
	}
	return acc
}

// Iota returns [0, 1, ..., n-1]. It panics if n < 0, with a message naming
// Iota and n. Iota(0) is an empty, non-nil slice.
func Iota(n int) []int {
	if n < 0 {
		panic(fmt.Sprintf("soac.Iota: negative length %d", n))
	}
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// Replicate returns a slice of n copies of v. It panics if n < 0, with a
// message naming Replicate and n. Replicate(0, v) is an empty, non-nil slice.
func Replicate[T any](n int, v T) []T {
	if n < 0 {
		panic(fmt.Sprintf("soac.Replicate: negative length %d", n))
	}
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// LengthError is the message Map2 and Map3 panic with when their inputs have
// unequal lengths, for example
//
//	soac.Map2: unequal lengths 3 and 4
//
// It is exported so that code generated by soacgen panics with exactly the
// reference's message.
func LengthError(fn string, lens ...int) string {
	msg := "soac." + fn + ": unequal lengths"
	for i, n := range lens {
		switch {
		case i == 0:
			msg += fmt.Sprintf(" %d", n)
		case i == len(lens)-1:
			msg += fmt.Sprintf(" and %d", n)
		default:
			msg += fmt.Sprintf(", %d", n)
		}
	}
	return msg
}
