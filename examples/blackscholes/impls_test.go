package blackscholes

import (
	"slices"

	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// pricesImpls and valueImpls are the implementations that the tests compare
// with the specs and the benchmarks measure; the generated functions are the
// "fused" entries.
var pricesImpls = []struct {
	name string
	fn   func([]Option) []float64
}{
	{"spec", callPricesSpec},
	{"fused", CallPrices},
	{"hand", callPricesHand},
	{"lo", func(opts []Option) []float64 {
		return lo.Map(opts, func(o Option, _ int) float64 { return callPrice(o) })
	}},
	{"iter", func(opts []Option) []float64 {
		return slices.AppendSeq(make([]float64, 0, len(opts)), seq.Map(seq.Values(opts), callPrice))
	}},
}

var valueImpls = []struct {
	name string
	fn   func([]Option) float64
}{
	{"spec", portfolioValueSpec},
	{"fused", PortfolioValue},
	{"hand", portfolioValueHand},
	{"lo", func(opts []Option) float64 { return lo.SumBy(opts, callPrice) }},
	{"iter", func(opts []Option) float64 {
		return seq.Reduce(seq.Map(seq.Values(opts), callPrice), 0.0, func(a, b float64) float64 { return a + b })
	}},
}
