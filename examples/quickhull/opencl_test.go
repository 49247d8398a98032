package quickhull

import (
	"math"
	"reflect"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
)

// TestFilterMaxCL compares the opencl variant, run on the device (one
// filter kernel: the points above compacted in order, the farthest point
// folded over every point from {D: -Inf}), with the spec: identical
// results, the cross products being computed as Go does (no contraction).
// Points on one side only, ties, and a line that no point is above test
// the fold of dropped elements and the start.
func TestFilterMaxCL(t *testing.T) {
	cltest.Require(t, soacgenCLFilterMaxCL)
	cltest.NoFallbacks(t)
	check := func(name string, ps []Point, a, b Point) {
		t.Helper()
		wantFar, wantAbove := filterMaxSpec(ps, a, b)
		far, above := FilterMaxCL(ps, a, b)
		if far != wantFar || !reflect.DeepEqual(above, wantAbove) {
			t.Errorf("%s n=%d: far %v and %d points above (nil=%v), want %v and %d (nil=%v)",
				name, len(ps), far, len(above), above == nil, wantFar, len(wantAbove), wantAbove == nil)
		}
		// The kept points are downloaded into an uncleared slice: nothing
		// past them may be reachable (cap is the kept count).
		if cap(above) != len(above) {
			t.Errorf("%s n=%d: %d points above with capacity %d: elements never written are reachable", name, len(ps), len(above), cap(above))
		}
	}
	a, b := Point{-1, -0.2}, Point{1, 0.3}
	for _, n := range extest.Sizes(testing.Short()) {
		ps := randPoints(n)
		check("random", ps, a, b)
		// Every point below: nothing kept, and the farthest is the
		// least negative, which only a fold of the dropped points finds.
		check("below", ps, Point{-1, 2}, Point{1, 2})
		// Every point above, on a line through none.
		check("above", ps, Point{1, -2}, Point{-1, -2})
	}
	// Ties: the first of the farthest points.
	ps := make([]Point, 5000)
	for i := range ps {
		ps[i] = Point{float64(i%7) / 7, float64(i % 3)}
	}
	check("ties", ps, Point{0, -1}, Point{-1, -1})
	// Infinite distances: a point with D = -Inf is the start's equal,
	// so the start (the zero Point) stays the farthest.
	check("infinite", []Point{{math.Inf(1), 0}, {math.Inf(1), 1}}, Point{0, 0}, Point{1, 0})
}
