package histogram

import "github.com/soacgen/soacgen/runtime/soac"

// countsSpec returns how many of idx equal each of 0, ..., nbins-1; an
// index outside [0, nbins) panics with Go's index out of range, at the
// first such element.
//
// Its directives generate Counts (cpu) and CountsCL (opencl: the bins
// skeleton, each work-group counting into bins in local memory, added
// to the result with atomic additions; counts_test.go).
//
//soac:fuse Counts
//soac:fuse CountsCL backend=opencl
func countsSpec(idx []int, nbins int) []int {
	return soac.StreamRed(idx,
		func(a, b []int) []int {
			return soac.Map2(a, b, func(x, y int) int { return x + y })
		},
		func(chunk []int) []int {
			bins := make([]int, nbins)
			for _, i := range chunk {
				bins[i]++
			}
			return bins
		})
}

// weightsSpec adds each of xs, as a uint32 that wraps, to bin x mod
// nbins, after a Map that doubles it (fused into the same kernel).
//
//soac:fuse Weights
//soac:fuse WeightsCL backend=opencl
func weightsSpec(xs []uint32, nbins int) []uint32 {
	ys := soac.Map(xs, func(x uint32) uint32 { return 2*x + 1 })
	return soac.StreamRed(ys,
		func(a, b []uint32) []uint32 {
			return soac.Map2(b, a, func(x, y uint32) uint32 { return y + x })
		},
		func(chunk []uint32) []uint32 {
			sums := make([]uint32, nbins)
			for _, y := range chunk {
				b := int(y>>1) % nbins
				sums[b] += y
			}
			return sums
		})
}
