// Regression: a SOAC bound in a for statement's init was generated before
// the loop, in a wrapping block, so the loop variable was declared outside
// the loop: closures capturing it in the body shared one variable instead
// of Go 1.22's fresh copy per iteration, and saw its last value.

package loopinit

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse LoopInit
func loopInitSpec(xs []int64) []int64 {
	var fs []func() int64
	for ys := soac.Map(xs, func(x int64) int64 { return x * 3 }); len(ys) > 0; ys = ys[1:] {
		fs = append(fs, func() int64 {
			if len(ys) == 0 {
				return -1
			}
			return int64(len(ys)) + ys[0]
		})
	}
	out := make([]int64, 0, len(fs))
	for _, f := range fs {
		out = append(out, f())
	}
	return out
}
