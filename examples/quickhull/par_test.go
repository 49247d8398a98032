package quickhull

// The parallel backend's functions (the specs' backend=parallel
// directives) against the specs: the same result within rounding
// (integers identical), the same bits under GOMAXPROCS 1, 2 and 8, on
// sizes that run the sequential path and sizes that split into chunks.

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestFilterMaxPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		ps := randPoints(n)
		want := func() []any { r0, r1 := filterMaxSpec(ps, Point{-1, -0.2}, Point{1, 0.3}); return []any{r0, r1} }()
		got := extest.AcrossProcs(t, func() []any { r0, r1 := FilterMaxPar(ps, Point{-1, -0.2}, Point{1, 0.3}); return []any{r0, r1} })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: FilterMaxPar: %s", n, d)
		}
	}
}
