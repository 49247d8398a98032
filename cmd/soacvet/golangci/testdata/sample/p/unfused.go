// Package p is the sample package that the golangci-lint plugin test
// lints: one finding of each kind the test checks (unfused.go, blocked.go,
// stale.go) and code that must get none (clean.go).
package p

import "github.com/soacgen/soacgen/runtime/soac"

func square(x float64) float64 { return x * x }

func add(a, b float64) float64 { return a + b }

// SumSquares is not a spec: its pipeline makes two passes where fusion
// would make one.
func SumSquares(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, square), 0, add)
}
