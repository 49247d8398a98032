package blackscholes

// The parallel backend's functions (the specs' backend=parallel
// directives) against the specs: the same result within rounding
// (integers identical), the same bits under GOMAXPROCS 1, 2 and 8, on
// sizes that run the sequential path and sizes that split into chunks.

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestCallPricesPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		opts := randOptions(n)
		want := callPricesSpec(opts)
		got := extest.AcrossProcs(t, func() []float64 { return CallPricesPar(opts) })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: CallPricesPar: %s", n, d)
		}
	}
}

func TestPortfolioValuePar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		opts := randOptions(n)
		want := portfolioValueSpec(opts)
		got := extest.AcrossProcs(t, func() float64 { return PortfolioValuePar(opts) })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: PortfolioValuePar: %s", n, d)
		}
	}
}
