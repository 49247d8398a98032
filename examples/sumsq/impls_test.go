package sumsq

import (
	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// impls are the implementations that the test compares with the spec and the
// benchmark measures. The generated function is the "fused" entry.
// The squares are converted, float64(x * x), so that Go cannot fuse them with
// the sum into an FMA (arm64, GOAMD64=v3) and change the result.
var impls = []struct {
	name string
	fn   func([]float64) float64
}{
	{"spec", sumSqSpec},
	{"fused", SumSq},
	{"hand", sumSqHand},
	{"lo", func(xs []float64) float64 {
		return lo.Sum(lo.Map(xs, func(x float64, _ int) float64 { return float64(x * x) }))
	}},
	{"iter", func(xs []float64) float64 {
		return seq.Reduce(seq.Map(seq.Values(xs), func(x float64) float64 { return float64(x * x) }),
			0.0, func(a, b float64) float64 { return a + b })
	}},
}
