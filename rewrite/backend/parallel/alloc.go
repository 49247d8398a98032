package parallel

// This file decides two things the parallel backend's loops depend on
// the element types for. How a materialised output is allocated: make,
// or, for the parallel backend's kernel, parallel.Alloc, which leaves a
// large pointer-free output uncleared so that its chunks write
// (first-touch) their own ranges instead of the caller clearing all of it
// first (BENCHMARKS.md: the clear is half of a fresh scan's sequential
// time). It relies on what rewrite/lower guarantees: an Indexed output
// is written at every index of the loop (it lives in the root space),
// and an AtCount output is cut to its kept count and capacity after the
// loop, so no uncleared element is ever returned. And whether a scan's
// operator is exact (exactType), so that a chunk may start from its
// carry (parallel.ScanExact). It does not decide which stores a kernel
// has (rewrite/lower does).

import (
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"go/types"
)

// unclearedAlloc allocates a large pointer-free output with
// parallel.Alloc (LoopParts' allocator for the parallel backend's
// kernels); other element types get make's.
func unclearedAlloc(f *hostgo.Func) hostgo.Allocator { return f.UnclearedAlloc() }

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
