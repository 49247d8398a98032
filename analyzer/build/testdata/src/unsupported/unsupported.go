package unsupported

import "github.com/soacgen/soacgen/runtime/soac"

func inc(x int) int    { return x + 1 }
func add(a, b int) int { return a + b }

// A combinator used as a value.
func asValue(xs []int) []int {
	m := soac.Map[int, int]
	return m(xs, inc)
}

// A SOAC in the right operand of && and ||.
func andOr(xs []int, c bool) bool {
	return c && soac.Reduce(xs, 0, add) > 0 || soac.Reduce(soac.Map(xs, inc), 0, add) > 1
}

// A SOAC in a for condition and post statement.
func forCond(xs []int) int {
	n := 0
	for i := 0; i < soac.Reduce(xs, 0, add); i += soac.Reduce(xs, 0, add) {
		n++
	}
	return n
}

// A SOAC in a case expression.
func caseExpr(xs []int, k int) int {
	switch k {
	case soac.Reduce(xs, 0, add):
		return 1
	}
	return 0
}

// Deferred SOAC call.
func deferred(xs []int) {
	defer soac.Map(soac.Map(xs, inc), inc)
}

// A SOAC after a conditionally evaluated call in the same statement.
func afterCond(xs []int, c bool) []int {
	return pick(c && check(xs), soac.Map(xs, inc))
}

func check(xs []int) bool { return len(xs) > 0 }

func pick(b bool, xs []int) []int { return xs }

// A SOAC after a conditionally evaluated SOAC in the same statement.
func afterCondSOAC(xs []int, c bool) []int {
	return pick(c && soac.Reduce(xs, 0, add) > 0, soac.Map(xs, inc))
}
