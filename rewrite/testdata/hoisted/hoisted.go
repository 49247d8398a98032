// Package hoisted holds SOAC calls whose array arguments are expressions
// and calls evaluated before a SOAC in the same statement: the IR binds
// each to a temporary first.
package hoisted

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b int) int { return a + b }

func double(x int) int { return 2 * x }

func first(xs []int) int {
	if len(xs) == 0 {
		return -1
	}
	return xs[0]
}

func pair(a, b int) int { return a*1000 + b }

//soac:fuse Reslice
func resliceSpec(xs []int, k int) int {
	return soac.Reduce(xs[:min(max(k, 0), len(xs))], 0, add)
}

//soac:fuse ResliceMap
func resliceMapSpec(xs []int) []int {
	if len(xs) == 0 {
		return nil
	}
	return soac.Map(soac.Map(xs[1:], double), func(x int) int { return x + 1 })
}

//soac:fuse CallBefore
func callBeforeSpec(xs []int) int {
	return pair(first(xs), soac.Reduce(soac.Map(xs, double), 0, add))
}
