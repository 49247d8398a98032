// Package panics holds fused pipelines whose lambdas may panic: the
// generated code must panic with the spec's message.
package panics

import "github.com/soacgen/soacgen/runtime/soac"

var table = []int{5, 4, 3, 2, 1, 0, 1, 2, 3, 4}

//soac:fuse TwoPanics
func twoPanicsSpec(xs []int) []int {
	as := soac.Map(xs, func(x int) int { return 100 / (x % 7) })
	return soac.Map(as, func(a int) int { return table[a+3] })
}

//soac:fuse PanicReduce
func panicReduceSpec(xs []int) int {
	as := soac.Map(xs, func(x int) int { return table[(x+100)%12] })
	return soac.Reduce(as, 0, func(a, b int) int { return a + 60/(b-3) })
}
