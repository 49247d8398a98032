package dotprod

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestDotKnown(t *testing.T) {
	if got := dotSpec([]float64{1, 2, 3}, []float64{4, -5, 6}); got != 12 {
		t.Errorf("dotSpec = %v, want 12", got)
	}
}

func TestDot(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(7, n), n, -1, 1)
		ys := extest.Floats(extest.Rand(8, n), n, -1, 1)
		want := dotSpec(xs, ys)
		for _, im := range impls[1:] {
			if got := im.fn(xs, ys); !extest.SameFloat(got, want) {
				t.Errorf("n=%d %s = %v, want %v", n, im.name, got, want)
			}
		}
	}
}

func TestDotUnequalLengths(t *testing.T) {
	xs, ys := []float64{1, 2, 3}, []float64{1, 2}
	want := extest.Panic(func() { dotSpec(xs, ys) })
	if want != "soac.Map2: unequal lengths 3 and 2" {
		t.Fatalf("dotSpec panics with %v", want)
	}
	for _, im := range impls {
		if im.name == "lo" {
			continue // lo.ZipBy2 pads instead
		}
		if got := extest.Panic(func() { im.fn(xs, ys) }); got != want {
			t.Errorf("%s panics with %v, want %v", im.name, got, want)
		}
	}
}
