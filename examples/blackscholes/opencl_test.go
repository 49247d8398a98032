package blackscholes

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
)

// The device's Exp, Log, Erf and Sqrt are within a few ULP of Go's
// (rewrite/clc's tests bound a price's error by 1e-12 relative to the
// terms, whose size is S, at most 100 here); a sum of prices adds the
// reassociation of a tree of partial sums.
const priceTol = 1e-12

// TestCallPricesCL compares the opencl variant, run on the device, with
// the spec, element by element.
func TestCallPricesCL(t *testing.T) {
	cltest.Require(t, soacgenCLCallPricesCL)
	cltest.NoFallbacks(t)
	for _, n := range extest.Sizes(testing.Short()) {
		opts := randOptions(n)
		want := callPricesSpec(opts)
		got := CallPricesCL(opts)
		if len(got) != len(want) || (got == nil) != (want == nil) {
			t.Fatalf("n=%d: %d prices (nil %v), want %d (nil %v)", n, len(got), got == nil, len(want), want == nil)
		}
		for i := range got {
			if !cltest.Close(got[i], want[i], priceTol, 100) {
				t.Fatalf("n=%d: price %d of %+v = %v, want %v", n, i, opts[i], got[i], want[i])
			}
		}
	}
}

// TestPortfolioValueCL compares the opencl variant's sum with the spec's.
func TestPortfolioValueCL(t *testing.T) {
	cltest.Require(t, soacgenCLPortfolioValueCL)
	cltest.NoFallbacks(t)
	for _, n := range extest.Sizes(testing.Short()) {
		opts := randOptions(n)
		want := portfolioValueSpec(opts)
		if got := PortfolioValueCL(opts); !cltest.Close(got, want, priceTol, 100*float64(n)) {
			t.Errorf("n=%d PortfolioValueCL = %v, want %v", n, got, want)
		}
	}
}

// TestCallPricesAuto compares the backend=auto variant with the spec: on
// the CPU (no GPU, or a call too small for the cost model) bit for bit,
// on a GPU within priceTol.
func TestCallPricesAuto(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		opts := randOptions(n)
		want := callPricesSpec(opts)
		got := CallPricesAuto(opts)
		if len(got) != len(want) || (got == nil) != (want == nil) {
			t.Fatalf("n=%d: %d prices (nil %v), want %d (nil %v)", n, len(got), got == nil, len(want), want == nil)
		}
		exact := !soacgenCLCallPricesAuto.Use(n)
		for i := range got {
			if exact && !extest.SameFloat(got[i], want[i]) || !cltest.Close(got[i], want[i], priceTol, 100) {
				t.Fatalf("n=%d (on the CPU: %v): price %d = %v, want %v", n, exact, i, got[i], want[i])
			}
		}
	}
}
