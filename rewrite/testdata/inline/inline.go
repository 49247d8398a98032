// Package inline holds lambdas that test inlining: shadowing, early
// returns, several statements, method values and function variables.
package inline

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse Shadow
func shadowSpec(xs []int, i int) int {
	x := i * 2
	ys := soac.Map(xs, func(i int) int {
		n := i + x
		acc := n * 2
		return acc
	})
	return soac.Reduce(ys, x, func(x, i int) int { n := x + i; return n })
}

//soac:fuse EarlyReturn
func earlyReturnSpec(xs []int) int {
	ys := soac.Map(xs, func(x int) int {
		if x < 0 {
			return -x
		}
		for k := 0; k < 3; k++ {
			if x%(k+2) == 0 {
				return k
			}
		}
		return x
	})
	return soac.Reduce(ys, 0, func(a, b int) int { return a + b })
}

type scaler struct{ k float64 }

func (s scaler) scale(x float64) float64 { return x * s.k }

//soac:fuse Method
func methodSpec(xs []float64, k float64) float64 {
	s := scaler{k}
	ys := soac.Map(xs, s.scale)
	return soac.Reduce(ys, 0.0, func(a, b float64) float64 { return a + b })
}

//soac:fuse FuncVar
func funcVarSpec(xs []int, c int) int {
	inc := func(x int) int { return x + c }
	ys := soac.Map(xs, inc)
	return soac.Reduce(ys, 0, func(a, b int) int { return a + b })
}

//soac:fuse Unused
func unusedSpec(xs []int) []int {
	ys := soac.Map(xs, func(x int) int { return 7 })
	return soac.Map(ys, func(_ int) int { return 1 })
}

// A lambda with a defer is called, not inlined: its deferred call runs
// when the lambda returns (here, after the result is set), once per
// element.
//
//soac:fuse DeferLambda
func deferLambdaSpec(xs []int) int {
	ys := soac.Map(xs, func(x int) (r int) {
		defer bump(&r)
		return x * 2
	})
	return soac.Reduce(ys, 0, func(a, b int) int { return a + b })
}

func bump(p *int) { *p++ }

const (
	shadowSpecAllocs      = 0
	earlyReturnSpecAllocs = 0
	methodSpecAllocs      = 0
	funcVarSpecAllocs     = 0
)
