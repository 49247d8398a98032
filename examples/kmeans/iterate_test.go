package kmeans

// Tests of kmeansSpec's generated forms (iterate.go): KMeans (cpu),
// KMeansPar (parallel) and KMeansCL (opencl, on the device) against the
// spec. On points with small integer coordinates every sum is exact, so
// every association gives the same bits and all forms must equal the
// spec exactly, over every round; on random float points the sums differ
// by rounding only (docs/contract.md: a StreamRed's operator reassociates).

import (
	"fmt"
	"math"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// gridPoints returns n points with integer coordinates in [-50, 50).
func gridPoints(seed uint64, n int) []Point {
	r := extest.Rand(seed, n)
	ps := make([]Point, n)
	for i := range ps {
		ps[i] = Point{float64(r.IntN(100) - 50), float64(r.IntN(100) - 50)}
	}
	return ps
}

// kmeansImpls are the generated forms; cl says which need the device.
var kmeansImpls = []struct {
	name string
	fn   func(ps, centres []Point, iters int) []Point
	cl   bool
}{
	{"KMeans", KMeans, false},
	{"KMeansPar", KMeansPar, false},
	{"KMeansCL", KMeansCL, true},
}

// clOK reports whether KMeansCL's kernels run on the device here,
// skipping (or failing, under SOACGEN_REQUIRE_OPENCL=1) otherwise.
func clOK(t *testing.T) {
	t.Helper()
	cltest.Require(t, soacgenCLKMeansCL)
	cltest.Require(t, soacgenCLKMeansCL2)
}

func TestKMeansKnown(t *testing.T) {
	ps := []Point{{0, 0}, {2, 0}, {10, 10}, {12, 10}, {0, 2}}
	cs := []Point{{1, 1}, {11, 11}, {100, 100}} // the third gets no points
	want := []Point{{2.0 / 3, 2.0 / 3}, {11, 10}, {100, 100}}
	if got := kmeansSpec(ps, cs, 3); extest.Same(got, want) != "" {
		t.Errorf("kmeansSpec = %v, want %v", got, want)
	}
	if got := kmeansSpec(ps, cs, 0); &got[0] != &cs[0] {
		t.Errorf("kmeansSpec with no rounds does not return its centres")
	}
}

// TestKMeansExact: integer coordinates, so every form gives the spec's
// bits, for k = 1, 16 and 100 and 0, 1 and 10 rounds, on sizes below
// and above the parallel grain and the device's chunking.
func TestKMeansExact(t *testing.T) {
	for _, im := range kmeansImpls {
		t.Run(im.name, func(t *testing.T) {
			if im.cl {
				clOK(t)
			}
			for _, k := range []int{1, 16, 100} {
				for _, n := range append(extest.ParSizes(testing.Short()), 33, 1<<16+7) {
					ps := gridPoints(7, n)
					cs := gridPoints(8, k)
					for _, iters := range []int{0, 1, 10} {
						same, sameCs := extest.Unchanged(ps), extest.Unchanged(cs)
						want := kmeansSpec(ps, cs, iters)
						got := extest.AcrossProcs(t, func() []Point { return im.fn(ps, cs, iters) })
						if d := extest.Same(got, want); d != "" {
							t.Errorf("k=%d n=%d iters=%d: %s", k, n, iters, d)
						}
						if !same() || !sameCs() {
							t.Errorf("k=%d n=%d iters=%d: wrote an input", k, n, iters)
						}
					}
				}
			}
		})
	}
}

// TestKMeansFloat: random float points, sums within rounding.
func TestKMeansFloat(t *testing.T) {
	for _, im := range kmeansImpls {
		t.Run(im.name, func(t *testing.T) {
			if im.cl {
				clOK(t)
			}
			for _, n := range []int{0, 1, 1000, 150_001} {
				ps := randPoints(9, n)
				cs := randPoints(10, 16)
				want := kmeansSpec(ps, cs, 4)
				got := extest.AcrossProcs(t, func() []Point { return im.fn(ps, cs, 4) })
				if d := extest.Near(got, want); d != "" {
					t.Errorf("n=%d: %s", n, d)
				}
			}
		})
	}
}

// TestKMeansSpecials: NaN, infinite and negative-zero coordinates. A NaN
// point is nearest to centre 0 (no distance is less than NaN) and makes
// its sums NaN; +Inf and -Inf in one centre's sums give NaN in every
// order.
func TestKMeansSpecials(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	ps := gridPoints(11, 5000)
	ps[3] = Point{inf, 0}
	ps[4000] = Point{0, -inf}
	ps[17] = Point{math.Copysign(0, -1), math.Copysign(0, -1)}
	ps2 := append([]Point(nil), ps...)
	ps2[2500] = Point{nan, 1}
	cs := gridPoints(12, 16)
	for _, im := range kmeansImpls {
		t.Run(im.name, func(t *testing.T) {
			if im.cl {
				clOK(t)
			}
			for _, in := range [][]Point{ps, ps2} {
				want := kmeansSpec(in, cs, 3)
				got := im.fn(in, cs, 3)
				if d := extest.Near(got, want); d != "" {
					t.Errorf("%s", d)
				}
			}
		})
	}
}

// TestKMeansPanics: points without centres raise the spec's panic (index
// out of range of the empty sums) in every form.
func TestKMeansPanics(t *testing.T) {
	ps := gridPoints(13, 100)
	want := extest.Panic(func() { kmeansSpec(ps, nil, 2) })
	if want == nil {
		t.Fatal("the spec does not panic")
	}
	for _, im := range kmeansImpls {
		if im.cl {
			clOK(t)
		}
		if got := extest.Panic(func() { im.fn(ps, nil, 2) }); got == nil || got.(error).Error() != want.(error).Error() {
			t.Errorf("%s panics with %v, want %v", im.name, got, want)
		}
	}
	if got := kmeansSpec(nil, nil, 2); len(got) != 0 {
		t.Errorf("kmeansSpec(nil, nil) = %v", got)
	}
}

// TestKMeansCLTransfers: KMeansCL uploads the points once per call, not
// once per round (the map of the means uploads its k centres in each
// round; the sums it reads are a captured slice, which Transfers does
// not count); with KeepOnDevice false, once per round. The
// session's buffers go back to the pool: later calls allocate none.
func TestKMeansCLTransfers(t *testing.T) {
	clOK(t)
	ps, cs := gridPoints(18, 100_001), gridPoints(19, 16)
	want := kmeansSpec(ps, cs, 10)
	for _, keep := range []bool{true, false} {
		launch.KeepOnDevice = keep
		var got []Point
		u0, _ := launch.Transfers()
		cltest.OnDevice(t, fmt.Sprintf("keep %v", keep), func() { got = KMeansCL(ps, cs, 10) })
		u1, _ := launch.Transfers()
		launch.KeepOnDevice = true
		if d := extest.Same(got, want); d != "" {
			t.Errorf("keep %v: %s", keep, d)
		}
		wantUp := int64(1 + 10)
		if !keep {
			wantUp = 10 + 10
		}
		if u1-u0 != wantUp {
			t.Errorf("keep %v: %d uploads, want %d", keep, u1-u0, wantUp)
		}
	}
	d, err := device.Default()
	if err != nil {
		t.Fatal(err)
	}
	before := d.BuffersAllocated()
	for range 3 {
		KMeansCL(ps, cs, 10)
	}
	if after := d.BuffersAllocated(); after != before {
		t.Errorf("three more calls allocated %d buffers, want 0 (pooled)", after-before)
	}
}
