package variance

import (
	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// impls are the implementations that the test compares with the spec and the
// benchmark measures. The generated function is the "fused" entry.
var impls = []struct {
	name string
	fn   func([]float64) (float64, float64)
}{
	{"spec", meanVarSpec},
	{"fused", MeanVar},
	{"hand", meanVarHand},
	{"lo", meanVarLo},
	{"iter", meanVarIter},
}

// momentsOf rounds the square (float64) so that no FMA forms with the
// sum once the chains are inlined.
func momentsOf(x float64) moments { return moments{x, float64(x * x)} }

func addMoments(a, b moments) moments { return moments{a.Sum + b.Sum, a.SumSq + b.SumSq} }

// fromMoments is the spec's last two lines.
func fromMoments(m moments, n int) (mean, variance float64) {
	mean = m.Sum / float64(n)
	return mean, m.SumSq/float64(n) - mean*mean
}

// meanVarLo maps with lo.Map (one slice of moments) and sums with
// lo.Reduce.
func meanVarLo(xs []float64) (float64, float64) {
	ms := lo.Map(xs, func(x float64, _ int) moments { return momentsOf(x) })
	m := lo.Reduce(ms, func(a, b moments, _ int) moments { return addMoments(a, b) }, moments{})
	return fromMoments(m, len(xs))
}

// meanVarIter is one chain.
func meanVarIter(xs []float64) (float64, float64) {
	return fromMoments(seq.Reduce(seq.Map(seq.Values(xs), momentsOf), moments{}, addMoments), len(xs))
}
