// Regression specs: a Map or Scan read by a Reduce, then reassigned in an
// if without else, and returned: the generated code materialised the
// array only in the branch, so it returned nil where the branch did not
// run.

package reassigncond

import "github.com/soacgen/soacgen/runtime/soac"

// condKeepSpec has shapes cond-reassign.
//
//soac:fuse CondKeep
func condKeepSpec(xs []int64) ([]int64, int64) {
	a := soac.Scan(xs, 0, func(x, y int64) int64 { return x + y })
	s := soac.Reduce(a, 0, func(x, y int64) int64 { return x + y })
	if len(xs)%2 == 1 {
		a = soac.Map(xs, func(x int64) int64 { return -x })
	}
	return a, s
}

// condKeepMapSpec has shapes cond-reassign.
//
//soac:fuse CondKeepMap
func condKeepMapSpec(xs []int64) ([]int64, int64) {
	a := soac.Map(xs, func(x int64) int64 { return x * 2 })
	s := soac.Reduce(a, 0, func(x, y int64) int64 { return x + y })
	if len(xs)%2 == 1 {
		a = soac.Map(xs, func(x int64) int64 { return -x })
	}
	return a, s
}
