package quickhull

import (
	"reflect"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestFilterMaxKnown(t *testing.T) {
	a, b := Point{0, 0}, Point{4, 0}
	ps := []Point{{1, 1}, {2, -3}, {3, 2}, {1, 2}, {0, 0}}
	far, above := filterMaxSpec(ps, a, b)
	if want := (Point{3, 2}); far != want { // first of the two at height 2
		t.Errorf("far = %v, want %v", far, want)
	}
	if want := []Point{{1, 1}, {3, 2}, {1, 2}}; !reflect.DeepEqual(above, want) {
		t.Errorf("above = %v, want %v", above, want)
	}
}

func randPoints(n int) []Point {
	r := extest.Rand(2, n)
	ps := make([]Point, n)
	for i := range ps {
		ps[i] = Point{r.Float64()*2 - 1, r.Float64()*2 - 1}
	}
	return ps
}

func TestFilterMax(t *testing.T) {
	a, b := Point{-1, -0.2}, Point{1, 0.3}
	for _, n := range extest.Sizes(testing.Short()) {
		ps := randPoints(n)
		same := extest.Unchanged(ps)
		wantFar, wantAbove := filterMaxSpec(ps, a, b)
		if n >= 7 && len(wantAbove) == 0 {
			t.Fatalf("n=%d: no point above the line; the input does not test the filter", n)
		}
		for _, im := range impls[1:] {
			far, above := im.fn(ps, a, b)
			if far != wantFar {
				t.Errorf("n=%d %s: far = %v, want %v", n, im.name, far, wantFar)
			}
			if !reflect.DeepEqual(above, wantAbove) {
				t.Errorf("n=%d %s: %d points above (nil=%v), want %d (nil=%v)",
					n, im.name, len(above), above == nil, len(wantAbove), wantAbove == nil)
			}
		}
		if !same() {
			t.Errorf("n=%d: an implementation wrote its input", n)
		}
	}
}
