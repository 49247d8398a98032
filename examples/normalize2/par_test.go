package normalize2

// The parallel backend's functions (the specs' backend=parallel
// directives) against the specs: the same result within rounding
// (integers identical), the same bits under GOMAXPROCS 1, 2 and 8, on
// sizes that run the sequential path and sizes that split into chunks.

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestNormalize2Par(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(1, n), n, -1, 2)
		want := func() []any { r0, r1 := normalize2Spec(xs); return []any{r0, r1} }()
		got := extest.AcrossProcs(t, func() []any { r0, r1 := Normalize2Par(xs); return []any{r0, r1} })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: Normalize2Par: %s", n, d)
		}
	}
}
