package dotprod

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// TestDotCLPinned feeds the opencl variant inputs in pinned memory
// (package pinned), whole and as sub-slices: the result equals the
// spec's as in TestDotCL, and both inputs move with one direct transfer
// each (skel.DirectTransfers); the parallel variant reads them too.
func TestDotCLPinned(t *testing.T) {
	cltest.Require(t, soacgenCLDotCL)
	for _, n := range extest.Sizes(testing.Short()) {
		xs := cltest.Pinned(t, extest.Floats(extest.Rand(17, n), n, -1, 1))
		ys := cltest.Pinned(t, extest.Floats(extest.Rand(18, n), n, -1, 1))
		for _, part := range [][2]int{{0, n}, {n / 7, n - n/3}} {
			x, y := xs[part[0]:part[1]], ys[part[0]:part[1]]
			scale := 0.0
			for i := range x {
				scale += max(x[i]*y[i], -x[i]*y[i])
			}
			want := dotSpec(x, y)
			before := skel.DirectTransfers()
			got := DotCL(x, y)
			if !cltest.Close(got, want, 1e-12, scale) {
				t.Errorf("n=%d %v: DotCL = %v, want %v", n, part, got, want)
			}
			if direct := skel.DirectTransfers() - before; len(x) > 0 && direct != 2 {
				t.Errorf("n=%d %v: %d direct transfers, want 2", n, part, direct)
			}
			// Host code reads pinned memory as any other.
			if got := DotPar(x, y); !cltest.Close(got, want, 1e-12, scale) {
				t.Errorf("n=%d %v: DotPar = %v, want %v", n, part, got, want)
			}
		}
	}
}
