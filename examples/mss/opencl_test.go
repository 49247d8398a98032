package mss

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
)

// TestMSSCL compares the opencl variant (a map-reduce over the segs
// struct, combined in order on the device) with the spec: integers, so
// identical.
func TestMSSCL(t *testing.T) {
	cltest.Require(t, soacgenCLMSSCL)
	cltest.NoFallbacks(t)
	for _, n := range append(extest.Sizes(testing.Short()), 2, 3, 1000, 100003) {
		for seed := range uint64(3) {
			xs := extest.Ints(extest.Rand(50+seed, n), n, -100, 101)
			if got, want := MSSCL(xs), mssSpec(xs); got != want {
				t.Errorf("n=%d seed %d: MSSCL = %d, want %d", n, seed, got, want)
			}
		}
	}
	for _, xs := range [][]int{{-3}, {5}, {1, -2, 3, 5, -1, 2}, {-1, -2, -3}} {
		if got, want := MSSCL(xs), mssSpec(xs); got != want {
			t.Errorf("MSSCL(%v) = %d, want %d", xs, got, want)
		}
	}
}
