package signal

import (
	"os"
	"testing"

	"github.com/soacgen/soacgen/runtime/lanes"
)

// TestVectorForms checks that the kernels' vector forms run where this
// build and CPU have them (GOEXPERIMENT=simd on amd64): each runs the first
// n - n%lanes elements and leaves the rest to the scalar loop, so that the
// other tests, at the sizes around the lane counts, compare both parts with
// the spec. Without the experiment lanes.Width is Scalar and the stubs run
// no element.
func TestVectorForms(t *testing.T) {
	t.Logf("lanes.Width = %d, lanes.MayContract = %v", lanes.Width, lanes.MayContract)
	switch env := os.Getenv("SOACGEN_SIMD"); {
	case env == "off" && lanes.Width != lanes.Scalar, env == "avx2" && lanes.Width > lanes.AVX2:
		t.Fatalf("SOACGEN_SIMD=%s but lanes.Width = %d", env, lanes.Width)
	}
	const n = 33
	vectorised := func(bits int) int {
		if lanes.Width == lanes.Scalar {
			return 0
		}
		return n - n%(lanes.Width/bits)
	}
	f64, f64b, f64c := make([]float64, n), make([]float64, n), make([]float64, n)
	i32, i32b, f32 := make([]int32, n), make([]int32, n), make([]float32, n)
	calibrated := vectorised(64)
	if lanes.MayContract {
		calibrated = 0 // its products may contract: scalar only
	}
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"Calibrate", soacgenVec_calibrateSpec(n, f64, f64b), calibrated},
		{"Magnitude", soacgenVec_magnitudeSpec(n, f64, f64b, f64c), vectorised(64)},
		{"CosPhase", soacgenVec_cosPhaseSpec(n, f64, f64b, f64c), vectorised(64)},
		{"ToUnit", soacgenVec_toUnitSpec(n, i32, f32), vectorised(32)},
		{"Energy", first(soacgenVec_energySpec(n, i32, 0)), vectorised(32)},
		{"Clipped", first(soacgenVec_clippedSpec(n, i32, 0, 0)), vectorised(32)},
		{"Peak", first(soacgenVec_peakSpec(n, i32, 0)), vectorised(32)},
		{"Integrate", first(soacgenVec_integrateSpec(n, i32, i32b, 0, 0)), vectorised(32)},
		{"Envelope", first(soacgenVec_envelopeSpec(n, i32, i32b, 0)), vectorised(32)},
	} {
		if c.got != c.want {
			t.Errorf("%s: the vector form ran %d of %d elements, want %d", c.name, c.got, n, c.want)
		}
	}
}

func first(i int, _ int32) int { return i }
