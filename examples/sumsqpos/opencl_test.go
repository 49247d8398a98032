package sumsqpos

import (
	"math"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
)

// TestSumSqPosCL compares the opencl variant, run on the device (the
// filter a select: a dropped element folds 0), with the spec: a tree of
// partial sums of positive terms, so equal within 1e-12 of the sum. Half
// the inputs are dropped; all-negative inputs give exactly 0.
func TestSumSqPosCL(t *testing.T) {
	cltest.Require(t, soacgenCLSumSqPosCL)
	cltest.NoFallbacks(t)
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(11, n), n, -1, 1)
		want := sumSqPosSpec(xs)
		if got := SumSqPosCL(xs); !cltest.Close(got, want, 1e-12, 0) {
			t.Errorf("n=%d SumSqPosCL = %v, want %v", n, got, want)
		}
		neg := extest.Floats(extest.Rand(12, n), n, -2, -1)
		if got := SumSqPosCL(neg); got != 0 || math.Signbit(got) {
			t.Errorf("n=%d SumSqPosCL(negatives) = %v, want +0", n, got)
		}
	}
	for _, xs := range [][]float64{{math.NaN(), 1}, {math.Inf(1), 2}, {math.Inf(-1), 3}, {-0.0}, {math.NaN()}} {
		if got, want := SumSqPosCL(xs), sumSqPosSpec(xs); !cltest.Close(got, want, 0, 0) || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("SumSqPosCL(%v) = %v, want %v", xs, got, want)
		}
	}
}

// TestOrdersTotalCL compares the opencl variant of the orders (a struct
// with a uint8 status field, filtered on it) with the spec, within
// rounding of the device's summation order.
func TestOrdersTotalCL(t *testing.T) {
	cltest.Require(t, soacgenCLOrdersTotalCL)
	cltest.NoFallbacks(t)
	for _, n := range extest.Sizes(testing.Short()) {
		os := randomOrders(extest.Rand(13, n), n)
		want := ordersTotalSpec(os)
		if got := OrdersTotalCL(os); !cltest.Close(got, want, 1e-12, 0) {
			t.Errorf("n=%d OrdersTotalCL = %v, want %v", n, got, want)
		}
	}
}
