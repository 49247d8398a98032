package sumsq

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkSumSqPar compares the parallel backend with the cpu backend
// and a hand-written goroutine loop (one chunk per core), beside the
// multi-core read bandwidth of the same input (readbw).
func BenchmarkSumSqPar(b *testing.B) {
	impls := []struct {
		name string
		fn   func([]float64) float64
	}{
		{"cpu", SumSq},
		{"parallel", SumSqPar},
		{"goroutines", func(xs []float64) float64 {
			return extest.GoReduce(len(xs), func(lo, hi int) float64 { return sumSqHand(xs[lo:hi]) },
				func(a, b float64) float64 { return a + b })
		}},
		// readbw reads the same bytes on all cores and nothing else: the
		// ceiling of a memory-bound kernel in this run.
		{"readbw", func(xs []float64) float64 { return extest.ReadBandwidth(xs) }},
	}
	for _, size := range extest.ParBenchSizes {
		xs := extest.Floats(extest.Rand(9, size.N), size.N, -1, 1)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(8 * len(xs)))
					for b.Loop() {
						im.fn(xs)
					}
				})
			}
		})
	}
}
