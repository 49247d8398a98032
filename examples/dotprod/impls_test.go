package dotprod

import (
	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// impls are the implementations that the test compares with the spec and the
// benchmark measures. The generated function is the "fused" entry.
var impls = []struct {
	name string
	fn   func(xs, ys []float64) float64
}{
	{"spec", dotSpec},
	{"fused", Dot},
	{"hand", dotHand},
	{"lo", dotLo},
	{"iter", dotIter},
}

// mul rounds the product (float64) so that no FMA forms with the sum.
func mul(x, y float64) float64 { return float64(x * y) }

// dotLo multiplies with lo.ZipBy2 (which pads a shorter input with zeros
// instead of panicking) and sums with lo.Sum.
func dotLo(xs, ys []float64) float64 {
	return lo.Sum(lo.ZipBy2(xs, ys, mul))
}

// dotIter is one chain.
func dotIter(xs, ys []float64) float64 {
	return seq.Reduce(seq.Map2(xs, ys, mul), 0.0, func(a, b float64) float64 { return a + b })
}
