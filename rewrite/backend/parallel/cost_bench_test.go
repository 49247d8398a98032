package parallel

// BenchmarkOpCosts measures what cost.go's table of per-operation
// costs holds: the time per element of a map loop over 1024 float64s in
// L1 (out[i] = f(xs[i]), independent elements, as a fused map runs them)
// for each math function the table names and for the operators it
// weighs. Run it with -count 5 and take the medians (BENCHMARKS.md,
// "The parallel backend", says where the table's figures come from); the
// loop itself ("add") is the unit the others are compared with.

import (
	"math"
	"testing"
)

// opCostFuncs are the functions BenchmarkOpCosts times, by the name
// cost.go's table uses.
var opCostFuncs = map[string]func(float64) float64{
	"add":   func(x float64) float64 { return x + 1 },
	"mul":   func(x float64) float64 { return x * 1.5 },
	"div":   func(x float64) float64 { return 1 / x },
	"idiv":  func(x float64) float64 { return float64(int64(x*1000+7) / 13) },
	"Abs":   math.Abs,
	"Sqrt":  math.Sqrt,
	"Floor": math.Floor,
	"Exp":   math.Exp,
	"Exp2":  math.Exp2,
	"Log":   math.Log,
	"Log2":  math.Log2,
	"Log10": math.Log10,
	"Log1p": math.Log1p,
	"Pow":   func(x float64) float64 { return math.Pow(x, 1.7) },
	"Sin":   math.Sin,
	"Cos":   math.Cos,
	"Tan":   math.Tan,
	"Atan":  math.Atan,
	"Atan2": func(x float64) float64 { return math.Atan2(x, 0.3) },
	"Tanh":  math.Tanh,
	"Erf":   math.Erf,
	"Cbrt":  math.Cbrt,
	"Hypot": func(x float64) float64 { return math.Hypot(x, 0.3) },
	"Mod":   func(x float64) float64 { return math.Mod(x, 0.3) },
}

func BenchmarkOpCosts(b *testing.B) {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = 0.25 + float64(i)/512 // (0.25, 2.25): every function's ordinary range
	}
	out := make([]float64, len(xs))
	for name, f := range opCostFuncs {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				mapInto(out, xs, f)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/elem")
		})
	}
}

// mapInto is the map loop BenchmarkOpCosts times (a function, not a
// loop inside b.Loop, which Go compiles worse).
//
//go:noinline
func mapInto(out, xs []float64, f func(float64) float64) {
	for i, x := range xs {
		out[i] = f(x)
	}
}
