package kmeans

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// TestClusterSizesCL compares the opencl variant, run on the device, with
// the spec: counts are integers, so every chunking gives the same ones.
// Sizes cover the empty input (the CPU code), one point, a partial
// chunk, several combine levels; k = 1, 8 and 100 centres; on the
// stream skeleton and on the bins skeleton.
func TestClusterSizesCL(t *testing.T) {
	cltest.Require(t, soacgenCLClusterSizesCL)
	cltest.NoFallbacks(t)
	for _, onCPU := range []bool{false, true} {
		// The stream skeleton on a CPU device, the bins skeleton on a
		// GPU and, with onCPU, on any device.
		t.Run(fmt.Sprintf("binsOnCPU=%v", onCPU), func(t *testing.T) {
			defer launch.SetBinsOnCPU(launch.SetBinsOnCPU(onCPU))
			runs := launch.BinsRuns()
			checkClusterSizesCL(t)
			if onCPU && launch.BinsRuns() == runs {
				t.Error("the bins skeleton ran no call")
			}
		})
	}
}

// checkClusterSizesCL is TestClusterSizesCL's comparison.
func checkClusterSizesCL(t *testing.T) {
	sizes := append(extest.Sizes(testing.Short()), 33, 1<<16+7, 300_001)
	for _, cs := range [][]Point{centres[:1], centres, randPoints(98, 100)} {
		for _, n := range sizes {
			ps := randPoints(5, n)
			same := extest.Unchanged(ps)
			want := clusterSizesSpec(ps, cs)
			if got := ClusterSizesCL(ps, cs); !reflect.DeepEqual(got, want) {
				t.Errorf("k=%d n=%d: ClusterSizesCL = %v, want %v", len(cs), n, got, want)
			}
			if !same() {
				t.Errorf("k=%d n=%d: ClusterSizesCL wrote its input", len(cs), n)
			}
		}
	}
	if got := ClusterSizesCL(nil, nil); got == nil || len(got) != 0 {
		t.Errorf("ClusterSizesCL(nil, nil) = %#v, want []int{}", got)
	}
}

// TestClusterSizesCLPanics checks that points without centres raise the
// spec's panic (index out of range of the empty counts).
func TestClusterSizesCLPanics(t *testing.T) {
	cltest.Require(t, soacgenCLClusterSizesCL)
	ps := randPoints(6, 100)
	want := extest.Panic(func() { clusterSizesSpec(ps, nil) })
	if want == nil {
		t.Fatal("the spec does not panic")
	}
	if got := extest.Panic(func() { ClusterSizesCL(ps, nil) }); got == nil || got.(error).Error() != want.(error).Error() {
		t.Errorf("ClusterSizesCL panics with %v, want %v", got, want)
	}
}
