package opencl

// This file allocates the Go slices that a kernel's results are
// downloaded into. It does not decide which results are downloaded
// (residency.go) or how (runtime/opencl/skel).

import (
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/rewrite/hostgo"
)

// downloadDest allocates a result slice of elem and length n that the
// kernel's download writes in full before the generated code hands out
// any of it (a filter's result is cut to its kept count and capacity):
// uncleared, parallel.Alloc, when its elements hold no pointers, else
// make. A fresh slice from make is cleared by one goroutine before the
// download starts, which bounds the staged download on a GPU: into a
// fresh make'd destination 6-8 GB/s on the H100, into a parallel.Alloc'd
// one 30 GB/s, whose pages the staging copy's goroutines fault in
// (skel's BenchmarkTransfer down/fresh-*; BENCHMARKS.md). If the run
// fails, its result is dropped and the fallback computes its own.
func downloadDest(f *spec, elem types.Type, n jen.Code) *jen.Statement {
	if a := f.Uncleared(elem, n); a != nil {
		return a
	}
	return hostgo.MakeSlice(jen.Index().Add(f.Type(elem)), n)
}
