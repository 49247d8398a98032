package minmax

import (
	"math"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
)

// TestBoundsCL compares the opencl variant, run on the device, with the
// spec: integers, so identical, with the extremes at the ends and in the
// middle.
func TestBoundsCL(t *testing.T) {
	cltest.Require(t, soacgenCLBoundsCL)
	cltest.NoFallbacks(t)
	for _, n := range append(extest.Sizes(testing.Short()), 2, 3, 1000, 100003) {
		xs := readings(extest.Rand(23, n), n)
		for _, j := range []int{-1, 0, n / 2, n - 1} {
			if j >= n {
				continue
			}
			ys := xs
			if j >= 0 {
				ys = append([]int32(nil), xs...)
				ys[j], ys[n-1-j] = math.MinInt32, math.MaxInt32
			}
			wantLo, wantHi := boundsSpec(ys)
			if lo, hi := BoundsCL(ys); lo != wantLo || hi != wantHi {
				t.Errorf("n=%d extremes at %d: BoundsCL = %d, %d, want %d, %d", n, j, lo, hi, wantLo, wantHi)
			}
		}
	}
	if lo, hi := BoundsCL(nil); lo != math.MaxInt32 || hi != math.MinInt32 {
		t.Errorf("BoundsCL(nil) = %d, %d", lo, hi)
	}
}
