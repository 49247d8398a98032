package variance

import (
	"math"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestMeanVarKnown(t *testing.T) {
	if m, v := meanVarSpec([]float64{1, 2, 3, 6}); m != 3 || v != 3.5 {
		t.Errorf("meanVarSpec = %v, %v, want 3, 3.5", m, v)
	}
	if m, v := meanVarSpec(nil); !math.IsNaN(m) || !math.IsNaN(v) {
		t.Errorf("meanVarSpec(nil) = %v, %v, want NaN, NaN", m, v)
	}
}

// TestMeanVar compares every implementation with the spec bit for bit.
func TestMeanVar(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(11, n), n, -1, 1)
		unchanged := extest.Unchanged(xs)
		wm, wv := meanVarSpec(xs)
		for _, im := range impls[1:] {
			if gm, gv := im.fn(xs); !extest.SameFloat(gm, wm) || !extest.SameFloat(gv, wv) {
				t.Errorf("n=%d %s = %v, %v, want %v, %v", n, im.name, gm, gv, wm, wv)
			}
			if !unchanged() {
				t.Fatalf("n=%d %s wrote its input", n, im.name)
			}
		}
	}
}

// TestMeanVarShort compares every implementation with the spec bit for
// bit on 5000 short inputs (1 to 8 elements): there the sum of squares is
// as large as the next square, so that the square's rounding decides the
// sum's, and a fused multiply-add (arm64, GOAMD64=v3) would change it in
// a large share of them.
func TestMeanVarShort(t *testing.T) {
	r := extest.Rand(12, 0)
	for trial := 0; trial < 5000; trial++ {
		xs := extest.Floats(r, 1+r.IntN(8), -1, 1)
		wm, wv := meanVarSpec(xs)
		for _, im := range impls[1:] {
			if gm, gv := im.fn(xs); !extest.SameFloat(gm, wm) || !extest.SameFloat(gv, wv) {
				t.Fatalf("%v %s = %v, %v, want %v, %v", xs, im.name, gm, gv, wm, wv)
			}
		}
	}
}

// TestMeanVarSpecial compares on special values: zeros of both signs,
// infinities, NaN, subnormals and values whose squares overflow.
func TestMeanVarSpecial(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -5e-324, 1e300, -1e300, 1e-160}
	for _, x := range special {
		for _, y := range special {
			xs := []float64{x, y, 0.5}
			wm, wv := meanVarSpec(xs)
			for _, im := range impls[1:] {
				if gm, gv := im.fn(xs); !extest.SameFloat(gm, wm) || !extest.SameFloat(gv, wv) {
					t.Errorf("%v %s = %v, %v, want %v, %v", xs, im.name, gm, gv, wm, wv)
				}
			}
		}
	}
}

// TestMeanVarAllocs checks that the fused function allocates nothing: no
// array of moments.
func TestMeanVarAllocs(t *testing.T) {
	xs := extest.Floats(extest.Rand(3, 1000), 1000, -1, 1)
	if a := testing.AllocsPerRun(10, func() { MeanVar(xs) }); a != 0 {
		t.Errorf("MeanVar allocates %v times per call, want 0", a)
	}
}
