package minmax

// The parallel backend's functions (the specs' backend=parallel
// directives) against the specs: the same result within rounding
// (integers identical), the same bits under GOMAXPROCS 1, 2 and 8, on
// sizes that run the sequential path and sizes that split into chunks.

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestBoundsPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		xs := readings(extest.Rand(21, n), n)
		want := func() []any { r0, r1 := boundsSpec(xs); return []any{r0, r1} }()
		got := extest.AcrossProcs(t, func() []any { r0, r1 := BoundsPar(xs); return []any{r0, r1} })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: BoundsPar: %s", n, d)
		}
	}
}
