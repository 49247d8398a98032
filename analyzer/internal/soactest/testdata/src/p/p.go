package p

import "github.com/soacgen/soacgen/runtime/soac"

func F(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0, func(a, b float64) float64 { return a + b }) // want "soac call Reduce" "soac call Map"
}
