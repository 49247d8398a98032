// Package unsupported has specs with SOAC calls soacgen cannot model; they
// stay as written, unfused.
package unsupported

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b int) int { return a + b }

func inc(x int) int { return x + 1 }

// asValue calls a combinator through a function value.
//
//soac:fuse AsValue
func asValue(xs []int) []int {
	m := soac.Map[int, int] // want `^combinator soac.Map\[int, int\] is used as a value; calls through a function value are not analysed; it stays as written, unfused$`
	return m(m(xs, inc), inc)
}

// shortCircuit evaluates a SOAC only when c holds.
//
//soac:fuse ShortCircuit
func shortCircuit(c bool, xs []int) bool {
	return c && soac.Reduce(xs, 0, add) > 0 // want `^the right operand of && is evaluated only when the left one is true; it stays as written, unfused$`
}

// notASpec does the same outside a spec: not reported.
func notASpec(xs []int) []int {
	m := soac.Map[int, int]
	return m(xs, inc)
}
