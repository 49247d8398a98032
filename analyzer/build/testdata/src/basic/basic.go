package basic

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b float64) float64 { return a + b }

func sq(x float64) float64 { return x * x }

// Nested calls become earlier statements bound to _soacN temporaries.
func sumSquares(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, sq), 0, add)
}

// := = var and multiple assignment bind SOAC results directly.
func bindings(xs, ys []float64) ([]float64, float64) {
	a := soac.Map(xs, sq)
	var b = soac.Map(ys, sq)
	c, d := soac.Map2(a, b, add), soac.Reduce(a, 0.0, add)
	a = soac.Scan(c, 0, add)
	var e []float64
	e = soac.Filter(a, func(x float64) bool { return x > d })
	return e, d
}

// A SOAC in a larger expression is bound to a temporary first.
func inExpr(xs []float64) float64 {
	y := 2 * soac.Reduce(xs, 0, add)
	return y + soac.Reduce(soac.Map(xs, sq), 0, add)
}

// Non-variable array arguments are hoisted into temporaries.
type points struct{ Items []float64 }

func hoisting(xs []float64, p *points) []float64 {
	a := soac.Map(xs[1:], sq)
	b := soac.Map(p.Items, sq)
	c := soac.Map(tail(xs), sq)
	return soac.Map3(a, b, c, func(x, y, z float64) float64 { return x + y + z })
}

func tail(xs []float64) []float64 { return xs[1:] }

// Calls evaluated before a SOAC of the same statement are hoisted too, so
// that the SOAC does not move ahead of them.
func order(xs []float64) []float64 {
	return pair(mutFirst(xs), soac.Map(xs, sq))
}

func mutFirst(xs []float64) float64 { xs[0] = 1; return xs[0] }

func pair(x float64, ys []float64) []float64 { return append(ys, x) }

// Iota, Replicate, StreamMap, StreamRed and len operands.
func generators(xs []float64, n int) float64 {
	is := soac.Iota(len(xs))
	rs := soac.Replicate(n, 1.5)
	ms := soac.StreamMap(rs, func(c []float64) []float64 { return c })
	_ = soac.Map2(is, ms, func(i int, m float64) float64 { return float64(i) * m })
	return soac.StreamRed(xs, add, func(c []float64) float64 { return float64(len(c)) })
}

// A SOAC whose result is discarded is still a statement.
func discarded(xs []float64) {
	soac.Map(xs, sq)
}

// Methods are Functions too.
type box struct{ data []float64 }

func (b *box) total() float64 {
	return soac.Reduce(b.data, 0, add)
}

// Generic specs.
func genericMap[T any, U any](xs []T, f func(T) U) []U {
	return soac.Map(soac.Map(xs, f), func(u U) U { return u })
}
