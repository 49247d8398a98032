package signal

// The parallel backend's functions against the specs: the same results
// bit for bit (maps compute each element as the spec does, and the count
// is an integer), the same under GOMAXPROCS 1, 2 and 8, on sizes that run
// the sequential path and sizes that split into chunks, whose maps run
// their vector forms chunk by chunk.

import (
	"math"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestSignalPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		for name, xs := range floatInputs(31, n, 0) {
			want := calibrateSpec(xs)
			got := extest.AcrossProcs(t, func() []float64 { return CalibratePar(xs) })
			if d := extest.DiffFloats(got, want); d != "" {
				t.Errorf("n=%d %s: CalibratePar: %s", n, name, d)
			}
		}
		for name, xs := range int32Inputs(32, n) {
			if want, got := energySpec(xs), extest.AcrossProcs(t, func() int32 { return EnergyPar(xs) }); got != want {
				t.Errorf("n=%d %s: EnergyPar = %d, want %d", n, name, got, want)
			}
			want := toUnitSpec(xs)
			got := extest.AcrossProcs(t, func() []float32 { return ToUnitPar(xs) })
			if d := diffFloat32s(got, want); d != "" {
				t.Errorf("n=%d %s: ToUnitPar: %s", n, name, d)
			}
			for _, offset := range []int32{0, -7, math.MinInt32} {
				want, got := integrateSpec(xs, offset), extest.AcrossProcs(t, func() []int32 { return IntegratePar(xs, offset) })
				if !slices.Equal(got, want) || len(got) != len(want) {
					t.Errorf("n=%d %s offset=%d: IntegratePar differs from the spec", n, name, offset)
				}
			}
			for _, lim := range []int32{0, 1 << 19, 1 << 30} {
				want, got := clippedSpec(xs, lim), extest.AcrossProcs(t, func() int { return ClippedPar(xs, lim) })
				if got != want {
					t.Errorf("n=%d %s lim=%d: ClippedPar = %d, want %d", n, name, lim, got, want)
				}
			}
		}
	}
}
