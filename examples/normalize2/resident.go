package normalize2

import "github.com/soacgen/soacgen/runtime/soac"

// squaresCLSpec returns the squares of xs divided by their sum: two
// kernels (the squares mapped and summed, then divided), the squares an
// array the first writes and only the second reads. Generated for the
// opencl backend, SquaresCL keeps them on the device between the two.
//
//soac:fuse SquaresCL backend=opencl
func squaresCLSpec(xs []float64) []float64 {
	sq := soac.Map(xs, func(x float64) float64 { return x * x })
	sum := soac.Reduce(sq, 0.0, func(a, b float64) float64 { return a + b })
	return soac.Map(sq, func(y float64) float64 { return y / sum })
}

// quotientsCLSpec returns s / (x+1) for each x of xs, s the sum of the
// x+1: the x+1 stay on the device between the two kernels, and the
// second panics (integer divide by zero) where some x is -1.
//
//soac:fuse QuotientsCL backend=opencl
func quotientsCLSpec(xs []int64) []int64 {
	ys := soac.Map(xs, func(x int64) int64 { return x + 1 })
	s := soac.Reduce(ys, 0, func(a, b int64) int64 { return a + b })
	return soac.Map(ys, func(y int64) int64 { return s / y })
}
