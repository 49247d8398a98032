package histogram

import (
	"math"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// countsSizes are the lengths of the bins tests: empty, one, odd, more
// elements than a device runs work-items at once.
func countsSizes() []int {
	return append(extest.Sizes(testing.Short()), 33, 1<<16+7, 300_001)
}

// TestCountsCL compares CountsCL and WeightsCL with their specs on random
// inputs, with one bin, a few, and more than local memory holds on any
// device (1<<18 bins of 8 bytes: the global-atomic kernel), and checks
// that the bins skeleton ran every call with elements.
func TestCountsCL(t *testing.T) {
	cltest.Require(t, soacgenCLCountsCL, soacgenCLWeightsCL)
	cltest.NoFallbacks(t)
	defer launch.SetBinsOnCPU(launch.SetBinsOnCPU(true)) // PoCL too
	for _, nb := range []int{1, 37, 4096, 1 << 18} {
		for _, n := range countsSizes() {
			r := extest.Rand(21, n)
			idx := extest.Ints(r, n, 0, nb)
			xs := make([]uint32, n)
			for i := range xs {
				xs[i] = r.Uint32()
			}
			runs := launch.BinsRuns()
			if got, want := CountsCL(idx, nb), countsSpec(idx, nb); !slices.Equal(got, want) {
				t.Errorf("nbins=%d n=%d: CountsCL differs from the spec at %d", nb, n, firstDiff(got, want))
			}
			if got, want := WeightsCL(xs, nb), weightsSpec(xs, nb); !slices.Equal(got, want) {
				t.Errorf("nbins=%d n=%d: WeightsCL differs from the spec at %d", nb, n, firstDiff(got, want))
			}
			if d := launch.BinsRuns() - runs; n > 0 && d != 2 {
				t.Errorf("nbins=%d n=%d: the bins skeleton ran %d calls of 2", nb, n, d)
			}
		}
	}
}

// TestCountsCLPanics checks that an index outside the bins, below or
// above, raises the spec's panic (Go's index out of range at the first
// such element), wherever it is and however many there are.
func TestCountsCLPanics(t *testing.T) {
	cltest.Require(t, soacgenCLCountsCL)
	defer launch.SetBinsOnCPU(launch.SetBinsOnCPU(true))
	for _, n := range []int{1, 7, 1000, 300_001} {
		for _, bad := range [][2]int{{-1, 0}, {37, 0}, {math.MaxInt, -5}, {40, 38}} {
			idx := extest.Ints(extest.Rand(22, n), n, 0, 37)
			idx[n/2] = bad[0]
			if n > 2 {
				idx[n-1] = bad[1] // a second one, after the first
			}
			want := extest.Panic(func() { countsSpec(idx, 37) })
			if want == nil {
				t.Fatalf("n=%d %v: the spec does not panic", n, bad)
			}
			if got := extest.Panic(func() { CountsCL(idx, 37) }); got == nil || got.(error).Error() != want.(error).Error() {
				t.Errorf("n=%d %v: CountsCL panics with %v, want %v", n, bad, got, want)
			}
		}
	}
}

// firstDiff returns the first index where a and b differ, or -1.
func firstDiff[T comparable](a, b []T) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}
