// Package directives holds specs with several //soac:fuse directives:
// each directive generates a function of its own from the one spec, with
// its own backend (and clustering), in the order the directives are
// written; the differential test compares every generated function with
// the spec. The pipelines compute on integers, so that every backend's
// results equal the spec's bit for bit.
package directives

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

func add32(a, b int32) int32 { return a + b }

// sumSqSpec has two directives: SumSq (cpu) and SumSqPar.
//
//soac:fuse SumSq
//soac:fuse SumSqPar backend=parallel
func sumSqSpec(xs []int) int {
	sq := soac.Map(xs, func(x int) int { return x * x })
	return soac.Reduce(sq, 0, func(a, b int) int { return a + b })
}

// statsSpec has three: Stats (cpu), StatsPar (parallel, clustered by the
// integer linear program) and StatsCL (opencl).
//
//soac:fuse Stats
//soac:fuse StatsPar backend=parallel cluster=ilp
//soac:fuse StatsCL backend=opencl
func statsSpec(xs []int32, k int32) (ys []int32, pos, top int32) {
	ys = soac.Map(xs, func(x int32) int32 { return x*k + 1 })
	gt := soac.Filter(xs, func(x int32) bool { return x > 0 })
	pos = soac.Reduce(soac.Map(gt, func(x int32) int32 { return 1 }), 0, add32)
	top = soac.Reduce(ys, math.MinInt32, func(a, b int32) int32 { return max(a, b) })
	return ys, pos, top
}

// checkedSpec panics on an element the lambda rejects: every generated
// function raises the spec's panic (the lowest index's).
//
//soac:fuse CheckedPar backend=parallel
//soac:fuse Checked
func checkedSpec(xs []int) []int {
	return soac.Map(xs, func(x int) int {
		if x%89 == 7 {
			panic(x)
		}
		return x / 3
	})
}
