package parallel

// This file holds StreamMapOr, the StreamMap that generated code calls: it
// keeps the reference's behaviour when a chunk function returns the wrong
// number of elements (the reference's panic names the reference's chunk
// bounds, which this package's chunks do not share). It does not change
// StreamMap.

// lengthMismatch is the panic value of a chunk whose f returned the wrong
// number of elements; StreamMapOr recovers it.
type lengthMismatch struct{}

// StreamMapOr is StreamMap, except that when f returns a number of
// elements other than len(chunk) for the lowest chunk that fails, or xs
// is empty, it returns ref() instead: generated code passes the
// reference call (soac.StreamMap(xs, f)), so that the result, or the
// panic and its message, is the spec's. A panic of f itself in a chunk
// below every mismatch is re-raised as For does.
func StreamMapOr[T, U any](xs []T, grain int, f func(chunk []T) []U, ref func() []U) []U {
	n := len(xs)
	if n == 0 {
		return ref()
	}
	out := make([]U, n)
	if mismatch := forMismatch(n, grain, func(lo, hi int) {
		ys := f(xs[lo:hi:hi])
		if len(ys) != hi-lo {
			panic(lengthMismatch{})
		}
		copy(out[lo:hi], ys)
	}); mismatch {
		return ref()
	}
	return out
}

// forMismatch runs For and reports whether its panic was a
// lengthMismatch; any other panic propagates.
func forMismatch(n, grain int, body func(lo, hi int)) (mismatch bool) {
	defer func() {
		if e := recover(); e != nil {
			if _, ok := e.(lengthMismatch); !ok {
				panic(e)
			}
			mismatch = true
		}
	}()
	For(n, grain, body)
	return false
}
