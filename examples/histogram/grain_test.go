package histogram

import (
	"math"
	"reflect"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/parallel"
	"github.com/soacgen/soacgen/runtime/soac"
)

// histogramParGrain4546 is HistogramPar's grain when parcost charged inlined calls:
// parcost charged the call of bin (5 ns, which the compiler inlines) and
// estimated 11 ns an element; since, 6 ns (grain 8334).
const histogramParGrain4546 = 4546

// histogramParWithGrain is HistogramPar's parallel branch as generated
// (par_soac.go: the chunk function with its own copy of the literal,
// inlined into its loop), with grain given: BenchmarkParPaired times it
// with that old grain (oldgrain) beside HistogramPar.
func histogramParWithGrain(xs []float64, lo, hi float64, nbins, grain int) []int {
	return parallel.StreamRedChunks(len(xs), grain, false, make([]int, nbins), func(a, b []int) []int {
		out := make([]int, len(a))
		for i := range a {
			out[i] = a[i] + b[i]
		}
		return out
	}, func(lo4, hi4 int, _ []int) []int {
		fn := soac.Opaque(func(x float64) int {
			return bin(x, lo, hi, nbins)
		})
		bins := make([]int, nbins)
		for i := lo4; i < hi4; i++ {
			bins[fn(xs[i])]++
		}
		return bins
	})
}

// TestHistogramParWithGrain: the benchmark's variant counts what the
// spec counts, split (2e4 and 1e5 elements, NaN and ±Inf included) or
// not, with either grain.
func TestHistogramParWithGrain(t *testing.T) {
	for _, grain := range []int{histogramParGrain4546, 8334} {
		for _, n := range []int{0, 1, 7, 20_000, 100_000} {
			xs := extest.Floats(extest.Rand(16, n), n, -1.1, 1.1)
			for i, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				if i < n {
					xs[(i*7919)%n] = v
				}
			}
			if got, want := histogramParWithGrain(xs, -1, 1, nbins, grain), histogramSpec(xs, -1, 1, nbins); !reflect.DeepEqual(got, want) {
				t.Errorf("grain %d, n=%d: %v, want %v", grain, n, got, want)
			}
		}
	}
}
