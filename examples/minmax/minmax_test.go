package minmax

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestBoundsKnown(t *testing.T) {
	if lo, hi := boundsSpec([]int32{3, -7, 12, 0}); lo != -7 || hi != 12 {
		t.Errorf("boundsSpec = %d, %d, want -7, 12", lo, hi)
	}
	if lo, hi := Bounds(nil); lo != math.MaxInt32 || hi != math.MinInt32 {
		t.Errorf("Bounds(nil) = %d, %d, want MaxInt32, MinInt32", lo, hi)
	}
}

func readings(r *rand.Rand, n int) []int32 {
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = r.Int32() - math.MaxInt32/2
	}
	return xs
}

// TestBounds compares every implementation with the spec, at the sizes of
// every example and at every length modulo the four accumulators: on the
// input as drawn, and with the extremes placed in each accumulator's lane
// (index j and n-1-j), and at the first and the last index, where a wrong
// remainder loop or combination would lose them.
func TestBounds(t *testing.T) {
	sizes := append(extest.Sizes(testing.Short()), 2, 3, 4, 5, 6, 8, 9)
	for _, n := range sizes {
		drawn := readings(extest.Rand(21, n), n)
		for j := -1; j < min(n, 4); j++ {
			xs := drawn
			if j >= 0 {
				xs = append([]int32(nil), drawn...)
				xs[j], xs[n-1-j] = math.MinInt32, math.MaxInt32
			}
			wantLo, wantHi := boundsSpec(xs)
			for _, im := range impls[1:] {
				if lo, hi := im.fn(xs); lo != wantLo || hi != wantHi {
					t.Errorf("n=%d extremes at %d %s = %d, %d, want %d, %d", n, j, im.name, lo, hi, wantLo, wantHi)
				}
			}
		}
	}
}

// TestBoundsAllocs checks that the fused loop allocates nothing.
func TestBoundsAllocs(t *testing.T) {
	xs := readings(extest.Rand(22, 1000), 1000)
	if a := testing.AllocsPerRun(20, func() { Bounds(xs) }); a != 0 {
		t.Errorf("Bounds allocates %v times per run, want 0", a)
	}
}
