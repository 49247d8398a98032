package dotprod

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
)

// TestDotCL compares the opencl variant, run on the device, with the
// spec: equal within 1e-12 of the sum of |x*y| (a tree of partial sums
// instead of a left-to-right sum).
func TestDotCL(t *testing.T) {
	cltest.Require(t, soacgenCLDotCL)
	cltest.NoFallbacks(t)
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(7, n), n, -1, 1)
		ys := extest.Floats(extest.Rand(8, n), n, -1, 1)
		scale := 0.0
		for i := range xs {
			scale += max(xs[i]*ys[i], -xs[i]*ys[i])
		}
		want := dotSpec(xs, ys)
		if got := DotCL(xs, ys); !cltest.Close(got, want, 1e-12, scale) {
			t.Errorf("n=%d DotCL = %v, want %v", n, got, want)
		}
	}
	// Unequal lengths never reach the device: the CPU code panics as the
	// spec does.
	want := extest.Panic(func() { dotSpec([]float64{1, 2, 3}, []float64{1, 2}) })
	if got := extest.Panic(func() { DotCL([]float64{1, 2, 3}, []float64{1, 2}) }); got != want {
		t.Errorf("DotCL panics with %v, want %v", got, want)
	}
}
