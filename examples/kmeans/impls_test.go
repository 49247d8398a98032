package kmeans

import (
	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// impls are the implementations that the test compares with the spec and the
// benchmark measures. The generated function is the "fused" entry.
var impls = []struct {
	name string
	fn   func(ps, centres []Point) []int
}{
	{"spec", clusterSizesSpec},
	{"fused", ClusterSizes},
	{"hand", clusterSizesHand},
	{"lo", clusterSizesLo},
	{"iter", clusterSizesIter},
}

// clusterSizesLo maps each point to its centre's index, then folds the
// indices into a counts slice with lo.Reduce.
func clusterSizesLo(ps, centres []Point) []int {
	idx := lo.Map(ps, func(p Point, _ int) int { return nearest(p, centres) })
	return lo.Reduce(idx, func(counts []int, i int, _ int) []int {
		counts[i]++
		return counts
	}, make([]int, len(centres)))
}

// clusterSizesIter is one chain: map to the nearest centre, fold into counts.
func clusterSizesIter(ps, centres []Point) []int {
	return seq.Reduce(
		seq.Map(seq.Values(ps), func(p Point) int { return nearest(p, centres) }),
		make([]int, len(centres)),
		func(counts []int, i int) []int {
			counts[i]++
			return counts
		})
}
