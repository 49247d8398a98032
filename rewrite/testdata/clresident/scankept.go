package clresident

import "github.com/soacgen/soacgen/runtime/soac"

// Scan and filter outputs kept on the device for the later kernels that
// read them (launch.Keep through Scan.RunOn and Filter.RunOn).

// KeptScan keeps the prefix sums on the device for the stream
// reduction that reads them.
//
//soac:fuse KeptScan backend=opencl
func keptScanSpec(xs []int64) []int64 {
	ps := soac.Scan(xs, 0, func(a, b int64) int64 { return a + b })
	return soac.StreamRed(ps,
		func(a, b []int64) []int64 { return soac.Map2(a, b, func(x, y int64) int64 { return x + y }) },
		func(chunk []int64) []int64 {
			row := make([]int64, 3)
			for _, p := range chunk {
				row[uint64(p)%3] += p
			}
			return row
		})
}

// KeptFilter keeps the positive elements on the device for the stream
// reduction that reads them.
//
//soac:fuse KeptFilter backend=opencl
func keptFilterSpec(xs []int64) []int64 {
	pos := soac.Filter(xs, func(x int64) bool { return x > 0 })
	return soac.StreamRed(pos,
		func(a, b []int64) []int64 { return soac.Map2(a, b, func(x, y int64) int64 { return x + y }) },
		func(chunk []int64) []int64 {
			row := make([]int64, 3)
			for _, p := range chunk {
				row[uint64(p)%3] += p
			}
			return row
		})
}

// KeptFilterScan keeps the positive elements for the scan that reads them
// with their largest element.
//
//soac:fuse KeptFilterScan backend=opencl
func keptFilterScanSpec(xs []int64) []int64 {
	pos := soac.Filter(xs, func(x int64) bool { return x > 0 })
	mx := soac.Reduce(pos, 0, func(a, b int64) int64 { return max(a, b) })
	return soac.Scan(soac.Map(pos, func(p int64) int64 { return p ^ mx }), 0, func(a, b int64) int64 { return a + b })
}
