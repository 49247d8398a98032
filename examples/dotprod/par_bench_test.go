package dotprod

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkDotPar compares the parallel backend with the cpu backend and
// a hand-written goroutine loop (one chunk per core), beside the
// multi-core read bandwidth of the same inputs (readbw).
func BenchmarkDotPar(b *testing.B) {
	impls := []struct {
		name string
		fn   func(xs, ys []float64) float64
	}{
		{"cpu", Dot},
		{"parallel", DotPar},
		{"goroutines", func(xs, ys []float64) float64 {
			return extest.GoReduce(len(xs), func(lo, hi int) float64 { return dotHand(xs[lo:hi], ys[lo:hi]) },
				func(a, b float64) float64 { return a + b })
		}},
		// readbw reads the same bytes on all cores and nothing else: the
		// ceiling of a memory-bound kernel in this run.
		{"readbw", func(xs, ys []float64) float64 { return extest.ReadBandwidth(xs, ys) }},
	}
	for _, size := range extest.ParBenchSizes {
		xs := extest.Floats(extest.Rand(7, size.N), size.N, -1, 1)
		ys := extest.Floats(extest.Rand(8, size.N), size.N, -1, 1)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(16 * len(xs)))
					for b.Loop() {
						im.fn(xs, ys)
					}
				})
			}
		})
	}
}
