// Package refused asks for opencl, and the opencl backend refuses one of
// its two kernels: a lambda calls a strings function. The other kernel
// runs on the device as asked, and gets no finding.
package refused

import (
	"strings"

	"github.com/soacgen/soacgen/runtime/soac"
)

//soac:fuse Lengths backend=opencl
func lengthsSpec(ns []int, xs []float64) ([]int, float64) {
	ls := soac.Map(ns, func(n int) int { return len(strings.Repeat("ab", n)) }) // want `^fallback: kernel 1 of Lengths \(Map\): asked for opencl, runs parallel: backend opencl does not generate this kernel: .*strings\.Repeat.*; it falls back to parallel$`
	sum := soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0.0, func(a, b float64) float64 { return a + b })
	return ls, sum
}
