package clresident

import "github.com/soacgen/soacgen/runtime/soac"

// Map outputs kept on the device for the later kernels whose lambdas
// read them as captured slices (launch.ViewDev).

// CapturedMap keeps the map's output on the device for the map-reduce
// kernel whose lambda reads it backwards.
//
//soac:fuse CapturedMap backend=opencl
func capturedMapSpec(xs []int64) int64 {
	ys := soac.Map(xs, func(x int64) int64 { return x*3 + 1 })
	return soac.Reduce(soac.Map2(xs, soac.Iota(len(xs)), func(x int64, i int) int64 { return x ^ ys[len(ys)-1-i] }), 0,
		func(a, b int64) int64 { return a + b })
}

// CapturedParallel keeps the map's output for a later kernel the opencl
// backend does not generate (a scan with a map-reduce after it): the
// parallel code downloads it first (hostgo.Func.HostInputs).
//
//soac:fuse CapturedParallel backend=opencl
func capturedParallelSpec(xs, zs []int64) []int64 {
	if len(xs) == 0 {
		return nil
	}
	ys := soac.Map(xs, func(x int64) int64 { return x - 5 })
	ps := soac.Scan(soac.Map(zs, func(z int64) int64 { return z * ys[uint64(z)%uint64(len(ys))] }), 0,
		func(a, b int64) int64 { return a + b })
	mx := soac.Reduce(soac.Map(ps, func(p int64) int64 { return p ^ ys[len(ys)-1-int(uint64(p)%uint64(len(ys)))] }), 0,
		func(a, b int64) int64 { return max(a, b) })
	return append(ps, mx)
}

// CapturedTwice keeps the map's output for two later kernels that read
// it at indices: a filter's and a map-reduce's (the last releases it).
//
//soac:fuse CapturedTwice backend=opencl
func capturedTwiceSpec(xs, zs []int64) []int64 {
	if len(xs) == 0 {
		return nil
	}
	ys := soac.Map(xs, func(x int64) int64 { return x - 5 })
	pos := soac.Filter(zs, func(z int64) bool { return ys[uint64(z)%uint64(len(ys))] > z })
	mx := soac.Reduce(soac.Map(xs, func(x int64) int64 { return x ^ ys[len(ys)-1-int(uint64(x)%uint64(len(ys)))] }), 0,
		func(a, b int64) int64 { return max(a, b) })
	return append(pos, mx)
}

// CapturedReadBetween reads the map's output in Go code between the
// kernels: it is downloaded, not kept.
//
//soac:fuse CapturedReadBetween backend=opencl
func capturedReadBetweenSpec(xs []int64) int64 {
	ys := soac.Map(xs, func(x int64) int64 { return x + 2 })
	var first int64
	if len(ys) > 0 {
		first = ys[0]
	}
	return soac.Reduce(soac.Map2(xs, soac.Iota(len(xs)), func(x int64, i int) int64 { return x*first + ys[len(ys)-1-i] }), 0,
		func(a, b int64) int64 { return a + b })
}

// CapturedStream keeps the map's output on the device for the stream
// reduction whose chunk lambda reads it at indices.
//
//soac:fuse CapturedStream backend=opencl
func capturedStreamSpec(xs, zs []int64) []int64 {
	if len(xs) == 0 {
		return nil
	}
	ys := soac.Map(xs, func(x int64) int64 { return x * 7 })
	return soac.StreamRed(zs,
		func(a, b []int64) []int64 { return soac.Map2(a, b, func(x, y int64) int64 { return x + y }) },
		func(chunk []int64) []int64 {
			row := make([]int64, 2)
			for _, z := range chunk {
				row[uint64(z)%2] += ys[uint64(z)%uint64(len(ys))]
			}
			return row
		})
}

// CapturedGrid keeps the map's output for a grid kernel, which reads its
// captures from Go memory: it downloads the array first.
//
//soac:fuse CapturedGrid backend=opencl
func capturedGridSpec(xs []int64, m [][]int64) [][]int64 {
	// At most 64 columns: random inputs of many rows stay small.
	small := xs[:min(len(xs), 64)]
	ys := soac.Map(small, func(x int64) int64 { return x + 1 })
	return soac.Map(m, func(row []int64) []int64 {
		return soac.Map(ys, func(y int64) int64 { return y * int64(len(row)) })
	})
}
