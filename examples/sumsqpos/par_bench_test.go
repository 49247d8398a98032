package sumsqpos

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkSumSqPosPar compares the parallel backend with the cpu backend
// and a hand-written goroutine loop (one chunk per core).
func BenchmarkSumSqPosPar(b *testing.B) {
	impls := []struct {
		name string
		fn   func([]float64) float64
	}{
		{"cpu", SumSqPos},
		{"parallel", SumSqPosPar},
		{"goroutines", func(xs []float64) float64 {
			return extest.GoReduce(len(xs), func(lo, hi int) float64 { return sumSqPosHand(xs[lo:hi]) },
				func(a, b float64) float64 { return a + b })
		}},
	}
	for _, size := range extest.ParBenchSizes {
		xs := extest.Floats(extest.Rand(10, size.N), size.N, -1, 1)
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

// BenchmarkParPaired times SumSqPos (a filter folded into a reduction)
// at 1e5, 1e6 and 1e7 elements as extest.ParPaired does (the cpu,
// parallel and hand functions in turns).
func BenchmarkParPaired(b *testing.B) {
	for _, size := range extest.PairedSizes {
		xs := extest.Floats(extest.Rand(10, size.N), size.N, -1, 1)
		b.Run("SumSqPos/"+size.Name, func(b *testing.B) {
			extest.ParPaired(b, func() { SumSqPos(xs) }, func() { SumSqPosPar(xs) }, func() {
				extest.GoReduce(len(xs), func(lo, hi int) float64 { return sumSqPosHand(xs[lo:hi]) },
					func(a, b float64) float64 { return a + b })
			})
		})
	}
}
