package kmeans

// The parallel backend's functions (the specs' backend=parallel
// directives) against the specs: the same result within rounding
// (integers identical), the same bits under GOMAXPROCS 1, 2 and 8, on
// sizes that run the sequential path and sizes that split into chunks.

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestClusterSizesPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		ps := randPoints(3, n)
		want := clusterSizesSpec(ps, centres)
		got := extest.AcrossProcs(t, func() []int { return ClusterSizesPar(ps, centres) })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: ClusterSizesPar: %s", n, d)
		}
	}
}
