package normalize2

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestNormalize2Known(t *testing.T) {
	ys1, ys2 := normalize2Spec([]float64{1, -2, 3, 2})
	want1 := []float64{0.25, -0.5, 0.75, 0.5}
	want2 := []float64{1.0 / 6, -2.0 / 6, 3.0 / 6, 2.0 / 6}
	if d := extest.DiffFloats(ys1, want1); d != "" {
		t.Errorf("ys1: %s", d)
	}
	if d := extest.DiffFloats(ys2, want2); d != "" {
		t.Errorf("ys2: %s", d)
	}
}

func TestNormalize2(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(1, n), n, -1, 2)
		same := extest.Unchanged(xs)
		want1, want2 := normalize2Spec(xs)
		if want1 == nil || want2 == nil {
			t.Fatalf("n=%d: spec returned a nil slice", n)
		}
		for _, im := range impls[1:] {
			got1, got2 := im.fn(xs)
			if d := extest.DiffFloats(got1, want1); d != "" {
				t.Errorf("n=%d %s: ys1: %s", n, im.name, d)
			}
			if d := extest.DiffFloats(got2, want2); d != "" {
				t.Errorf("n=%d %s: ys2: %s", n, im.name, d)
			}
		}
		if !same() {
			t.Errorf("n=%d: an implementation wrote its input", n)
		}
	}
	// A nil input gives empty, non-nil outputs everywhere.
	for _, im := range impls {
		ys1, ys2 := im.fn(nil)
		if ys1 == nil || ys2 == nil || len(ys1)+len(ys2) != 0 {
			t.Errorf("%s(nil) = %#v, %#v, want two empty non-nil slices", im.name, ys1, ys2)
		}
	}
}
