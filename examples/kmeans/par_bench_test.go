package kmeans

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkClusterSizesPar compares the parallel backend's StreamRed
// (compute-bound: k = 8 distances per point) with the cpu backend and a
// goroutine loop (one counts slice per chunk, added in order).
func BenchmarkClusterSizesPar(b *testing.B) {
	impls := []struct {
		name string
		fn   func(ps, centres []Point) []int
	}{
		{"cpu", ClusterSizes},
		{"parallel", ClusterSizesPar},
		{"goroutines", func(ps, centres []Point) []int {
			return extest.GoReduce(len(ps), func(lo, hi int) []int {
				return clusterSizesHand(ps[lo:hi], centres)
			}, func(x, y []int) []int {
				for i := range x {
					x[i] += y[i]
				}
				return x
			})
		}},
	}
	for _, size := range extest.ParBenchSizes {
		ps := randPoints(3, size.N)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(16 * len(ps)))
					for b.Loop() {
						im.fn(ps, centres)
					}
				})
			}
		})
	}
}
