package clresident

import "github.com/soacgen/soacgen/runtime/soac"

// Arrays a kernel writes whose Go variable something besides later
// kernels reads: the value a loop's body leaves for the next round and
// after the loop, a branch's value read after it, a closure's capture,
// a variable whose address is taken. They are downloaded, not kept on
// the device (openclresident.go's keepable, readFlows, goVarHidden). And
// handles that must not outlive their block: an input shared by the
// kernels of a loop's body, read again after the loop; one shared by a
// kernel whose rerun guard is a closure.

// FlowLoop keeps nothing across the rounds: ys, written by the map of
// the first kernel and read by the second, is the next round's input
// and the result.
//
//soac:fuse FlowLoop backend=opencl
func flowLoopSpec(xs []int64, k int64) ([]int64, int64) {
	ys := soac.Map(xs, func(x int64) int64 { return x + 1 })
	var s int64
	for r := int64(0); r < k&3; r++ {
		ys = soac.Map(ys, func(y int64) int64 { return y*3 + r })
		m := soac.Reduce(ys, 0, func(a, b int64) int64 { return max(a, b) })
		s += soac.Reduce(soac.Map(ys, func(y int64) int64 { return y ^ m }), 0, func(a, b int64) int64 { return a + b })
	}
	return ys, s
}

// FlowBranch writes ys in a branch whose kernels read it, and returns it
// after the branch.
//
//soac:fuse FlowBranch backend=opencl
func flowBranchSpec(xs []int64, k int64) ([]int64, int64) {
	ys := xs
	var s int64
	if k%2 != 0 {
		ys = soac.Map(xs, func(x int64) int64 { return x*3 + k })
		m := soac.Reduce(ys, 0, func(a, b int64) int64 { return max(a, b) })
		s = soac.Reduce(soac.Map(ys, func(y int64) int64 { return y ^ m }), 0, func(a, b int64) int64 { return a + b })
	}
	return ys, s
}

// FlowTuple computes b's new value into a temporary that the tuple
// assignment copies (the map reads a's old value): the array stays on
// the device for the Map2, whose CPU code downloads it into b, the
// variable it reads.
//
//soac:fuse FlowTuple backend=opencl
func flowTupleSpec(xs, zs []int64) []int64 {
	a := soac.Map(xs, func(x int64) int64 { return x - 2 })
	b := soac.Map(zs, func(z int64) int64 { return z + 2 })
	if len(a) != len(b) {
		return nil
	}
	a, b = b, soac.Map(a, func(x int64) int64 { return x*5 + 1 })
	return soac.Map2(b, a, func(x, y int64) int64 { return x - y })
}

// FlowClosure keeps nothing for the kernel that reads a: a closure
// called after it reads a's Go variable.
//
//soac:fuse FlowClosure backend=opencl
func flowClosureSpec(xs []int64, k int64) int64 {
	var a []int64
	first := func() int64 {
		if len(a) == 0 {
			return -1
		}
		return a[0]
	}
	a = soac.Map(xs, func(x int64) int64 { return x*3 + k })
	m := soac.Reduce(a, 0, func(a, b int64) int64 { return max(a, b) })
	s := soac.Reduce(soac.Map(a, func(y int64) int64 { return y ^ m }), 0, func(a, b int64) int64 { return a + b })
	return s + first()
}

// FlowAddress keeps nothing: a pointer to a is read after its kernels.
//
//soac:fuse FlowAddress backend=opencl
func flowAddressSpec(xs []int64, k int64) int64 {
	var a []int64
	p := &a
	a = soac.Map(xs, func(x int64) int64 { return x*3 + k })
	m := soac.Reduce(a, 0, func(a, b int64) int64 { return max(a, b) })
	s := soac.Reduce(soac.Map(a, func(y int64) int64 { return y ^ m }), 0, func(a, b int64) int64 { return a + b })
	return s + int64(len(*p))
}

// SharedLoop shares ys between the two kernels of the loop's body (the
// map and the scan with its reduction); the filter after the loop reads
// ys from its Go variable.
//
//soac:fuse SharedLoop backend=opencl
func sharedLoopSpec(xs []int64, k int64) ([]int64, []int64, int64) {
	ys := soac.Map(xs, func(x int64) int64 { return x * 3 })
	ys = soac.Scan(ys, 0, func(a, b int64) int64 { return a + b })
	zs := ys
	s := int64(3)
	for range k & 3 {
		zs = soac.Map(ys, func(y int64) int64 { return (-y) % 7 })
		zs = soac.Scan(ys, -1, func(a, b int64) int64 { return a & b })
		s = soac.Reduce(soac.Map(zs, func(z int64) int64 { return z*2 - s + 1 }), 0, func(a, b int64) int64 { return a + b })
	}
	return zs, soac.Filter(ys, func(y int64) bool { return -s != y }), s
}

// SharedRerun reads xs in a kernel whose two maps may panic (the code
// runs them again unfused on a panic, in a closure) and in a later
// kernel: the first does not share it.
//
//soac:fuse SharedRerun backend=opencl
func sharedRerunSpec(xs []int64, k int64) (int64, int64) {
	d := k | 1
	p := soac.Reduce(soac.Map(soac.Map(xs, func(x int64) int64 { return x / d }), func(y int64) int64 { return 100 / (y | 1) }), 0,
		func(a, b int64) int64 { return a + b })
	m := soac.Reduce(xs, 0, func(a, b int64) int64 { return max(a, b) })
	q := soac.Reduce(soac.Map(xs, func(x int64) int64 { return x ^ m ^ p }), 0, func(a, b int64) int64 { return a + b })
	return p, q
}
