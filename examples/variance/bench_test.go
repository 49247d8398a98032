package variance

import (
	"testing"
	"time"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func BenchmarkMeanVar(b *testing.B) {
	for _, size := range extest.BenchSizes {
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

// sinkMean and sinkVar keep BenchmarkMeanVarPaired's results alive.
var sinkMean, sinkVar float64

// BenchmarkMeanVarPaired runs, per n, blocks of calls of the hand loop
// and of MeanVar in turn (extest.Paired; b.N counts blocks of each), so
// that the host's load falls on both alike. It reports hand-ns/op and
// fused-ns/op, the medians of a call's time per block, and fused/hand,
// the median of the blocks' ratios.
func BenchmarkMeanVarPaired(b *testing.B) {
	for _, size := range extest.BenchSizes {
		xs := extest.Floats(extest.Rand(9, size.N), size.N, -1, 1)
		// Through the table's function values, as BenchmarkMeanVar calls
		// them (neither is inlined into the closure), the results kept in
		// sinks.
		hf, ff := implFn("hand"), implFn("fused")
		hand := func() { sinkMean, sinkVar = hf(xs) }
		fused := func() { sinkMean, sinkVar = ff(xs) }
		b.Run(size.Name, func(b *testing.B) {
			calls := 1
			for {
				t0 := time.Now()
				for range calls {
					hand()
					fused()
				}
				if time.Since(t0) >= 2*time.Millisecond || calls >= 1<<20 {
					break
				}
				calls *= 2
			}
			h, f, r := extest.Paired(b, calls, hand, fused)
			b.ReportMetric(h, "hand-ns/op")
			b.ReportMetric(f, "fused-ns/op")
			b.ReportMetric(r, "fused/hand")
		})
	}
}

// implFn returns the function of impls named name.
func implFn(name string) func([]float64) (float64, float64) {
	for _, im := range impls {
		if im.name == name {
			return im.fn
		}
	}
	panic("no implementation " + name)
}
