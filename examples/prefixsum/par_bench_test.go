package prefixsum

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
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
		{"goroutines", func(xs []int) []int {
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
		}},
	}
	for _, size := range extest.ParBenchSizes {
		xs := extest.Ints(extest.Rand(13, size.N), size.N, -1000, 1000)
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
