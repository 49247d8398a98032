// Package neutrals holds specs whose neutral elements are not literals:
// constant expressions and known values (math.Inf, math.NaN, negated,
// converted) that the opencl backend builds into its kernels, values
// known only at run time that it passes as kernel arguments, and the
// arg-max pipeline whose Map2 and Reduce fuse on every backend; and the
// math functions the OpenCL translator maps onto C's.
package neutrals

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

type iv struct {
	I int
	V float64
}

func argMax(a, b iv) iv {
	if b.V > a.V {
		return b
	}
	return a
}

// argMaxCPUSpec: Iota(len(xs)) has the length of xs, and math.Inf cannot
// panic: the Map2 fuses into the Reduce (as in the two below).
//
//soac:fuse ArgMaxCPU backend=cpu
func argMaxCPUSpec(xs []float64) iv {
	ivs := soac.Map2(soac.Iota(len(xs)), xs, func(i int, x float64) iv { return iv{i, x} })
	return soac.Reduce(ivs, iv{-1, math.Inf(-1)}, argMax)
}

//soac:fuse ArgMaxPar backend=parallel
func argMaxParSpec(xs []float64) iv {
	ivs := soac.Map2(soac.Iota(len(xs)), xs, func(i int, x float64) iv { return iv{i, x} })
	return soac.Reduce(ivs, iv{-1, math.Inf(-1)}, argMax)
}

//soac:fuse ArgMaxCL backend=opencl
func argMaxCLSpec(xs []float64) iv {
	ivs := soac.Map2(soac.Iota(len(xs)), xs, func(i int, x float64) iv { return iv{i, x} })
	return soac.Reduce(ivs, iv{-1, math.Inf(-1)}, argMax)
}

//soac:fuse MaxInf backend=opencl
func maxInfSpec(xs []float64) float64 {
	return soac.Reduce(xs, math.Inf(-1), func(a, b float64) float64 { return max(a, b) })
}

//soac:fuse MaxNegMax backend=opencl
func maxNegMaxSpec(xs []float64) float64 {
	return soac.Reduce(xs, -math.MaxFloat64, func(a, b float64) float64 { return max(a, b) })
}

// minPosSpec folds the positive elements from -(-Inf).
//
//soac:fuse MinPos backend=opencl
func minPosSpec(xs []float64) float64 {
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	return soac.Reduce(pos, -math.Inf(-1), func(a, b float64) float64 { return min(a, b) })
}

//soac:fuse MinInf32 backend=opencl
func minInf32Spec(xs []float32) float32 {
	return soac.Reduce(xs, float32(math.Inf(1)), func(a, b float32) float32 { return min(a, b) })
}

// maxSkipNaN's operator ignores NaN operands, so NaN is its neutral
// element.
//
//soac:fuse MaxSkipNaN backend=opencl
func maxSkipNaNSpec(xs []float64) float64 {
	return soac.Reduce(xs, math.NaN(), func(a, b float64) float64 {
		switch {
		case math.IsNaN(a):
			return b
		case math.IsNaN(b):
			return a
		}
		return max(a, b)
	})
}

// maxFrom's start is a parameter, a kernel argument: max is associative
// (NaN included) and idempotent, so the result is the spec's whatever lo
// is.
//
//soac:fuse MaxFrom backend=opencl
func maxFromSpec(xs []float64, lo float64) float64 {
	return soac.Reduce(xs, lo, func(a, b float64) float64 { return max(a, b) })
}

// minPosFrom's start is computed before the kernel, in a kernel that
// folds the kept elements as selects.
//
//soac:fuse MinPosFrom backend=opencl
func minPosFromSpec(xs []float64, k float64) (float64, float64) {
	hi := k * 2
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	m := soac.Reduce(pos, hi, func(a, b float64) float64 { return min(a, b) })
	s := soac.Reduce(xs, math.Inf(-1), func(a, b float64) float64 { return max(a, b) })
	return m, s
}

// scanFrom: a scan's start known only at run time is refused by the
// opencl backend (the scan skeletons build theirs in): it runs on the
// next backend.
//
//soac:fuse ScanFrom backend=opencl
func scanFromSpec(xs []int64, lo int64) []int64 {
	return soac.Scan(xs, lo, func(a, b int64) int64 {
		if a > b {
			return a
		}
		return b
	})
}

//soac:fuse MathExact backend=opencl
func mathExactSpec(xs, ys []float64, es []int) []float64 {
	a := soac.Map2(xs, ys, func(x, y float64) float64 { return math.Mod(x, y) + math.Remainder(y, x) })
	b := soac.Map2(xs, ys, func(x, y float64) float64 { return math.Dim(x, y) * math.FMA(x, y, 1) })
	c := soac.Map2(xs, es, func(x float64, e int) float64 { return math.Ldexp(x, e) - math.Logb(x) })
	return soac.Map3(a, b, c, func(p, q, r float64) float64 { return p + q + r })
}
