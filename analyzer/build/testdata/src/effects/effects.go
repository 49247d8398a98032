package effects

import (
	"fmt"
	"sort"

	"github.com/soacgen/soacgen/runtime/soac"
)

func inc(x float64) float64 { return x + 1 }

var global []float64

type holder struct{ items []float64 }

// Index assignment, copy, append, clear, sort.Float64s.
func writes(xs, ys []float64, m map[int]float64, xss [][]float64) {
	a := soac.Map(xs, inc)
	xs[0] = 1
	xss[0][1] = 2
	copy(ys, a)
	ys = append(ys, 3)
	clear(m)
	m[1] = 2
	sort.Float64s(a)
	_ = soac.Map(a, inc)
}

// An unknown call, a call of a package function that writes its argument,
// and I/O.
func calls(xs []float64, f func([]float64)) []float64 {
	a := soac.Map(xs, inc)
	mutFill(a)
	f(xs)
	fmt.Println(a)
	return soac.Map(a, inc)
}

func mutFill(xs []float64) {
	for i := range xs {
		xs[i] = 0
	}
}

// Alias joins: re-slice, struct field holding a slice, append, conversion.
func aliases(xs []float64) []float64 {
	r := xs[1:]
	h := holder{items: xs}
	p := &holder{}
	p.items = r
	ap := append(r, 1)
	type floats []float64
	cv := floats(ap)
	e := xs[0]
	_ = e
	return soac.Map(soac.Map(h.items, inc), func(x float64) float64 { return x + cv[0] })
}

// Globals: package-level variables get Global Vars, redefined by writes.
func globals(xs []float64) []float64 {
	a := soac.Map(global, inc)
	global = xs
	sideEffect()
	return soac.Map(a, inc)
}

func sideEffect() {}

// Address taken: x escapes; later impure statements redefine it.
func escapes(xs []float64) []float64 {
	k := 2.0
	p := &k
	ys := soac.Map(xs, func(x float64) float64 { return x * k })
	*p = 3
	return soac.Map(ys, func(x float64) float64 { return x * k })
}

// Element types holding references: SOAC results alias their inputs.
func refs(xss [][]float64) [][]float64 {
	return soac.Map(xss, func(xs []float64) []float64 { return xs })
}

// A method with a pointer receiver called on an addressable value.
type acc struct{ v []float64 }

func (a *acc) Push(x float64) { a.v = append(a.v, x) }

func methods(xs []float64) []float64 {
	var a acc
	a.Push(1)
	return soac.Map(a.v, inc)
}
