package prefixsum

import (
	"math"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/parallel"
)

// BenchmarkPrefixSumsPar compares the parallel backend's scan with the
// cpu backend and the two-pass goroutine scan a Go programmer writes
// (one chunk per core).
func BenchmarkPrefixSumsPar(b *testing.B) {
	impls := []struct {
		name string
		fn   func([]int) []int
	}{
		{"cpu", PrefixSums},
		{"parallel", PrefixSumsPar},
		{"goroutines", goPrefixSums},
	}
	benchInts(b, 13, impls)
}

// BenchmarkHalfSqrtsPar compares the parallel backend's scan read by a
// map (parallel.CarriedLocal: pass 1 the sqrt and the chunk's local
// prefixes, pass 2 carry + prefix and the map) with the cpu backend's loop and the
// goroutine version a Go programmer writes (one chunk per core: the
// chunks' sums, then each chunk's outputs from its carry).
func BenchmarkHalfSqrtsPar(b *testing.B) {
	impls := []struct {
		name string
		fn   func([]float64) []float64
	}{
		{"cpu", HalfSqrts},
		{"parallel", HalfSqrtsPar},
		{"goroutines", goHalfSqrts},
	}
	for _, size := range extest.ParBenchSizes {
		xs := extest.Floats(extest.Rand(15, size.N), size.N, 0, 10)
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

// BenchmarkChunkedSumsPar compares a stream followed by a scan (the
// parallel backend's ChunkedThen form: the stream's output over the
// runtime's chunks, then the scan over it) with the cpu backend's chunk
// loop and the two-pass goroutine scan a Go programmer writes (the same
// values as PrefixSums).
func BenchmarkChunkedSumsPar(b *testing.B) {
	impls := []struct {
		name string
		fn   func([]int) []int
	}{
		{"cpu", ChunkedSums},
		{"parallel", ChunkedSumsPar},
		{"goroutines", goPrefixSums},
	}
	benchInts(b, 16, impls)
}

// goPrefixSums is the two-pass goroutine scan of 3x+1 a Go programmer
// writes (one chunk per core: the chunks' running totals, then each
// chunk's outputs plus its carry): the hand version of PrefixSums and of
// ChunkedSums, which compute the same values.
func goPrefixSums(xs []int) []int {
	out := make([]int, len(xs))
	extest.GoScan(len(xs), func(lo, hi int) int {
		acc := 0
		for i := lo; i < hi; i++ {
			acc += 3*xs[i] + 1
			out[i] = acc
		}
		return acc
	}, func(lo, hi int, carry int) {
		for i := lo; i < hi; i++ {
			out[i] += carry
		}
	}, func(a, b int) int { return a + b })
	return out
}

// benchInts runs impls on the parallel benchmark sizes over ints in
// [-1000, 1000] from seed.
func benchInts(b *testing.B, seed uint64, impls []struct {
	name string
	fn   func([]int) []int
}) {
	for _, size := range extest.ParBenchSizes {
		xs := extest.Ints(extest.Rand(seed, size.N), size.N, -1000, 1000)
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

// BenchmarkScanGC runs the cpu and parallel scans at 1e6 elements, and a
// parallel copy into a fresh output (copyFresh: the memory's floor),
// under GOGC 100 (the default) and 1000 (extest.GCSweep: collections and
// page faults per call beside the time): at that size each call allocates a
// fresh 8 MB output in well under a millisecond on 16 cores, and the
// collections that allocation rate causes are part of what bounds the
// parallel scans' speedup.
func BenchmarkScanGC(b *testing.B) {
	const n = 1_000_000
	is := extest.Ints(extest.Rand(13, n), n, -1000, 1000)
	pos := extest.Floats(extest.Rand(15, n), n, 0, 10)
	for _, k := range []struct {
		name     string
		cpu, par func()
	}{
		{"PrefixSums", func() { PrefixSums(is) }, func() { PrefixSumsPar(is) }},
		{"ChunkedSums", func() { ChunkedSums(is) }, func() { ChunkedSumsPar(is) }},
		{"HalfSqrts", func() { HalfSqrts(pos) }, func() { HalfSqrtsPar(pos) }},
	} {
		b.Run(k.name, func(b *testing.B) {
			extest.GCSweep(b, 8*n, []int{100, 1000}, extest.Call{Name: "cpu", Call: k.cpu}, extest.Call{Name: "parallel", Call: k.par},
				extest.Call{Name: "copy", Call: func() { copyFresh(is) }})
		})
	}
}

// copyFresh copies xs into a fresh output, one chunk per core, as a
// scan's output is allocated (parallel.Alloc) and written: the least a
// kernel that reads n ints and writes n fresh ones costs on this
// machine's memory: BenchmarkScanGC's and BenchmarkParPaired's reference.
func copyFresh(xs []int) []int {
	out := parallel.Alloc[int](len(xs))
	extest.GoFor(len(xs), func(lo, hi int) { copy(out[lo:hi], xs[lo:hi]) })
	return out
}

// goHalfSqrts is HalfSqrts as the goroutine loop a Go programmer writes
// (one chunk per core: the chunks' sums, then each chunk's outputs from
// its carry).
func goHalfSqrts(xs []float64) []float64 {
	out := make([]float64, len(xs))
	extest.GoScan(len(xs), func(lo, hi int) float64 {
		acc := 0.0
		if lo == 0 {
			for i := lo; i < hi; i++ {
				acc += math.Sqrt(xs[i])
				out[i] = acc * 0.5
			}
			return acc
		}
		for i := lo; i < hi; i++ {
			acc += math.Sqrt(xs[i])
		}
		return acc
	}, func(lo, hi int, carry float64) {
		acc := carry
		for i := lo; i < hi; i++ {
			acc += math.Sqrt(xs[i])
			out[i] = acc * 0.5
		}
	}, func(a, b float64) float64 { return a + b })
	return out
}

// BenchmarkParPaired times the scans at 1e5, 1e6 and 1e7 elements as
// extest.ParPaired does (the cpu, parallel and hand functions in turns;
// ratios of each turn), with the parallel copy into a fresh output
// (copyFresh) beside the integer scans: copy/par is the share of the
// memory's floor a scan reaches.
func BenchmarkParPaired(b *testing.B) {
	for _, size := range extest.PairedSizes {
		is := extest.Ints(extest.Rand(13, size.N), size.N, -1000, 1000)
		pos := extest.Floats(extest.Rand(15, size.N), size.N, 0, 10)
		copyRef := extest.Variant{Name: "copy", Fn: func() { copyFresh(is) }}
		b.Run("PrefixSums/"+size.Name, func(b *testing.B) {
			extest.ParPaired(b, func() { PrefixSums(is) }, func() { PrefixSumsPar(is) }, func() { goPrefixSums(is) }, copyRef)
		})
		b.Run("ChunkedSums/"+size.Name, func(b *testing.B) {
			extest.ParPaired(b, func() { ChunkedSums(is) }, func() { ChunkedSumsPar(is) }, func() { goPrefixSums(is) }, copyRef)
		})
		b.Run("HalfSqrts/"+size.Name, func(b *testing.B) {
			extest.ParPaired(b, func() { HalfSqrts(pos) }, func() { HalfSqrtsPar(pos) }, func() { goHalfSqrts(pos) })
		})
	}
}
