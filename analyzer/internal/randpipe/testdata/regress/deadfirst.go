//randpipe:pending the opencl backend's code does not compile: a variable whose first value nothing reads, reassigned to an array the device keeps for later kernels, is declared and never used (delete this line once the opencl backend handles it)

// Regression spec: a2's first value is dead; its second, a Scan, stays
// on the device for the Map and the Filter that read it, so the
// generated code assigns the Go variable a2 and never reads it.

package deadfirst

import "github.com/soacgen/soacgen/runtime/soac"

// deadFirstSpec has shapes reassign-read.
//
//soac:fuse DeadFirst
func deadFirstSpec(xs []int64, k int64) ([]int64, []int64) {
	a2 := soac.Map(xs, func(x int64) int64 { return 1 })
	a2 = soac.Scan(xs, 0, func(a, b int64) int64 { return a + b })
	a1 := soac.Map(a2, func(x int64) int64 { return x ^ k })
	a4 := soac.Filter(a2, func(x int64) bool { return x > k })
	return a1, a4
}
