package matmul

import (
	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// impls are the implementations that the test compares with the spec and the
// benchmark measures. The generated function is the "fused" entry.
var impls = []struct {
	name string
	fn   func(a, bt [][]float64) [][]float64
}{
	{"spec", matMulSpec},
	{"fused", MatMul},
	{"hand", matMulHand},
	{"lo", matMulLo},
	{"iter", matMulIter},
}

// mul rounds the product (float64) so that no FMA forms with the sum.
func mul(x, y float64) float64 { return float64(x * y) }

// matMulLo is nested lo.Map calls around lo.Sum(lo.ZipBy2(...)), which pads
// unequal rows with zeros instead of panicking.
func matMulLo(a, bt [][]float64) [][]float64 {
	return lo.Map(a, func(row []float64, _ int) []float64 {
		return lo.Map(bt, func(col []float64, _ int) float64 {
			return lo.Sum(lo.ZipBy2(row, col, mul))
		})
	})
}

// matMulIter uses a chain for each inner product; the two outer levels are
// collected into slices.
func matMulIter(a, bt [][]float64) [][]float64 {
	c := make([][]float64, 0, len(a))
	for _, row := range a {
		ci := make([]float64, 0, len(bt))
		for _, col := range bt {
			ci = append(ci, seq.Reduce(seq.Map2(row, col, mul), 0.0, func(s, t float64) float64 { return s + t }))
		}
		c = append(c, ci)
	}
	return c
}
