package histogram

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
)

// TestHistogramCL compares the opencl variant, run on the device, with
// the spec: counts are integers, so every chunking gives the same ones.
// Values include NaN, ±Inf, ±0 and values outside the range (the first
// or the last bin).
func TestHistogramCL(t *testing.T) {
	cltest.Require(t, soacgenCLHistogramCL)
	cltest.NoFallbacks(t)
	sizes := append(extest.Sizes(testing.Short()), 33, 1<<16+7, 300_001)
	for _, nb := range []int{1, nbins, 1000} {
		for _, n := range sizes {
			xs := extest.Floats(extest.Rand(12, n), n, -1.1, 1.1)
			for i, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1} {
				if i < n {
					xs[(i*7919)%n] = v
				}
			}
			saved := append([]float64(nil), xs...)
			want := histogramSpec(xs, -1, 1, nb)
			if got := HistogramCL(xs, -1, 1, nb); !reflect.DeepEqual(got, want) {
				t.Errorf("nbins=%d n=%d: HistogramCL = %v, want %v", nb, n, got, want)
			}
			if !slices.EqualFunc(saved, xs, extest.SameFloat) {
				t.Errorf("nbins=%d n=%d: HistogramCL wrote its input", nb, n)
			}
		}
	}
}

// TestHistogramCLPanics checks that no bins (index -1) and a negative
// number of bins (make) raise the spec's panics.
func TestHistogramCLPanics(t *testing.T) {
	cltest.Require(t, soacgenCLHistogramCL)
	xs := extest.Floats(extest.Rand(13, 100), 100, -1, 1)
	for _, nb := range []int{0, -1} {
		want := extest.Panic(func() { histogramSpec(xs, -1, 1, nb) })
		if want == nil {
			t.Fatalf("nbins=%d: the spec does not panic", nb)
		}
		if got := extest.Panic(func() { HistogramCL(xs, -1, 1, nb) }); got == nil || got.(error).Error() != want.(error).Error() {
			t.Errorf("nbins=%d: HistogramCL panics with %v, want %v", nb, got, want)
		}
	}
}
