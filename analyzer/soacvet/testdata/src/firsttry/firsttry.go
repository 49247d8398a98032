// Package firsttry is a new user's first try: one nested pipeline, no
// directive. soacvet must print exactly one finding, with its fix.
package firsttry

import "github.com/soacgen/soacgen/runtime/soac"

// SumSquares returns the sum of the squares of xs.
func SumSquares(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0, func(a, b float64) float64 { return a + b }) // want `^pipeline of 2 SOACs makes 2 passes and allocates 1 intermediate slice; //soac:fuse would make it 1 pass$`
}
