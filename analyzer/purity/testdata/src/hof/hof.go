// Package hof passes functions to higher-order functions: the runtime's
// combinators, whose facts say which parameters they call.
package hof

import (
	"strconv"

	"github.com/soacgen/soacgen/runtime/soac"
)

var total int

func PureMap(xs []int) []int { // want `^pure$`
	return soac.Map(xs, func(x int) int { return 2 * x }) // want `^pure$`
}

func ImpureMap(xs []int) []int { // want `^impure: calls soac.Map with a func literal, which writes package-level variable total$`
	return soac.Map(xs, func(x int) int { // want `^impure: writes package-level variable total$`
		total += x
		return x
	})
}

func CapturingMap(xs []int) int { // want `^impure: calls soac.Map with a func literal, which writes captured variable sum$`
	sum := 0
	soac.Map(xs, func(x int) int { // want `^impure: writes captured variable sum$`
		sum += x
		return x
	})
	return sum
}

func WritesElement(rows [][]int) [][]int { // want `^impure: calls soac.Map with a func literal, which writes r\[0\], memory reachable from parameter r; maypanic$`
	return soac.Map(rows, func(r []int) []int { // want `^impure: writes r\[0\], memory reachable from parameter r; maypanic$`
		r[0] = 1
		return r
	})
}

func FuncRef(xs []int) []string { return soac.Map(xs, strconv.Itoa) } // want `^pure$`

func Double(x int) int { return 2 * x } // want `^pure$`

func LocalRef(xs []int) []int { return soac.Map(xs, Double) } // want `^pure$`

func Bump(x int) int { // want `^impure: writes package-level variable total$`
	total++
	return x
}

func LocalImpureRef(xs []int) []int { return soac.Map(xs, Bump) } // want `^impure: calls soac.Map with Bump, which writes package-level variable total$`

func Reduce(xs []float64) float64 { // want `^pure$`
	return soac.Reduce(xs, 0, func(a, b float64) float64 { return a + b }) // want `^pure$`
}

func Apply(f func(int) int, xs []int) []int { return soac.Map(xs, f) } // want `^impure: calls its function parameter f, which cannot be resolved; maypanic$`

func UsesApply(xs []int) []int { // want `^pure$`
	return Apply(func(x int) int { return x + 1 }, xs) // want `^pure$`
}

func UsesApplyImpure(xs []int) []int { // want `^impure: calls Apply with Bump, which writes package-level variable total$`
	return Apply(Bump, xs)
}

func Unresolved(fs []func(int) int, xs []int) []int { // want `^impure: calls soac.Map with function value fs\[0\] that cannot be resolved; maypanic$`
	return soac.Map(xs, fs[0])
}

func Nested(rows [][]float64) []float64 { // want `^pure$`
	return soac.Map(rows, func(r []float64) float64 { // want `^pure$`
		return soac.Reduce(r, 0, func(a, b float64) float64 { return a + b }) // want `^pure$`
	})
}

func Filter(xs []int) []int { // want `^pure$`
	return soac.Filter(xs, func(x int) bool { return x%2 == 0 }) // want `^pure$`
}

// Hidden hides f from the inliner as the runtime's combinators do: f stays
// its function parameter, called here.
func Hidden(f func(int) int, x int) int { // want `^impure: calls its function parameter f, which cannot be resolved; maypanic$`
	f = soac.Opaque(f)
	return f(x)
}

func UsesHidden(x int) int { // want `^pure$`
	return Hidden(func(y int) int { return y + 1 }, x) // want `^pure$`
}

func wrap(f func(int) int) func(int) int { return f } // want `^pure$`

// Rebound reassigns f with a function that is not soac.Opaque: f is then
// a function value that cannot be resolved.
func Rebound(f func(int) int, x int) int { // want `^impure: calls a function value f that cannot be resolved; maypanic$`
	f = wrap(f)
	return f(x)
}

// MapPanics: soac.Map cannot panic itself (its summary leaves out the
// panics of the function it calls), but this call passes a function that
// may, so the call may.
func MapPanics(xs []int) []int { // want `^pure; maypanic$`
	return soac.Map(xs, func(x int) int { return 10 / x }) // want `^pure; maypanic$`
}

// ReplicateLen: soac.Replicate of a length cannot be negative, but its
// summary says it may panic (on a negative length).
func ReplicateLen(xs []int) []int { // want `^pure; maypanic$`
	return soac.Replicate(len(xs), 1)
}
