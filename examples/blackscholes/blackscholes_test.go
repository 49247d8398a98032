package blackscholes

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestCallPriceKnown(t *testing.T) {
	// Hull, Options, Futures and Other Derivatives, example 15.6 (S=42, K=40,
	// T=0.5, r=10%, σ=20%): c = 4.76.
	if got := callPrice(Option{S: 42, K: 40, T: 0.5, R: 0.1, V: 0.2}); math.Abs(got-4.7594) > 1e-4 {
		t.Errorf("callPrice = %v, want 4.7594", got)
	}
	// Deep in the money, short expiry: close to S - K exp(-rT).
	if got, want := callPrice(Option{S: 200, K: 100, T: 0.01, R: 0.05, V: 0.1}), 200-100*math.Exp(-0.0005); math.Abs(got-want) > 1e-9 {
		t.Errorf("deep in the money: callPrice = %v, want %v", got, want)
	}
}

func randOptions(n int) []Option {
	r := extest.Rand(6, n)
	u := func(r *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	opts := make([]Option, n)
	for i := range opts {
		opts[i] = Option{S: u(r, 5, 30), K: u(r, 1, 100), T: u(r, 0.25, 10), R: u(r, 0.01, 0.1), V: u(r, 0.05, 0.65)}
	}
	return opts
}

func TestCallPrices(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		opts := randOptions(n)
		want := callPricesSpec(opts)
		for i, o := range opts[:min(n, 100)] {
			if !extest.SameFloat(want[i], callPrice(o)) {
				t.Fatalf("n=%d: the spec's lambda and callPrice differ on %+v", n, o)
			}
		}
		for _, im := range pricesImpls[1:] {
			if d := extest.DiffFloats(im.fn(opts), want); d != "" {
				t.Errorf("n=%d %s: %s", n, im.name, d)
			}
		}
	}
}

func TestPortfolioValue(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		opts := randOptions(n)
		want := portfolioValueSpec(opts)
		if n > 0 && !(want > 0) {
			t.Fatalf("n=%d: portfolio value %v", n, want)
		}
		for _, im := range valueImpls[1:] {
			if got := im.fn(opts); !extest.SameFloat(got, want) {
				t.Errorf("n=%d %s = %v, want %v", n, im.name, got, want)
			}
		}
	}
}
