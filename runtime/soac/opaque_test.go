package soac_test

import (
	"math"
	"testing"

	"github.com/soacgen/soacgen/runtime/soac"
)

// mulAddRef is fused into one FMA in its own compiled body where the
// target contracts (soac.FMAContracts).
func mulAddRef(x, y float64) float64 { return x*y + 0.1 }

// TestOpaque checks that Opaque returns its argument and that a
// combinator runs the lambda's own compiled body: the same bits as
// calling the function through Opaque, which never inlines it where the
// target contracts.
func TestOpaque(t *testing.T) {
	if got := soac.Opaque(math.Sqrt)(4); got != 2 {
		t.Fatalf("Opaque(math.Sqrt)(4) = %v", got)
	}
	xs, ys := benchData(1000, 7), benchData(1000, 8)
	fn := soac.Opaque(mulAddRef)
	got := soac.Map2(xs, ys, mulAddRef)
	for i := range xs {
		if want := fn(xs[i], ys[i]); math.Float64bits(got[i]) != math.Float64bits(want) {
			t.Fatalf("Map2(mulAddRef)[%d] = %v, mulAddRef's own body gives %v", i, got[i], want)
		}
	}
	red := soac.Reduce(xs, 0, func(a, b float64) float64 { return a*0.5 + b })
	acc, op := 0.0, soac.Opaque(func(a, b float64) float64 { return a*0.5 + b })
	for _, x := range xs {
		acc = op(acc, x)
	}
	if math.Float64bits(red) != math.Float64bits(acc) {
		t.Fatalf("Reduce = %v, the operator's own body folds to %v", red, acc)
	}
}
