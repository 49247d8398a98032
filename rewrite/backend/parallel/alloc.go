package parallel

// This file decides whether a scan's operator is exact (exactType), so
// that a chunk may start from its carry (parallel.ScanExact). The
// parallel backend's outputs are allocated uncleared by
// hostgo.Func.UnclearedAlloc (parallel.Alloc), so that its chunks write
// (first-touch) their own ranges instead of the caller clearing all of it
// first (BENCHMARKS.md: the clear is half of a fresh scan's sequential
// time).

import "go/types"

// exactType reports whether the elements of t ([]E) hold no floating-
// point or complex numbers, so that an associative operator on them
// gives the same bits in any grouping (parallel.ScanExact).
func exactType(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	return ok && exact(s.Elem())
}

func exact(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsFloat|types.IsComplex|types.IsUntyped) == 0 && u.Kind() != types.Invalid
	case *types.Array:
		return exact(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if !exact(u.Field(i).Type()) {
				return false
			}
		}
		return true
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		// Compared and combined by reference or through code the
		// operator calls: treated as inexact, which is always correct.
		return false
	}
	return false
}
