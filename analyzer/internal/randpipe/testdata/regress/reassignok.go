// Regression specs of the reassignment shapes that the engine handles:
// a SOAC's result assigned to a variable SOACs read, behind a condition,
// in tuple swaps, by self-assignment and through a local function, and a
// scalar a loop's Reduce reassigns from a Map reading its previous value.

package reassignok

import "github.com/soacgen/soacgen/runtime/soac"

// condMapSpec has shapes cond-reassign.
//
//soac:fuse CondMap
func condMapSpec(xs []int64) int64 {
	p := soac.Map(xs, func(x int64) int64 { return x + 1 })
	if len(xs)%2 == 1 {
		p = soac.Map(p, func(x int64) int64 { return x * 3 })
	}
	return soac.Reduce(p, 0, func(a, b int64) int64 { return a + b })
}

// swapSpec has shapes double-buffer, loop-counted.
//
//soac:fuse Swap
func swapSpec(xs []int64, k int64) (int64, []int64) {
	a := xs
	b := soac.Map(xs, func(x int64) int64 { return x * 2 })
	for it := int64(0); it < k; it++ {
		a, b = b, soac.Map(a, func(x int64) int64 { return x + 1 })
	}
	return soac.Reduce(a, 0, func(x, y int64) int64 { return x + y }), b
}

// swapPlainSpec has shapes double-buffer.
//
//soac:fuse SwapPlain
func swapPlainSpec(xs []int64) (int64, int64) {
	a := soac.Map(xs, func(x int64) int64 { return x + 1 })
	b := soac.Map(xs, func(x int64) int64 { return x * 2 })
	s := soac.Reduce(a, 0, func(x, y int64) int64 { return x + y })
	a, b = b, a
	t := soac.Reduce(a, 0, func(x, y int64) int64 { return x ^ y })
	return s, t + int64(len(b))
}

// selfSpec has shapes self-assign.
//
//soac:fuse Self
func selfSpec(xs []int64) (int64, []int64) {
	p := soac.Map(xs, func(x int64) int64 { return x + 1 })
	xs = xs
	p = p
	q := soac.Map(p, func(x int64) int64 { return x * 2 })
	return soac.Reduce(p, 0, func(a, b int64) int64 { return a + b }), q
}

// closureSpec has shapes closure-assign.
//
//soac:fuse Closure
func closureSpec(xs []int64) (int64, int64) {
	a := soac.Map(xs, func(x int64) int64 { return x + 1 })
	upd := func() { a = soac.Map(a, func(x int64) int64 { return x * 3 }) }
	s := soac.Reduce(a, 0, func(x, y int64) int64 { return x + y })
	upd()
	t := soac.Reduce(a, 0, func(x, y int64) int64 { return x + y })
	return s, t
}

// selfReduceSpec has shapes loop-counted, loop-carried, reassign-read.
//
//soac:fuse SelfReduce
func selfReduceSpec(xs []int64, k int64) int64 {
	s := int64(1)
	for it := int64(0); it < k; it++ {
		s = soac.Reduce(soac.Map(xs, func(x int64) int64 { return x*2 - s }), 0, func(a, b int64) int64 { return a + b })
	}
	return s
}

// straightSpec has shapes reassign-read.
//
//soac:fuse Straight
func straightSpec(xs []int64) (int64, []int64) {
	a := xs
	p := soac.Map(a, func(x int64) int64 { return x + 1 })
	a = soac.Map(p, func(x int64) int64 { return x * 2 })
	q := soac.Reduce(a, 0, func(x, y int64) int64 { return x + y })
	return q, p
}
