// Package opencl holds specs for backend=opencl: kernels the opencl
// backend renders (their OpenCL C is in the golden file, and the
// differential test runs them on the device when there is one), and one
// spec per reason it refuses a kernel, which then falls back to the CPU.
package opencl

import (
	"fmt"
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// Rendered kernels.

//soac:fuse Scaled backend=opencl
func scaledSpec(xs []float64, k float64) []float64 {
	return soac.Map(soac.Map(xs, func(x float64) float64 { return x * k }), func(x float64) float64 { return x + 1 })
}

// Quotients divides by zero for some elements: the device records it and
// the CPU code raises the spec's panic.
//
//soac:fuse Quotients backend=opencl
func quotientsSpec(xs, ys []int32) []int32 {
	return soac.Map2(xs, ys, func(x, y int32) int32 { return x / (y % 5) })
}

type weights struct {
	A, B int64
	Neg  bool
}

//soac:fuse Weighted backend=opencl
func weightedSpec(xs []int64, w weights, on bool) int64 {
	ys := soac.Map2(xs, soac.Iota(len(xs)), func(x int64, i int) int64 {
		if on != w.Neg {
			return x*w.A + int64(i)*w.B
		}
		return x
	})
	return soac.Reduce(ys, 0, func(a, b int64) int64 { return a + b })
}

//soac:fuse Extremes backend=opencl
func extremesSpec(xs []uint32) (uint32, uint32) {
	hi := soac.Reduce(xs, 0, func(a, b uint32) uint32 { return max(a, b) })
	lo := soac.Reduce(xs, math.MaxUint32, func(a, b uint32) uint32 { return min(a, b) })
	return lo, hi
}

//soac:fuse Ratios32 backend=opencl
func ratios32Spec(xs, ys []float32) []float32 {
	return soac.Map2(xs, ys, func(x, y float32) float32 { return x / y })
}

// Refused kernels, one per reason.

//soac:fuse FilterRefused backend=opencl
func filterRefusedSpec(xs []int) []int {
	return soac.Filter(xs, func(x int) bool { return x > 0 })
}

//soac:fuse ScanRefused backend=opencl
func scanRefusedSpec(xs []int, k int) []int {
	return soac.Scan(soac.Map(xs, func(x int) int { return x * k }), 0, func(a, b int) int { return a + b })
}

//soac:fuse StringRefused backend=opencl
func stringRefusedSpec(xs []string) []int {
	return soac.Map(xs, func(s string) int { return len(s) })
}

//soac:fuse Int8Refused backend=opencl
func int8RefusedSpec(xs []int8) []int8 {
	return soac.Map(xs, func(x int8) int8 { return x + 1 })
}

//soac:fuse SliceCaptureRefused backend=opencl
func sliceCaptureRefusedSpec(xs []int, table []int) []int {
	return soac.Map(xs, func(x int) int { return table[x&7] })
}

//soac:fuse NeutralRefused backend=opencl
func neutralRefusedSpec(xs []int, start int) int {
	return soac.Reduce(xs, start, func(a, b int) int { return max(a, b) }) // any start: max is idempotent (parallel starts each chunk from it)
}

//soac:fuse FuncValueRefused backend=opencl
func funcValueRefusedSpec(xs []float64, f func(float64) float64) []float64 {
	return soac.Map(xs, f)
}

//soac:fuse PanickyOpRefused backend=opencl
func panickyOpRefusedSpec(xs []int) int {
	return soac.Reduce(xs, 0, func(a, b int) int { return a + 60/(b|1) - 60/b })
}

//soac:fuse CallRefused backend=opencl
func callRefusedSpec(xs []float64) []int {
	return soac.Map(xs, func(x float64) int { return len(fmt.Sprint(x)) })
}

//soac:fuse NestedRefused backend=opencl
func nestedRefusedSpec(rows [][]int64) []int64 {
	return soac.Map(rows, func(row []int64) int64 {
		return soac.Reduce(soac.Map(row, func(x int64) int64 { return x * x }), 0, func(a, b int64) int64 { return a + b })
	})
}

// AutoScaled runs on a GPU when the cost model says so (never on PoCL's
// CPU device): the generated code asks launch's Use first.
//
//soac:fuse AutoScaled backend=auto
func autoScaledSpec(xs []float64, k float64) []float64 {
	return soac.Map(xs, func(x float64) float64 { return math.Sqrt(x) * k })
}

// Sums is a map-scan over integers.
//
//soac:fuse Sums backend=opencl
func sumsSpec(xs []int32) []int32 {
	return soac.Scan(soac.Map(xs, func(x int32) int32 { return 3*x + 1 }), 0, func(a, b int32) int32 { return a + b })
}

//soac:fuse OpCaptureRefused backend=opencl
func opCaptureRefusedSpec(xs []int, k int) int {
	return soac.Reduce(xs, 0, func(a, b int) int { return max(a, b, k) })
}
