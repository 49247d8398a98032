package signal

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkSignalPar compares the parallel backend with the cpu backend
// and a hand-written goroutine loop (one chunk per core) on the maps
// whose chunks run their vector forms (run with SOACGEN_SIMD=off for the
// same code on the scalar loops), beside the multi-core read bandwidth of
// the same input (readbw).
func BenchmarkSignalPar(b *testing.B) {
	for _, size := range extest.ParBenchSizes {
		samples := benchSamples(42, size.N)
		b.Run("Energy/"+size.Name, func(b *testing.B) {
			for _, im := range []impl[func([]int32) int32]{
				{"cpu", Energy},
				{"parallel", EnergyPar},
				{"goroutines", func(xs []int32) int32 {
					return extest.GoReduce(len(xs), func(lo, hi int) int32 { return energyHand(xs[lo:hi]) },
						func(a, b int32) int32 { return a + b })
				}},
			} {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(4 * len(samples)))
					for b.Loop() {
						im.fn(samples)
					}
				})
			}
		})
		b.Run("Integrate/"+size.Name, func(b *testing.B) {
			for _, im := range []impl[func([]int32, int32) []int32]{
				{"cpu", Integrate},
				{"parallel", IntegratePar},
				{"goroutines", integrateGo},
			} {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(4 * len(samples)))
					for b.Loop() {
						im.fn(samples, 3)
					}
				})
			}
		})
		xs := extest.Floats(extest.Rand(41, size.N), size.N, -4, 4)
		b.Run("Calibrate/"+size.Name, func(b *testing.B) {
			for _, im := range []impl[func([]float64) []float64]{
				{"cpu", Calibrate},
				{"parallel", CalibratePar},
				{"goroutines", func(xs []float64) []float64 {
					out := make([]float64, len(xs))
					extest.GoFor(len(xs), func(lo, hi int) { calibrateInto(out[lo:hi], xs[lo:hi]) })
					return out
				}},
				{"readbw", func(xs []float64) []float64 { extest.ReadBandwidth(xs); return nil }},
			} {
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

// integrateGo is integrateSpec as the two-pass goroutine scan a Go
// programmer writes: each chunk's sums, then each chunk's carry added.
func integrateGo(xs []int32, offset int32) []int32 {
	out := make([]int32, len(xs))
	extest.GoScan(len(xs), func(lo, hi int) int32 {
		return integrateInto(out[lo:hi], xs[lo:hi], offset, 0)
	}, func(lo, hi int, carry int32) {
		for i := lo; i < hi; i++ {
			out[i] += carry
		}
	}, func(a, b int32) int32 { return a + b })
	return out
}
