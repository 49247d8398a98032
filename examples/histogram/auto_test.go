package histogram

import (
	"math"
	"reflect"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// TestHistogramAuto compares HistogramAuto with the spec (integer
// counts) by the cost model (on PoCL, a CPU device, the host's code), on
// the device whenever there is one, and never on it (the code that runs
// without OpenCL), NaN, ±Inf and ±0 included; no bins and a negative
// number of bins raise the spec's panics under each.
func TestHistogramAuto(t *testing.T) {
	for _, c := range []struct {
		name   string
		choice launch.Choice
	}{{"model", launch.ByModel}, {"device", launch.AlwaysDevice}, {"host", launch.NeverDevice}} {
		t.Run(c.name, func(t *testing.T) {
			if c.choice == launch.AlwaysDevice {
				cltest.Require(t, soacgenCLHistogramAuto)
			}
			defer launch.SetChoice(launch.SetChoice(c.choice))
			for _, nb := range []int{1, nbins, 1000} {
				for _, n := range append(extest.Sizes(testing.Short()), 33, 1<<16+7) {
					xs := extest.Floats(extest.Rand(14, n), n, -1.1, 1.1)
					for i, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)} {
						if i < n {
							xs[(i*7919)%n] = v
						}
					}
					if got, want := HistogramAuto(xs, -1, 1, nb), histogramSpec(xs, -1, 1, nb); !reflect.DeepEqual(got, want) {
						t.Errorf("nbins=%d n=%d: HistogramAuto = %v, want %v", nb, n, got, want)
					}
				}
			}
			xs := extest.Floats(extest.Rand(15, 100), 100, -1, 1)
			for _, nb := range []int{0, -1} {
				want := extest.Panic(func() { histogramSpec(xs, -1, 1, nb) })
				if got := extest.Panic(func() { HistogramAuto(xs, -1, 1, nb) }); got == nil || want == nil || got.(error).Error() != want.(error).Error() {
					t.Errorf("nbins=%d: HistogramAuto panics with %v, want %v", nb, got, want)
				}
			}
		})
	}
}
