package dotprod

// The parallel backend's functions (the specs' backend=parallel
// directives) against the specs: the same result within rounding
// (integers identical), the same bits under GOMAXPROCS 1, 2 and 8, on
// sizes that run the sequential path and sizes that split into chunks.

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestDotPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		xs, ys := extest.Floats(extest.Rand(7, n), n, -1, 1), extest.Floats(extest.Rand(8, n), n, -1, 1)
		want := dotSpec(xs, ys)
		got := extest.AcrossProcs(t, func() float64 { return DotPar(xs, ys) })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: DotPar: %s", n, d)
		}
	}
}
