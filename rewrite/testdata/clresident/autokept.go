package clresident

import "github.com/soacgen/soacgen/runtime/soac"

// Kept arrays under backend=auto: the kernel that leaves an array on the
// device is priced with the later kernels that read it, which then
// follow its choice.

// CapturedAuto keeps the map's output for the map-reduce whose lambda
// reads it, under backend=auto: the map-reduce runs on the device
// whenever the map did (the map's cost counts its work).
//
//soac:fuse CapturedAuto backend=auto
func capturedAutoSpec(xs, zs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	ys := soac.Map(xs, func(x int64) int64 { return x*3 + 1 })
	return soac.Reduce(soac.Map(zs, func(z int64) int64 { return z ^ ys[uint64(z)%uint64(len(ys))] }), 0,
		func(a, b int64) int64 { return a + b })
}

// CapturedAlone is CapturedAuto's map alone, for its cost.
//
//soac:fuse CapturedAlone backend=auto
func capturedAloneSpec(xs []int64) []int64 {
	return soac.Map(xs, func(x int64) int64 { return x*3 + 1 })
}
