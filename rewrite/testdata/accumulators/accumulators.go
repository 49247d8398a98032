// Package accumulators holds integer reductions split over several
// accumulators (the loop unrolled), and reductions that keep one.
package accumulators

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse AccSumSquares
func accSumSquaresSpec(xs []int64) int64 {
	sq := soac.Map(xs, func(x int64) int64 { return x * x })
	return soac.Reduce(sq, 0, func(a, b int64) int64 { return a + b })
}

// Both bounds in one loop; min and max are idempotent, so any starting
// value may start every accumulator.
//
//soac:fuse AccBounds
func accBoundsSpec(xs []int32) (lo, hi int32) {
	lo = soac.Reduce(xs, 1<<31-1, func(a, b int32) int32 { return min(a, b) })
	hi = soac.Reduce(xs, 0, func(a, b int32) int32 { return max(b, a) })
	return lo, hi
}

// A map output written by every unrolled copy, a wrapping product, and a
// xor of an Iota.
//
//soac:fuse AccMixed
func accMixedSpec(xs []uint32) ([]uint32, uint32, int) {
	ys := soac.Map(xs, func(x uint32) uint32 { return x*2654435761 + 1 })
	p := soac.Reduce(ys, 1, func(a, b uint32) uint32 { return a * b })
	h := soac.Reduce(soac.Iota(len(xs)), 0, func(a, b int) int { return a ^ b })
	return ys, p, h
}

//soac:fuse AccAllBits
func accAllBitsSpec(xs []uint8) (uint8, uint8) {
	and := soac.Reduce(xs, 0xff, func(a, b uint8) uint8 { return a & b })
	or := soac.Reduce(xs, 0x10, func(a, b uint8) uint8 { return a | b })
	return and, or
}

// The reductions below keep one accumulator.

// 5 is not the neutral element of +: four accumulators would add it four
// times.
//
//soac:fuse AccNotNeutral
func accNotNeutralSpec(xs []int) int {
	return soac.Reduce(xs, 5, func(a, b int) int { return a + b })
}

// Floats keep their left-to-right order.
//
//soac:fuse AccFloatSum
func accFloatSumSpec(xs []float64) float64 {
	return soac.Reduce(xs, 0, func(a, b float64) float64 { return a + b })
}

// Subtraction is not associative.
//
//soac:fuse AccMinus
func accMinusSpec(xs []int) int {
	return soac.Reduce(xs, 0, func(a, b int) int { return a - b })
}
