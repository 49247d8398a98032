// Regression (found by randpipe, write-sort and write-call hazards): a call
// whose only effect is writing its slice argument (slices.Sort, a package
// function writing its parameter) is refused as "impure" instead of
// "write-between": build sets Effects.Impure from purity.CallEffect.Purity
// without looking at CallEffect.ArgWritesOnly.

package argwrite

import (
	"slices"

	"github.com/soacgen/soacgen/runtime/soac"
)

func bump(v []int64, d int64) {
	for i := range v {
		v[i] += d
	}
}

// sortSpec has hazard write-sort (producer p, consumer q).
//
//soac:fuse SortBetween
func sortSpec(xs []int64) int64 {
	p := soac.Map(xs, func(x int64) int64 { return x * 3 })
	slices.Sort(xs)
	q := soac.Reduce(p, 0, func(a, b int64) int64 { return a + b })
	return q
}

// bumpSpec has hazard write-call (producer p, consumer q).
//
//soac:fuse BumpBetween
func bumpSpec(xs []int64) []int64 {
	p := soac.Map(xs, func(x int64) int64 { return x - 1 })
	bump(xs, 3)
	q := soac.Map(p, func(v int64) int64 { return v * v })
	return q
}
