package normalize2

import (
	"slices"

	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// impls are the implementations that the test compares with the spec and the
// benchmark measures. The generated function is the "fused" entry.
var impls = []struct {
	name string
	fn   func([]float64) ([]float64, []float64)
}{
	{"spec", normalize2Spec},
	{"fused", Normalize2},
	{"hand", normalize2Hand},
	{"lo", normalize2Lo},
	{"iter", normalize2Iter},
}

func add(a, b float64) float64 { return a + b }

// normalize2Lo is the pipeline with github.com/samber/lo: five passes, three
// of them allocating.
func normalize2Lo(xs []float64) ([]float64, []float64) {
	sum1 := lo.Sum(xs)
	sum2 := lo.Sum(lo.Filter(xs, func(x float64, _ int) bool { return x > 0 }))
	ys1 := lo.Map(xs, func(x float64, _ int) float64 { return x / sum1 })
	ys2 := lo.Map(xs, func(x float64, _ int) float64 { return x / sum2 })
	return ys1, ys2
}

// normalize2Iter is the pipeline as iterator chains: xs has four consumers,
// so four chains (four passes), none allocating an intermediate slice.
func normalize2Iter(xs []float64) ([]float64, []float64) {
	sum1 := seq.Reduce(seq.Values(xs), 0.0, add)
	sum2 := seq.Reduce(seq.Filter(seq.Values(xs), func(x float64) bool { return x > 0 }), 0.0, add)
	ys1 := slices.AppendSeq(make([]float64, 0, len(xs)), seq.Map(seq.Values(xs), func(x float64) float64 { return x / sum1 }))
	ys2 := slices.AppendSeq(make([]float64, 0, len(xs)), seq.Map(seq.Values(xs), func(x float64) float64 { return x / sum2 }))
	return ys1, ys2
}
