// Package tuples holds SOAC calls assigned together with other values in
// one statement ("i, s := 0, soac.Reduce(...)"): the IR binds the SOAC to
// its variable, and the statement's other operands, its declaration of the
// variable and the kernel computing it must keep the spec's order.
package tuples

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b int) int { return a + b }

//soac:fuse Define
func defineSpec(xs []int) int {
	i, s := len(xs), soac.Reduce(soac.Map(xs, func(x int) int { return x & 7 }), 0, add)
	return i*1000 + s
}

//soac:fuse VarSpec
func varSpecSpec(xs []int) int {
	var i, s = 1, soac.Reduce(xs, 0, add)
	return i + s
}

// assignOldSpec reads s's old value in the statement that assigns the
// SOAC's result to s.
//
//soac:fuse AssignOld
func assignOldSpec(xs []int) []int {
	s := []int{5}
	var a int
	a, s = s[0], soac.Map(xs, func(x int) int { return x + 1 })
	return append(s, a)
}

// defineFusedSpec's ys is computed by the kernel of its consumer, after
// the statement declaring it.
//
//soac:fuse DefineFused
func defineFusedSpec(xs []int) []int {
	i, ys := 1, soac.Map(xs, func(x int) int { return x + 1 })
	zs := soac.Map(ys, func(x int) int { return x * 2 })
	if len(ys) > 0 {
		zs = append(zs, ys[0]+i)
	}
	return zs
}

// defineInternalSpec's ys is never materialised.
//
//soac:fuse DefineInternal
func defineInternalSpec(xs []int) int {
	i, ys := 1, soac.Map(xs, func(x int) int { return x + 1 })
	return i + soac.Reduce(ys, 0, add)
}
