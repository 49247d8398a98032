package sumsqpos

// The parallel backend's functions (the specs' backend=parallel
// directives) against the specs: the same result within rounding
// (integers identical), the same bits under GOMAXPROCS 1, 2 and 8, on
// sizes that run the sequential path and sizes that split into chunks.

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestSumSqPosPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(10, n), n, -1, 1)
		want := sumSqPosSpec(xs)
		got := extest.AcrossProcs(t, func() float64 { return SumSqPosPar(xs) })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: SumSqPosPar: %s", n, d)
		}
	}
}

func TestOrdersTotalPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		os := randomOrders(extest.Rand(11, n), n)
		want := ordersTotalSpec(os)
		got := extest.AcrossProcs(t, func() float64 { return OrdersTotalPar(os) })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: OrdersTotalPar: %s", n, d)
		}
	}
}
