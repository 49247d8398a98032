package histogram

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/parallel"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkHistogramPar compares the parallel backend (the map fused
// into the StreamRed's chunks, over runtime/parallel's chunks) with the
// cpu backend, the spec, and a hand-written goroutine loop (one chunk
// per core, one bins slice per chunk, added in order).
func BenchmarkHistogramPar(b *testing.B) {
	impls := []struct {
		name string
		fn   func(xs []float64, lo, hi float64, nbins int) []int
	}{
		{"spec", histogramSpec},
		{"cpu", Histogram},
		{"parallel", HistogramPar},
		{"goroutines", func(xs []float64, lo, hi float64, nbins int) []int {
			return extest.GoReduce(len(xs), func(l, h int) []int { return histogramHand(xs[l:h], lo, hi, nbins) },
				func(a, b []int) []int {
					for i := range a {
						a[i] += b[i]
					}
					return a
				})
		}},
	}
	for _, size := range extest.ParBenchSizes {
		xs := extest.Floats(extest.Rand(11, size.N), size.N, -1.1, 1.1)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(8 * len(xs)))
					for b.Loop() {
						im.fn(xs, -1, 1, nbins)
					}
				})
			}
		})
	}
}

// BenchmarkParPaired times cpu, parallel and the hand goroutine loop of
// Histogram in turns (extest.ParPaired): the speedup cpu/par and
// par/hand, the parallel backend's two goals, from one run; beside them the chunk
// code generated before ChunkFuncs (before: histogramParCaptured), the
// hand loop with HistogramPar's chunks of grain 4546 (handchunks) and
// with four times that grain (handchunks4), and HistogramPar's parallel
// branch with grain 4546 (oldgrain: its grain when parcost charged the inlined call; since,
// 8334).
func BenchmarkParPaired(b *testing.B) {
	for _, size := range extest.PairedSizes {
		xs := extest.Floats(extest.Rand(11, size.N), size.N, -1.1, 1.1)
		b.Run("Histogram/"+size.Name, func(b *testing.B) {
			extest.ParPaired(b,
				func() { Histogram(xs, -1, 1, nbins) },
				func() { HistogramPar(xs, -1, 1, nbins) },
				func() { histogramGoroutines(xs, -1, 1, nbins) },
				extest.Variant{Name: "before", Fn: func() { histogramParCaptured(xs, -1, 1, nbins) }},
				extest.Variant{Name: "handchunks", Fn: func() { histogramGoChunks(xs, -1, 1, nbins) }},
				extest.Variant{Name: "handchunks4", Fn: func() { histogramGoChunksGrain(xs, -1, 1, nbins, 4*4546) }},
				extest.Variant{Name: "oldgrain", Fn: func() { histogramParWithGrain(xs, -1, 1, nbins, histogramParGrain4546) }})
		})
	}
}

// histogramGoroutines is Histogram as a hand-written goroutine loop: one
// chunk per core, one bins slice per chunk, added in order.
func histogramGoroutines(xs []float64, lo, hi float64, nbins int) []int {
	return extest.GoReduce(len(xs), func(l, h int) []int { return histogramHand(xs[l:h], lo, hi, nbins) },
		func(a, b []int) []int {
			for i := range a {
				a[i] += b[i]
			}
			return a
		})
}

// histogramGoChunks is histogramGoroutines with HistogramPar's chunks
// when parcost charged the inlined call of bin (grain 4546; extest.GoChunks): a bins slice per
// chunk, added in chunk order.
func histogramGoChunks(xs []float64, lo, hi float64, nbins int) []int {
	return histogramGoChunksGrain(xs, lo, hi, nbins, 4546)
}

// histogramGoChunksGrain is histogramGoChunks with the chunks of another
// grain (handchunks4: four times HistogramPar's, chunks of about 40 µs
// here against 10 µs, the per-chunk bins slice and merge weighing a
// quarter as much).
func histogramGoChunksGrain(xs []float64, lo, hi float64, nbins, grain int) []int {
	n := len(xs)
	k := parallel.Chunks(n, grain)
	parts := make([][]int, k)
	extest.GoChunks(k, func(c int) {
		l, h := parallel.Bounds(n, k, c)
		parts[c] = histogramHand(xs[l:h], lo, hi, nbins)
	})
	bins := parts[0]
	for _, p := range parts[1:] {
		for i := range bins {
			bins[i] += p[i]
		}
	}
	return bins
}
