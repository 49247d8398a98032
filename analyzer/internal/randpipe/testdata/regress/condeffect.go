// Regression (found in review): a producer was sunk into the branches of an
// if past an impure condition, because the fusion engine recovered the
// condition's own effects by subtracting those of the branches, and one
// impurity reason and one WritesGlobal flag cannot be subtracted: with a
// branch that also calls an impure function, the condition's effects were
// dropped. Fused, p reads scale after setScale(3) instead of before.

package condeffect

import "github.com/soacgen/soacgen/runtime/soac"

var scale int64

func setScale(v int64) bool {
	scale = v
	return v > 0
}

func getScale() int64 { return scale }

//soac:fuse CondEffect
func condEffectSpec(xs []int64) int64 {
	scale = 2
	p := soac.Map(xs, func(x int64) int64 { return x * getScale() })
	var q int64
	if setScale(3) {
		q = soac.Reduce(p, 0, func(a, b int64) int64 { return a + b })
		setScale(4)
	} else {
		q = soac.Reduce(p, 1, func(a, b int64) int64 { return a * b })
	}
	return q
}
