package dotprod

import "github.com/soacgen/soacgen/runtime/soac"

// dotHand is dotSpec as one loop with one accumulator. It panics exactly as
// soac.Map2 does. The conversion float64(x*y) rounds the product before the
// addition, as storing it in the spec's array does: without it Go may fuse
// the multiply and the add into one FMA (arm64, GOAMD64=v3), which changes
// the result's last bits.
func dotHand(xs, ys []float64) float64 {
	if len(xs) != len(ys) {
		panic(soac.LengthError("Map2", len(xs), len(ys)))
	}
	sum := 0.0
	for i, x := range xs {
		sum += float64(x * ys[i])
	}
	return sum
}
