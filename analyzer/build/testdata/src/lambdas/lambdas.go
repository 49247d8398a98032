package lambdas

import (
	"math"
	"strings"

	"github.com/soacgen/soacgen/runtime/soac"
)

type set struct{ m map[int]bool }

func (s set) Has(x int) bool { return s.m[x] }

func add(a, b float64) float64 { return a + b }

// Every kind of lambda.
func kinds(xs []float64, words []string, is []int, s set, k float64) {
	_ = soac.Map(xs, func(x float64) float64 { return x * k }) // literal
	_ = soac.Map(xs, math.Sqrt)                                // named, other package
	_ = soac.Map(words, strings.ToUpper)                       // named, other package
	_ = soac.Filter(is, s.Has)                                 // method value
	f := func(x float64) float64 { return x + k }
	_ = soac.Map(xs, f) // local function variable: resolved
	g := func(x float64) float64 { return x }
	g = func(x float64) float64 { return -x }
	_ = soac.Map(xs, g)           // reassigned: not resolved
	_ = soac.Map(xs, pick(k))     // other
	_ = soac.Reduce(xs, 0.0, add) // named, this package
}

func pick(k float64) func(float64) float64 {
	return func(x float64) float64 { return x * k }
}

// Matrix multiply: a Map of Maps of Reduce(Map2).
func matmul(a, bt [][]float64) [][]float64 {
	return soac.Map(a, func(row []float64) []float64 {
		return soac.Map(bt, func(col []float64) float64 {
			return soac.Reduce(soac.Map2(row, col, func(x, y float64) float64 { return x * y }), 0, add)
		})
	})
}

// An impure lambda writes a captured variable.
func impure(xs []float64) (float64, []float64) {
	sum := 0.0
	ys := soac.Map(xs, func(x float64) float64 { sum += x; return x })
	return sum, ys
}

// A function parameter as lambda cannot be resolved.
func param(xs []float64, f func(float64) float64) []float64 {
	return soac.Map(xs, f)
}
