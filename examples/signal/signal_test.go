package signal

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// sizes are the input sizes of the tests: those of every example, and
// every length around the vector forms' lane counts (4 and 8 float64, 8
// and 16 int32 and float32), where a wrong remainder would show.
func sizes(short bool) []int {
	ns := []int{0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 1000}
	if !short {
		ns = append(ns, 1_000_000)
	}
	return ns
}

// specialFloats are the floats whose handling differs most easily between
// a vector instruction and Go: NaNs (of either sign, with a payload),
// signed zeros, infinities, subnormals, values whose squares underflow or
// overflow, and zeros of Calibrate's factors.
var specialFloats = []float64{
	math.NaN(),
	math.Float64frombits(0xfff8_0000_0000_0000), // -NaN
	math.Float64frombits(0x7ff8_0000_0000_0123), // NaN with a payload
	0, math.Copysign(0, -1),
	math.Inf(1), math.Inf(-1),
	5e-324, -5e-324, // the smallest subnormals
	math.Float64frombits(0x000f_ffff_ffff_ffff), // the largest subnormal
	0x1p-1022, -1e-200, 1e200, -math.MaxFloat64,
	0.25, -4.0 / 3,
}

// specialInt32s are the int32 extremes and the values around them.
var specialInt32s = []int32{
	math.MinInt32, math.MinInt32 + 1, math.MaxInt32, math.MaxInt32 - 1,
	0, 1, -1, 46341, -46341, // 46341² > MaxInt32
}

// floatInputs returns the float inputs of length n that the tests use:
// drawn from [-4, 4); the same with every fourth element, on average,
// replaced by a special float; and the special floats in turn, shifted by
// shift so that the two inputs of a Map2 pair different ones.
func floatInputs(seed uint64, n, shift int) map[string][]float64 {
	r := extest.Rand(seed, n)
	drawn := extest.Floats(r, n, -4, 4)
	mixed := slices.Clone(drawn)
	for i := range mixed {
		if r.IntN(4) == 0 {
			mixed[i] = specialFloats[r.IntN(len(specialFloats))]
		}
	}
	cycled := make([]float64, n)
	for i := range cycled {
		cycled[i] = specialFloats[(i*(shift+1)+shift)%len(specialFloats)]
	}
	return map[string][]float64{"drawn": drawn, "mixed": mixed, "specials": cycled}
}

// int32Inputs returns the int32 inputs of length n that the tests use:
// drawn from the whole range; drawn from ±2^20 (where squares do not wrap
// and few samples clip); each with every fourth element, on average,
// replaced by an extreme; and the extremes in turn.
func int32Inputs(seed uint64, n int) map[string][]int32 {
	r := extest.Rand(seed, n)
	whole, small := make([]int32, n), make([]int32, n)
	for i := range whole {
		whole[i] = int32(r.Uint32())
		small[i] = r.Int32N(1<<21) - 1<<20
	}
	mix := func(xs []int32) []int32 {
		xs = slices.Clone(xs)
		for i := range xs {
			if r.IntN(4) == 0 {
				xs[i] = specialInt32s[r.IntN(len(specialInt32s))]
			}
		}
		return xs
	}
	cycled := make([]int32, n)
	for i := range cycled {
		cycled[i] = specialInt32s[i%len(specialInt32s)]
	}
	return map[string][]int32{"whole": whole, "small": small, "whole-mixed": mix(whole),
		"small-mixed": mix(small), "extremes": cycled}
}

// unchangedFloats returns a check that xs still holds the bits it holds
// now (extest.Unchanged compares with ==, which a NaN fails).
func unchangedFloats(xs []float64) func() string {
	saved := slices.Clone(xs)
	return func() string { return extest.DiffFloats(xs, saved) }
}

// diffFloat32s is extest.DiffFloats for float32.
func diffFloat32s(got, want []float32) string {
	g, w := make([]float64, len(got)), make([]float64, len(want))
	for i, x := range got {
		g[i] = math.Float64frombits(uint64(math.Float32bits(x)))
	}
	for i, x := range want {
		w[i] = math.Float64frombits(uint64(math.Float32bits(x)))
	}
	if (got == nil) != (want == nil) {
		g, w = nil, []float64{}
		if got != nil {
			g, w = w, g
		}
	}
	return extest.DiffFloats(g, w)
}

func TestKnown(t *testing.T) {
	if got, want := calibrateSpec([]float64{0, 1, 0.25}), []float64{-0.5, 2.5, -0.03125}; !slices.Equal(got, want) {
		t.Errorf("calibrateSpec = %v, want %v", got, want)
	}
	if got, want := magnitudeSpec([]float64{3, 0, -5}, []float64{4, -2, 12}), []float64{5, 2, 13}; !slices.Equal(got, want) {
		t.Errorf("magnitudeSpec = %v, want %v", got, want)
	}
	if got, want := cosPhaseSpec([]float64{3, 0, -5}, []float64{4, -2, 0}), []float64{0.6, 0, -1}; !slices.Equal(got, want) {
		t.Errorf("cosPhaseSpec = %v, want %v", got, want)
	}
	if got, want := toUnitSpec([]int32{math.MaxInt32, math.MinInt32, 0, 1 << 30}), []float32{1, -1, 0, 0.5}; !slices.Equal(got, want) {
		t.Errorf("toUnitSpec = %v, want %v", got, want)
	}
	if got := energySpec([]int32{3, -4}); got != 25 {
		t.Errorf("energySpec = %d, want 25", got)
	}
	if got := energySpec([]int32{46341}); got != 46341*46341-1<<32 {
		t.Errorf("energySpec wraps to %d, want %d", got, 46341*46341-1<<32)
	}
	if got := clippedSpec([]int32{5, -5, 6, -6, 0, math.MinInt32}, 5); got != 3 {
		t.Errorf("clippedSpec = %d, want 3", got)
	}
	if got := peakSpec([]int32{-3, 7, 2}); got != 7 {
		t.Errorf("peakSpec = %d, want 7", got)
	}
	if got := peakSpec(nil); got != math.MinInt32 {
		t.Errorf("peakSpec(nil) = %d, want MinInt32", got)
	}
}

func TestCalibrate(t *testing.T) {
	for _, n := range sizes(testing.Short()) {
		for kind, xs := range floatInputs(1, n, 0) {
			same := unchangedFloats(xs)
			want := calibrateSpec(xs)
			for _, im := range calibrateImpls[1:] {
				if d := extest.DiffFloats(im.fn(xs), want); d != "" {
					t.Errorf("n=%d %s %s: %s", n, kind, im.name, d)
				}
				if d := same(); d != "" {
					t.Fatalf("n=%d %s %s wrote its input: %s", n, kind, im.name, d)
				}
			}
		}
	}
}

// testMap2 compares the implementations of a Map2 spec with the spec on
// every pair of inputs, and checks that they panic as the spec does on
// unequal lengths.
func testMap2(t *testing.T, impls []impl[func(re, im []float64) []float64]) {
	for _, n := range sizes(testing.Short()) {
		res, ims := floatInputs(2, n, 0), floatInputs(3, n, 5)
		for kre, re := range res {
			for kim, im := range ims {
				sameRe, sameIm := unchangedFloats(re), unchangedFloats(im)
				want := impls[0].fn(re, im)
				for _, f := range impls[1:] {
					if d := extest.DiffFloats(f.fn(re, im), want); d != "" {
						t.Errorf("n=%d re %s im %s %s: %s", n, kre, kim, f.name, d)
					}
					if d := sameRe() + sameIm(); d != "" {
						t.Fatalf("n=%d re %s im %s %s wrote its input: %s", n, kre, kim, f.name, d)
					}
				}
			}
		}
	}
	re, im := make([]float64, 17), make([]float64, 16)
	want := extest.Panic(func() { impls[0].fn(re, im) })
	if want != "soac.Map2: unequal lengths 17 and 16" {
		t.Fatalf("the spec panics with %v", want)
	}
	for _, f := range impls[1:] {
		if f.name == "lo" {
			continue // lo.ZipBy2 pads instead
		}
		if got := extest.Panic(func() { f.fn(re, im) }); got != want {
			t.Errorf("%s panics with %v, want %v", f.name, got, want)
		}
	}
}

func TestMagnitude(t *testing.T) { testMap2(t, magnitudeImpls) }

func TestCosPhase(t *testing.T) { testMap2(t, cosPhaseImpls) }

func TestToUnit(t *testing.T) {
	for _, n := range sizes(testing.Short()) {
		for kind, xs := range int32Inputs(4, n) {
			same := extest.Unchanged(xs)
			want := toUnitSpec(xs)
			for _, im := range toUnitImpls[1:] {
				if d := diffFloat32s(im.fn(xs), want); d != "" {
					t.Errorf("n=%d %s %s: %s", n, kind, im.name, d)
				}
				if !same() {
					t.Fatalf("n=%d %s %s wrote its input", n, kind, im.name)
				}
			}
		}
	}
}

// testFold compares the implementations of an int32 fold with the spec.
func testFold(t *testing.T, seed uint64, impls []impl[func([]int32) int32]) {
	for _, n := range sizes(testing.Short()) {
		for kind, xs := range int32Inputs(seed, n) {
			same := extest.Unchanged(xs)
			want := impls[0].fn(xs)
			for _, im := range impls[1:] {
				if got := im.fn(xs); got != want {
					t.Errorf("n=%d %s %s = %d, want %d", n, kind, im.name, got, want)
				}
				if !same() {
					t.Fatalf("n=%d %s %s wrote its input", n, kind, im.name)
				}
			}
		}
	}
}

func TestEnergy(t *testing.T) { testFold(t, 5, energyImpls) }

// TestSpikes compares the kept samples, and their nil- or empty-ness, at
// limits that keep some, none and all.
func TestSpikes(t *testing.T) {
	lims := []int32{0, 1, -1, 1000, 1 << 20, math.MaxInt32, math.MinInt32}
	for _, n := range sizes(testing.Short()) {
		for kind, xs := range int32Inputs(8, n) {
			same := extest.Unchanged(xs)
			for _, lim := range lims {
				want := spikesSpec(xs, lim)
				for _, im := range spikesImpls[1:3] {
					got := im.fn(xs, lim)
					if !slices.Equal(got, want) || (got == nil) != (want == nil) {
						t.Errorf("n=%d %s lim=%d %s: %d elements (nil %v), want %d (nil %v)", n, kind, lim, im.name, len(got), got == nil, len(want), want == nil)
					}
				}
			}
			if !same() {
				t.Fatalf("n=%d %s: an implementation wrote its input", n, kind)
			}
		}
	}
}

func TestPeak(t *testing.T) { testFold(t, 6, peakImpls) }

// TestClipped compares at limits that clip some, none and all samples,
// and at MinInt32, whose negation wraps.
func TestClipped(t *testing.T) {
	lims := []int32{0, 1, -1, 1000, 1 << 20, math.MaxInt32, math.MinInt32, math.MinInt32 + 1}
	for _, n := range sizes(testing.Short()) {
		r := rand.New(rand.NewPCG(7, uint64(n)))
		for kind, xs := range int32Inputs(7, n) {
			same := extest.Unchanged(xs)
			for _, lim := range append(lims, int32(r.Uint32())) {
				want := clippedSpec(xs, lim)
				for _, im := range clippedImpls[1:] {
					if got := im.fn(xs, lim); got != want {
						t.Errorf("n=%d %s lim=%d %s = %d, want %d", n, kind, lim, im.name, got, want)
					}
				}
			}
			if !same() {
				t.Fatalf("n=%d %s: an implementation wrote its input", n, kind)
			}
		}
	}
}

// testScan compares the implementations of an int32 scan with the spec,
// element for element.
func testScan(t *testing.T, name string, got func(xs []int32) []int32, want func(xs []int32) []int32, seed uint64) {
	t.Helper()
	for _, n := range sizes(testing.Short()) {
		for kind, xs := range int32Inputs(seed, n) {
			same := extest.Unchanged(xs)
			w, g := want(xs), got(xs)
			if !slices.Equal(g, w) || len(g) != len(w) {
				i := 0
				for i < min(len(g), len(w)) && g[i] == w[i] {
					i++
				}
				t.Errorf("n=%d %s %s: differs from element %d of %d (len %d)", n, kind, name, i, len(w), len(g))
			}
			if !same() {
				t.Fatalf("n=%d %s %s wrote its input", n, kind, name)
			}
		}
	}
}

// TestIntegrate compares at offsets of both signs and the extremes, where
// the sums wrap.
func TestIntegrate(t *testing.T) {
	for _, offset := range []int32{0, 3, -1000, math.MaxInt32, math.MinInt32} {
		for _, im := range integrateImpls[1:] {
			testScan(t, im.name, func(xs []int32) []int32 { return im.fn(xs, offset) },
				func(xs []int32) []int32 { return integrateSpec(xs, offset) }, 9)
		}
	}
}

func TestEnvelope(t *testing.T) {
	for _, im := range envelopeImpls[1:] {
		testScan(t, im.name, im.fn, envelopeSpec, 10)
	}
}
