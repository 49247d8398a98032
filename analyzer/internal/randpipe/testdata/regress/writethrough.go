// Regression: a producer's output written through a
// pointer to its variable before the consumer reads it. The IR gives the
// written array a new Var, so the graph had no edge from producer to
// consumer: the two were (rightly) not fused, with no note saying why.

package writethrough

import "github.com/soacgen/soacgen/runtime/soac"

type holder struct{ s *[]int64 }

//soac:fuse ThroughPointer
func throughPointerSpec(xs []int64) int64 {
	p := soac.Map(xs, func(x int64) int64 { return x * 3 })
	ptr := &p
	if len(*ptr) > 0 {
		(*ptr)[0] = 7
	}
	return soac.Reduce(p, 0, func(a, b int64) int64 { return a + b })
}

//soac:fuse ThroughField
func throughFieldSpec(xs []int64) []int64 {
	p := soac.Map(xs, func(x int64) int64 { return x + 1 })
	h := holder{s: &p}
	if len(p) > 1 {
		(*h.s)[1] = -1
	}
	return soac.Map(p, func(x int64) int64 { return x * 2 })
}
