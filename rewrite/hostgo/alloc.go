package hostgo

// This file allocates slices whose every element the generated code
// writes before it hands any out: uncleared (runtime/parallel's Alloc)
// when their elements hold no pointers, so that the goroutines that
// fill them fault their pages in instead of one goroutine clearing
// them first (the parallel backend's outputs, the opencl backend's
// download destinations).

import (
	"go/types"

	"github.com/dave/jennifer/jen"
)

// ParallelPath is the import path of the parallel runtime.
const ParallelPath = "github.com/soacgen/soacgen/runtime/parallel"

// PointerFree reports whether values of t hold no pointers: numbers,
// bools, and arrays and structs of them (parallel.Alloc checks the same
// at run time and clears anything else).
func PointerFree(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsNumeric|types.IsBoolean) != 0
	case *types.Array:
		return PointerFree(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if !PointerFree(u.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}

// UnclearedAlloc is the Allocator of outputs written at every index
// before the code hands them out: parallel.Alloc (Uncleared) for
// pointer-free elements, cut to n so that the compiler knows the length
// as with make; make for others. An Indexed output is written at every
// index of its loop, an AtCount one cut to its kept count and capacity
// (rewrite/lower), so no uncleared element is ever returned.
func (f *Func) UnclearedAlloc() Allocator {
	return func(elem types.Type, n string) *jen.Statement {
		a := f.Uncleared(elem, Id(n))
		if a == nil {
			return nil
		}
		return a.Index(jen.Empty(), Id(n))
	}
}

// Uncleared returns parallel.Alloc[elem](n), a slice of n elem left
// uncleared, when elem is PointerFree, else nil.
func (f *Func) Uncleared(elem types.Type, n jen.Code) *jen.Statement {
	if !PointerFree(elem) {
		return nil
	}
	return jen.Qual(ParallelPath, "Alloc").Types(f.Type(elem)).Call(n)
}
