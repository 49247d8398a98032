package histogram

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkGrainPaired times Histogram (cpu), HistogramPar and the hand
// goroutine loop in turns (extest.ParPaired) at sizes around
// HistogramPar's split: 2 grains, 9092 values when parcost charged inlined calls (grain
// 4546: parcost charged the call of bin, which the compiler inlines) and
// 16668 since (8334). At 1.2e4 HistogramPar split before and runs the cpu
// loop now; at 2e4 and 5e4 it splits into about half as many chunks
// (oldgrain: its parallel branch with the grain before).
func BenchmarkGrainPaired(b *testing.B) {
	for _, size := range []extest.BenchSize{{Name: "n=1.2e4", N: 12_000}, {Name: "n=2e4", N: 20_000}, {Name: "n=5e4", N: 50_000}} {
		xs := extest.Floats(extest.Rand(11, size.N), size.N, -1.1, 1.1)
		b.Run("Histogram/"+size.Name, func(b *testing.B) {
			extest.ParPaired(b,
				func() { Histogram(xs, -1, 1, nbins) },
				func() { HistogramPar(xs, -1, 1, nbins) },
				func() { histogramGoroutines(xs, -1, 1, nbins) },
				extest.Variant{Name: "oldgrain", Fn: func() { histogramParWithGrain(xs, -1, 1, nbins, histogramParGrain4546) }})
		})
	}
}
