package kmeans

import (
	"reflect"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// TestClusterSizesCLPinned feeds the opencl variant points and centres in
// pinned memory: the points are the skeleton's input (skel's upload), the
// centres a captured slice (launch's view, skel.Write); the counts equal
// the spec's and both move directly.
func TestClusterSizesCLPinned(t *testing.T) {
	cltest.Require(t, soacgenCLClusterSizesCL)
	for _, n := range []int{1, 33, 1<<16 + 7} {
		ps := cltest.Pinned(t, randPoints(15, n))
		cs := cltest.Pinned(t, centres)
		want := clusterSizesSpec(ps, cs)
		before := skel.DirectTransfers()
		if got := ClusterSizesCL(ps, cs); !reflect.DeepEqual(got, want) {
			t.Errorf("n=%d: ClusterSizesCL = %v, want %v", n, got, want)
		}
		if direct := skel.DirectTransfers() - before; direct != 2 {
			t.Errorf("n=%d: %d direct transfers, want 2 (points and centres)", n, direct)
		}
	}
}
