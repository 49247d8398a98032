package normalize2

import (
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// TestNormalize2Auto compares Normalize2Auto with the spec, each element
// within 1e-12 relative (the sums reassociated by the device or by the
// parallel backend's chunks), by the cost model (on PoCL, a CPU device,
// the host's code), on the device whenever there is one (both kernels,
// xs uploaded once), and never on it (the code that runs without
// OpenCL).
func TestNormalize2Auto(t *testing.T) {
	for _, c := range []struct {
		name   string
		choice launch.Choice
	}{{"model", launch.ByModel}, {"device", launch.AlwaysDevice}, {"host", launch.NeverDevice}} {
		t.Run(c.name, func(t *testing.T) {
			if c.choice == launch.AlwaysDevice {
				cltest.Require(t, soacgenCLNormalize2Auto, soacgenCLNormalize2Auto2)
			}
			defer launch.SetChoice(launch.SetChoice(c.choice))
			for _, n := range append(extest.Sizes(testing.Short()), 100_003) {
				xs := extest.Floats(extest.Rand(2, n), n, -1, 2)
				same := extest.Unchanged(xs)
				want1, want2 := normalize2Spec(xs)
				u0, _ := launch.Transfers()
				var got1, got2 []float64
				cltest.OnDevice(t, fmt.Sprintf("n=%d", n), func() { got1, got2 = Normalize2Auto(xs) })
				u1, _ := launch.Transfers()
				for _, r := range []struct {
					name      string
					got, want []float64
				}{{"ys1", got1, want1}, {"ys2", got2, want2}} {
					if len(r.got) != len(r.want) || (r.got == nil) != (r.want == nil) {
						t.Fatalf("n=%d %s: %d elements (nil %v), want %d (nil %v)", n, r.name, len(r.got), r.got == nil, len(r.want), r.want == nil)
					}
					for i := range r.got {
						if !cltest.Close(r.got[i], r.want[i], 1e-12, 0) {
							t.Fatalf("n=%d %s[%d] = %v, want %v", n, r.name, i, r.got[i], r.want[i])
						}
					}
				}
				if !same() {
					t.Errorf("n=%d: Normalize2Auto wrote its input", n)
				}
				if want := map[bool]int64{true: 1, false: 0}[c.choice == launch.AlwaysDevice && n > 0]; u1-u0 != want {
					t.Errorf("n=%d: %d uploads, want %d", n, u1-u0, want)
				}
			}
		})
	}
}

// TestNormalize2AutoModel checks that the first kernel's cost counts the
// second's (its outputs and arithmetic) and xs once: 8 bytes read, 16
// written.
func TestNormalize2AutoModel(t *testing.T) {
	if c := soacgenCLNormalize2Auto.Cost; c.Bytes != 24 || c.Ops < soacgenCLNormalize2Auto2.Cost.Ops {
		t.Errorf("Normalize2Auto's first kernel costs %+v: not the two kernels with xs moved once", c)
	}
}
