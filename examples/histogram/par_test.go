package histogram

// The parallel backend's functions (the specs' backend=parallel
// directives) against the specs: the same result within rounding
// (integers identical), the same bits under GOMAXPROCS 1, 2 and 8, on
// sizes that run the sequential path and sizes that split into chunks.

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestHistogramPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(11, n), n, -1.1, 1.1)
		want := histogramSpec(xs, -1, 1, 16)
		got := extest.AcrossProcs(t, func() []int { return HistogramPar(xs, -1, 1, 16) })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: HistogramPar: %s", n, d)
		}
	}
}
