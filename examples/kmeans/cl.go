package kmeans

// This file holds a copy of clusterSizesSpec with backend=opencl: one
// work-item per chunk of the points counts them per nearest centre into
// its own row of k counts on the device (nearest translated by
// rewrite/clc, centres a read-only device buffer), and the rows are added
// by the operator's Map2 in chunk order. It is tested against the spec
// on the device (opencl_test.go) and benchmarked
// (examples/internal/clbench). The copy must stay identical to the spec
// apart from its name.

import "github.com/soacgen/soacgen/runtime/soac"

// clusterSizesCLSpec is clusterSizesSpec for the opencl backend.
//
//soac:fuse ClusterSizesCL backend=opencl
func clusterSizesCLSpec(ps []Point, centres []Point) []int {
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

// clusterSizesAutoSpec is clusterSizesSpec for backend=auto:
// ClusterSizesAuto runs the stream kernel on a GPU when launch's cost
// model says the call is large enough, else the parallel backend's code.
//
//soac:fuse ClusterSizesAuto backend=auto
func clusterSizesAutoSpec(ps []Point, centres []Point) []int {
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
