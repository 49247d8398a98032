package clresident

import "github.com/soacgen/soacgen/runtime/soac"

// Stream reductions' rows kept on the device for the later kernels that
// read them (launch.StreamRed.RunOn with launch.Keep).

// StreamRow keeps the histogram on the device for the map-reduce that
// reads it as its input.
//
//soac:fuse StreamRow backend=opencl
func streamRowSpec(xs []int64) int64 {
	h := soac.StreamRed(xs,
		func(a, b []int64) []int64 { return soac.Map2(a, b, func(x, y int64) int64 { return x + y }) },
		func(chunk []int64) []int64 {
			row := make([]int64, 8)
			for _, x := range chunk {
				row[uint64(x)%8]++
			}
			return row
		})
	return soac.Reduce(soac.Map(h, func(c int64) int64 { return c*c + 1 }), 0, func(a, b int64) int64 { return a + b })
}

// StreamRowCaptured keeps the histogram on the device for the
// map-reduce whose lambda reads it at indices (launch.ViewDev), as
// k-means' centres read its sums.
//
//soac:fuse StreamRowCaptured backend=opencl
func streamRowCapturedSpec(xs []int64) int64 {
	h := soac.StreamRed(xs,
		func(a, b []int64) []int64 { return soac.Map2(a, b, func(x, y int64) int64 { return x + y }) },
		func(chunk []int64) []int64 {
			row := make([]int64, 8)
			for _, x := range chunk {
				row[uint64(x)%8]++
			}
			return row
		})
	return soac.Reduce(soac.Map(xs, func(x int64) int64 { return x * h[uint64(x)%8] }), 0, func(a, b int64) int64 { return max(a, b) })
}

// StreamRowReadBetween reads the histogram in Go code between the
// kernels: the stream downloads it.
//
//soac:fuse StreamRowReadBetween backend=opencl
func streamRowReadBetweenSpec(xs []int64) int64 {
	h := soac.StreamRed(xs,
		func(a, b []int64) []int64 { return soac.Map2(a, b, func(x, y int64) int64 { return x + y }) },
		func(chunk []int64) []int64 {
			row := make([]int64, 8)
			for _, x := range chunk {
				row[uint64(x)%8]++
			}
			return row
		})
	h[0] = -h[0]
	return soac.Reduce(soac.Map(h, func(c int64) int64 { return c*c + 1 }), 0, func(a, b int64) int64 { return a + b })
}

// StreamRowSized keeps the map's output on the device for the stream
// reduction whose chunk function reads it and makes rows of its length:
// the row's length is the kept Array's (launch.Len), not that of the
// unset Go variable.
//
//soac:fuse StreamRowSized backend=opencl
func streamRowSizedSpec(xs, zs []int64) []int64 {
	ys := soac.Map(xs[:min(len(xs), 16)], func(x int64) int64 { return x*5 + 1 })
	return soac.StreamRed(zs,
		func(a, b []int64) []int64 { return soac.Map2(a, b, func(x, y int64) int64 { return x + y }) },
		func(chunk []int64) []int64 {
			row := make([]int64, len(ys))
			for _, z := range chunk {
				if len(row) > 0 {
					row[uint64(z)%uint64(len(row))] += ys[uint64(z)%uint64(len(ys))]
				}
			}
			return row
		})
}
