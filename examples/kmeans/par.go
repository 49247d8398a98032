package kmeans

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names.

import "github.com/soacgen/soacgen/runtime/soac"

// clusterSizesParSpec is clusterSizesSpec for the parallel backend.
//
//soac:fuse ClusterSizesPar backend=parallel
func clusterSizesParSpec(ps []Point, centres []Point) []int {
	k := len(centres)
	return soac.StreamRed(ps,
		func(x, y []int) []int {
			return soac.Map2(x, y, func(a, b int) int { return a + b })
		},
		func(chunk []Point) []int {
			counts := make([]int, k)
			for _, p := range chunk {
				counts[nearest(p, centres)]++
			}
			return counts
		})
}
