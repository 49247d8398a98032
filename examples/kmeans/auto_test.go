package kmeans

import (
	"reflect"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// TestClusterSizesAuto compares ClusterSizesAuto with the spec (integer
// counts: equal under any chunking) by the cost model (on PoCL, a CPU
// device, the host's code), on the device whenever there is one, and
// never on it (the code that runs without OpenCL); points without
// centres raise the spec's panic under each.
func TestClusterSizesAuto(t *testing.T) {
	for _, c := range []struct {
		name   string
		choice launch.Choice
	}{{"model", launch.ByModel}, {"device", launch.AlwaysDevice}, {"host", launch.NeverDevice}} {
		t.Run(c.name, func(t *testing.T) {
			if c.choice == launch.AlwaysDevice {
				cltest.Require(t, soacgenCLClusterSizesAuto)
			}
			defer launch.SetChoice(launch.SetChoice(c.choice))
			for _, cs := range [][]Point{centres[:1], centres, randPoints(98, 100)} {
				for _, n := range append(extest.Sizes(testing.Short()), 33, 1<<16+7) {
					ps := randPoints(7, n)
					if got, want := ClusterSizesAuto(ps, cs), clusterSizesSpec(ps, cs); !reflect.DeepEqual(got, want) {
						t.Errorf("k=%d n=%d: ClusterSizesAuto = %v, want %v", len(cs), n, got, want)
					}
				}
			}
			ps := randPoints(6, 100)
			want := extest.Panic(func() { clusterSizesSpec(ps, nil) })
			if got := extest.Panic(func() { ClusterSizesAuto(ps, nil) }); got == nil || want == nil || got.(error).Error() != want.(error).Error() {
				t.Errorf("ClusterSizesAuto panics with %v, want %v", got, want)
			}
		})
	}
}

// TestClusterSizesAutoModel checks the model's verdicts with a GPU's
// constants, against one core (Parallel false: the verdict then does not
// depend on GOMAXPROCS): a hundred points stay on the host, ten million
// go to the device.
func TestClusterSizesAutoModel(t *testing.T) {
	c := soacgenCLClusterSizesAuto.Cost
	c.Parallel = false
	if launch.Worth(c, 100) {
		t.Errorf("100 points are worth the device")
	}
	if !launch.Worth(c, 10_000_000) {
		t.Errorf("1e7 points are not worth the device")
	}
}
