package normalize2

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
)

// TestNormalize2CL compares the opencl variant (both sums, the second of
// the filter's kept elements as a select, and the maps on the device)
// with the spec: each element within 1e-12 relative (the sums are
// reassociated on the device, all of the second's terms positive; the
// divisions are correctly rounded in OpenCL C as in Go).
func TestNormalize2CL(t *testing.T) {
	cltest.Require(t, soacgenCLNormalize2CL, soacgenCLNormalize2CL2)
	cltest.NoFallbacks(t)
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(1, n), n, -1, 2)
		same := extest.Unchanged(xs)
		want1, want2 := normalize2Spec(xs)
		got1, got2 := Normalize2CL(xs)
		for _, c := range []struct {
			name      string
			got, want []float64
		}{{"ys1", got1, want1}, {"ys2", got2, want2}} {
			if len(c.got) != len(c.want) || (c.got == nil) != (c.want == nil) {
				t.Fatalf("n=%d %s: %d elements (nil %v), want %d (nil %v)", n, c.name, len(c.got), c.got == nil, len(c.want), c.want == nil)
			}
			for i := range c.got {
				if !cltest.Close(c.got[i], c.want[i], 1e-12, 0) {
					t.Fatalf("n=%d %s[%d] = %v, want %v", n, c.name, i, c.got[i], c.want[i])
				}
			}
		}
		if !same() {
			t.Errorf("n=%d: Normalize2CL wrote its input", n)
		}
	}
}
