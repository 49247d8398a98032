// Package residency holds specs whose arrays the opencl backend's
// whole-spec analyses decide on: kept on the device between kernels,
// shared by the kernels that read one input, uploaded once per call; and
// one spec for each reason an array is not.
package residency

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b int64) int64 { return a + b }

// Kept: sq, the first kernel's map-out, is read only by the second
// kernel: it stays on the device until then.
//
//soac:fuse Kept backend=opencl
func keptSpec(xs []int64) int64 {
	sq := soac.Map(xs, func(x int64) int64 { return x * x })
	s := soac.Reduce(sq, 0, add)
	d := soac.Map(sq, func(v int64) int64 { return v - s })
	return soac.Reduce(d, 0, add)
}

// Returned: the spec returns sq too, so its Go variable is read.
//
//soac:fuse Returned backend=opencl
func returnedSpec(xs []int64) ([]int64, int64) {
	sq := soac.Map(xs, func(x int64) int64 { return x * x })
	s := soac.Reduce(sq, 0, add)
	d := soac.Map(sq, func(v int64) int64 { return v - s })
	return sq, soac.Reduce(d, 0, add)
}

// Captured: a closure made before sq is assigned reads it when called,
// where no statement names sq.
//
//soac:fuse Captured backend=opencl
func capturedSpec(xs []int64) (int64, int) {
	var sq []int64
	size := func() int { return len(sq) }
	sq = soac.Map(xs, func(x int64) int64 { return x * x })
	s := soac.Reduce(sq, 0, add)
	d := soac.Map(sq, func(v int64) int64 { return v - s })
	return soac.Reduce(d, 0, add), size()
}

// Shared: both kernels read xs, and nothing between them writes memory:
// the second reads the first's upload.
//
//soac:fuse Shared backend=opencl
func sharedSpec(xs []int64) int64 {
	s := soac.Reduce(soac.Map(xs, func(x int64) int64 { return x * 3 }), 0, add)
	return soac.Reduce(soac.Map(xs, func(x int64) int64 { return x - s }), 0, add)
}

// Written: xs is written between the kernels: the second uploads again.
//
//soac:fuse Written backend=opencl
func writtenSpec(xs []int64) int64 {
	s := soac.Reduce(soac.Map(xs, func(x int64) int64 { return x * 3 }), 0, add)
	xs[0] = s
	return soac.Reduce(soac.Map(xs, func(x int64) int64 { return x - s }), 0, add)
}

// Rounds reads the parameter xs in every round of a loop, and nothing
// writes it: uploaded once per call. ys is written in the loop. (A write
// to another parameter would make neither uploaded once: the caller may
// pass one array twice.)
//
//soac:fuse Rounds backend=opencl
func roundsSpec(xs []int64, n int) int64 {
	ys := make([]int64, len(xs))
	t := int64(0)
	for r := 0; r < n; r++ {
		t += soac.Reduce(soac.Map(xs, func(x int64) int64 { return x + t }), 0, add)
		t += soac.Reduce(soac.Map(ys, func(y int64) int64 { return y - t }), 0, add)
		ys[0] = t
	}
	return t
}
