//go:build goexperiment.simd && amd64

package signal

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/lanes"
)

// The maps' kernels alone, without the output's allocation (which costs
// more than the loop at 1e4 elements): the generated vector function, then
// the hand loop on the elements it leaves, writing a reused output
// ("vector" on the widest unit, "vector-avx2" on the 256-bit forms),
// against the hand loop writing the same output ("hand"). Only in builds
// with GOEXPERIMENT=simd, where the vector functions are the vector forms
// and not the stubs.

// A kernelImpl is one of a map kernel's benchmarked variants: run fills its
// reused output.
type kernelImpl struct {
	name  string
	width int
	run   func()
}

// benchKernel runs each variant that kernels(n) returns at every size;
// bytes is what a call reads per element.
func benchKernel(b *testing.B, bytes int, kernels func(n int) []kernelImpl) {
	for _, size := range benchSizes {
		impls := kernels(size.N)
		b.Run(size.Name, func(b *testing.B) {
			for _, k := range impls {
				b.Run(k.name, func(b *testing.B) {
					defer useWidth(b, k.width)()
					b.ReportAllocs()
					b.SetBytes(int64(bytes * size.N))
					for b.Loop() {
						k.run()
					}
				})
			}
		})
	}
}

func BenchmarkKernelCalibrate(b *testing.B) {
	benchKernel(b, 8, func(n int) []kernelImpl {
		xs, out := extest.Floats(extest.Rand(11, n), n, -1, 1), make([]float64, n)
		vector := func() {
			i := soacgenVec_calibrateSpec(n, xs, out)
			calibrateInto(out[i:], xs[i:])
		}
		return []kernelImpl{{"vector", -1, vector}, {"vector-avx2", lanes.AVX2, vector},
			{"hand", -1, func() { calibrateInto(out, xs) }}}
	})
}

func BenchmarkKernelMagnitude(b *testing.B) {
	benchKernel(b, 16, func(n int) []kernelImpl {
		re, im := extest.Floats(extest.Rand(12, n), n, -1, 1), extest.Floats(extest.Rand(13, n), n, -1, 1)
		out := make([]float64, n)
		vector := func() {
			i := soacgenVec_magnitudeSpec(n, re, im, out)
			magnitudeInto(out[i:], re[i:], im[i:])
		}
		return []kernelImpl{{"vector", -1, vector}, {"vector-avx2", lanes.AVX2, vector},
			{"hand", -1, func() { magnitudeInto(out, re, im) }}}
	})
}

func BenchmarkKernelCosPhase(b *testing.B) {
	benchKernel(b, 16, func(n int) []kernelImpl {
		re, im := extest.Floats(extest.Rand(12, n), n, -1, 1), extest.Floats(extest.Rand(13, n), n, -1, 1)
		out := make([]float64, n)
		vector := func() {
			i := soacgenVec_cosPhaseSpec(n, re, im, out)
			cosPhaseInto(out[i:], re[i:], im[i:])
		}
		return []kernelImpl{{"vector", -1, vector}, {"vector-avx2", lanes.AVX2, vector},
			{"hand", -1, func() { cosPhaseInto(out, re, im) }}}
	})
}

func BenchmarkKernelToUnit(b *testing.B) {
	benchKernel(b, 4, func(n int) []kernelImpl {
		xs, out := benchSamples(14, n), make([]float32, n)
		vector := func() {
			i := soacgenVec_toUnitSpec(n, xs, out)
			toUnitInto(out[i:], xs[i:])
		}
		return []kernelImpl{{"vector", -1, vector}, {"vector-avx2", lanes.AVX2, vector},
			{"hand", -1, func() { toUnitInto(out, xs) }}}
	})
}

func BenchmarkKernelIntegrate(b *testing.B) {
	benchKernel(b, 4, func(n int) []kernelImpl {
		xs, out := benchSamples(19, n), make([]int32, n)
		vector := func() {
			i, sum := soacgenVec_integrateSpec(n, xs, out, 0, 3)
			integrateInto(out[i:], xs[i:], 3, sum)
		}
		return []kernelImpl{{"vector", -1, vector}, {"vector-avx2", lanes.AVX2, vector},
			{"hand", -1, func() { integrateInto(out, xs, 3, 0) }}}
	})
}

func BenchmarkKernelEnvelope(b *testing.B) {
	benchKernel(b, 4, func(n int) []kernelImpl {
		xs, out := benchSamples(20, n), make([]int32, n)
		vector := func() {
			i, peak := soacgenVec_envelopeSpec(n, xs, out, 0)
			envelopeInto(out[i:], xs[i:], peak)
		}
		return []kernelImpl{{"vector", -1, vector}, {"vector-avx2", lanes.AVX2, vector},
			{"hand", -1, func() { envelopeInto(out, xs, 0) }}}
	})
}
