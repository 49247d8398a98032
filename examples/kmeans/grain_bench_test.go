package kmeans

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkGrainPaired times ClusterSizes (cpu), ClusterSizesPar and a
// hand goroutine loop in turns (extest.ParPaired) at sizes around
// ClusterSizesPar's split: 2 grains, 2942 points when parcost charged inlined calls
// (grain 1471: parcost charged the call of nearest, which the compiler
// inlines) and 3450 since (1725). At 3.2e3 ClusterSizesPar split before
// and runs the cpu loop now.
func BenchmarkGrainPaired(b *testing.B) {
	for _, size := range []extest.BenchSize{{Name: "n=3.2e3", N: 3_200}, {Name: "n=1e4", N: 10_000}, {Name: "n=1e5", N: 100_000}} {
		ps := randPoints(3, size.N)
		b.Run("ClusterSizes/"+size.Name, func(b *testing.B) {
			extest.ParPaired(b, func() { ClusterSizes(ps, centres) }, func() { ClusterSizesPar(ps, centres) }, func() {
				extest.GoReduce(len(ps), func(lo, hi int) []int {
					return clusterSizesHand(ps[lo:hi], centres)
				}, func(x, y []int) []int {
					for i := range x {
						x[i] += y[i]
					}
					return x
				})
			})
		})
	}
}
