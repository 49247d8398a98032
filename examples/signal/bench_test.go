package signal

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/lanes"
)

// benchSizes are the benchmarks' sizes: one element (the call's overhead),
// 1e4 (the inputs in L1 or L2) and 1e7 (80 MB of float64 a slice: DRAM).
var benchSizes = []extest.BenchSize{{Name: "n=1", N: 1}, {Name: "n=1e4", N: 10_000}, {Name: "n=1e7", N: 10_000_000}}

// A benchImpl is an implementation as the benchmarks run it: width, unless
// negative, is the vector width (lanes.Width) set for its run.
type benchImpl[F any] struct {
	impl[F]
	width int
}

// withWidths returns a table's implementations, with two more after
// "fused": the same function on the 256-bit forms (fused-avx2) and on the
// scalar loops alone (fused-scalar).
func withWidths[F any](impls []impl[F]) []benchImpl[F] {
	var out []benchImpl[F]
	for _, im := range impls {
		out = append(out, benchImpl[F]{im, -1})
		if im.name == "fused" {
			out = append(out, benchImpl[F]{impl[F]{"fused-avx2", im.fn}, lanes.AVX2},
				benchImpl[F]{impl[F]{"fused-scalar", im.fn}, lanes.Scalar})
		}
	}
	return out
}

// useWidth sets lanes.Width to w for one benchmark and returns what
// restores it; w < 0 leaves it. It skips a width wider than the one this
// build and CPU run (a build without GOEXPERIMENT=simd has none).
func useWidth(b *testing.B, w int) (restore func()) {
	old := lanes.Width
	if w < 0 {
		return func() {}
	}
	if w > old {
		b.Skipf("lanes.Width is %d: no %d-bit forms in this build or on this CPU", old, w)
	}
	lanes.Width = w
	return func() { lanes.Width = old }
}

// bench runs every implementation of impls (with withWidths) at every
// size: input(n) makes the inputs of size n and returns the call of an
// implementation on them; bytes is what a call reads per element.
func bench[F any](b *testing.B, impls []impl[F], bytes int, input func(n int) func(F)) {
	for _, size := range benchSizes {
		call := input(size.N)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range withWidths(impls) {
				b.Run(im.name, func(b *testing.B) {
					defer useWidth(b, im.width)()
					b.ReportAllocs()
					b.SetBytes(int64(bytes * size.N))
					for b.Loop() {
						call(im.fn)
					}
				})
			}
		})
	}
}

// benchSamples are int32 samples drawn from ±2^20, as from a 21-bit
// converter; benchLimit clips about 5% of them.
func benchSamples(seed uint64, n int) []int32 {
	r := extest.Rand(seed, n)
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = r.Int32N(1<<21) - 1<<20
	}
	return xs
}

const benchLimit = 1 << 20 * 95 / 100

func BenchmarkCalibrate(b *testing.B) {
	bench(b, calibrateImpls, 8, func(n int) func(func([]float64) []float64) {
		xs := extest.Floats(extest.Rand(11, n), n, -1, 1)
		return func(f func([]float64) []float64) { f(xs) }
	})
}

func BenchmarkMagnitude(b *testing.B) {
	bench(b, magnitudeImpls, 16, func(n int) func(func(re, im []float64) []float64) {
		re, im := extest.Floats(extest.Rand(12, n), n, -1, 1), extest.Floats(extest.Rand(13, n), n, -1, 1)
		return func(f func(re, im []float64) []float64) { f(re, im) }
	})
}

func BenchmarkCosPhase(b *testing.B) {
	bench(b, cosPhaseImpls, 16, func(n int) func(func(re, im []float64) []float64) {
		re, im := extest.Floats(extest.Rand(12, n), n, -1, 1), extest.Floats(extest.Rand(13, n), n, -1, 1)
		return func(f func(re, im []float64) []float64) { f(re, im) }
	})
}

func BenchmarkToUnit(b *testing.B) {
	bench(b, toUnitImpls, 4, func(n int) func(func([]int32) []float32) {
		xs := benchSamples(14, n)
		return func(f func([]int32) []float32) { f(xs) }
	})
}

func BenchmarkEnergy(b *testing.B) {
	bench(b, energyImpls, 4, func(n int) func(func([]int32) int32) {
		xs := benchSamples(15, n)
		return func(f func([]int32) int32) { f(xs) }
	})
}

func BenchmarkClipped(b *testing.B) {
	bench(b, clippedImpls, 4, func(n int) func(func([]int32, int32) int) {
		xs := benchSamples(16, n)
		return func(f func([]int32, int32) int) { f(xs, benchLimit) }
	})
}

func BenchmarkSpikes(b *testing.B) {
	bench(b, spikesImpls, 4, func(n int) func(func([]int32, int32) []int32) {
		xs := benchSamples(18, n)
		return func(f func([]int32, int32) []int32) { f(xs, benchLimit) }
	})
}

func BenchmarkPeak(b *testing.B) {
	bench(b, peakImpls, 4, func(n int) func(func([]int32) int32) {
		xs := benchSamples(17, n)
		return func(f func([]int32) int32) { f(xs) }
	})
}

func BenchmarkIntegrate(b *testing.B) {
	bench(b, integrateImpls, 4, func(n int) func(func([]int32, int32) []int32) {
		xs := benchSamples(19, n)
		return func(f func([]int32, int32) []int32) { f(xs, 3) }
	})
}

func BenchmarkEnvelope(b *testing.B) {
	bench(b, envelopeImpls, 4, func(n int) func(func([]int32) []int32) {
		xs := benchSamples(20, n)
		return func(f func([]int32) []int32) { f(xs) }
	})
}
