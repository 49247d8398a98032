package kmeans

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// TestClusterSizesParSmallAllocs: at n = 1 the parallel backend's
// ClusterSizesPar (a lone StreamRed) allocates what the cpu backend's
// ClusterSizes does (its closures were made for the runtime call at
// every size).
func TestClusterSizesParSmallAllocs(t *testing.T) {
	ps, cs := []Point{{1, 2}}, []Point{{0, 0}, {3, 3}}
	extest.SameAllocs(t, func() { ClusterSizes(ps, cs) }, func() { ClusterSizesPar(ps, cs) })
}
