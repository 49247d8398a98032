package sumsq

import (
	"math"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
)

// TestSumSqCL compares the opencl variant, run on the device, with the
// spec: a tree of partial sums instead of a left-to-right sum, so equal
// within 1e-12 of the sum (all terms are positive).
func TestSumSqCL(t *testing.T) {
	cltest.Require(t, soacgenCLSumSqCL)
	cltest.NoFallbacks(t)
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(9, n), n, -1, 1)
		want := sumSqSpec(xs)
		if got := SumSqCL(xs); !cltest.Close(got, want, 1e-12, 0) {
			t.Errorf("n=%d SumSqCL = %v, want %v", n, got, want)
		}
	}
	for _, xs := range [][]float64{{math.NaN(), 1}, {math.Inf(1), 2}, {math.Inf(-1), math.Inf(1)}, {-0.0}} {
		if got, want := SumSqCL(xs), sumSqSpec(xs); !cltest.Close(got, want, 0, 0) {
			t.Errorf("SumSqCL(%v) = %v, want %v", xs, got, want)
		}
	}
}

// TestSumSqAuto compares the backend=auto variant with the spec: the
// device's tree of partial sums or the parallel backend's chunks, both
// within rounding of the spec's left-to-right sum.
func TestSumSqAuto(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(10, n), n, -1, 1)
		if got, want := SumSqAuto(xs), sumSqSpec(xs); !cltest.Close(got, want, 1e-12, 0) {
			t.Errorf("n=%d (device: %v) SumSqAuto = %v, want %v", n, soacgenCLSumSqAuto.Use(n), got, want)
		}
	}
}
