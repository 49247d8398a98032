package parscan

// These tests run in the differential test's module (which copies
// every .go file of the case): each kernel the parallel backend
// runs through parallel.Carried, or whose start is not neutral, equals
// its spec (integers and integer-valued floats bit for bit, other floats
// within rounding) on sizes that run the sequential loop and sizes that
// split into chunks, gives the same bits under GOMAXPROCS 1, 2 and 8,
// panics as the spec does (the lowest index) and leaves no goroutine.
// A carry applied wrongly (dropped, applied twice, a start combined once
// per chunk) changes every element after the first chunk, which the
// comparisons with the spec catch on the split sizes.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/soacgen/soacgen/rewrite/difftest"
)

var procs = []int{1, 2, 8}

// sizes: empty, small (sequential), and above every grain here (several
// chunks, odd lengths).
var sizes = []int{0, 1, 7, 1000, 400_001, 1_000_003}

// across calls f under each of procs and fails unless the results are
// the same (same).
func across(t *testing.T, name string, n int, f func() any) any {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var r any
	for i, p := range procs {
		runtime.GOMAXPROCS(p)
		got := f()
		if i == 0 {
			r = got
		} else if !same(got, r) {
			t.Errorf("%s n=%d: GOMAXPROCS=%d differs from GOMAXPROCS=%d", name, n, p, procs[0])
		}
	}
	return r
}

// same reports whether a and b are the same values: floats bit for bit
// (NaNs equal), nil and empty slices apart (difftest.Same; comparing
// their %v, as before, took most of these tests' time).
func same(a, b any) bool { return difftest.Same(reflect.ValueOf(a), reflect.ValueOf(b)) }

func ints(r *rand.Rand, n int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.IntN(2001) - 1000
		if xs[i]%97 == 13 {
			xs[i]++ // check accepts every element
		}
	}
	return xs
}

// wholeFloats are integer-valued floats: their sums are exact in any
// order, so the parallel results equal the spec's bit for bit.
func wholeFloats(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(r.IntN(2001) - 1000)
	}
	return xs
}

// realFloats are floats of mixed magnitudes, so that re-association
// changes the rounding.
func realFloats(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = (r.Float64() - 0.3) * math.Pow(10, float64(r.IntN(6)-3))
	}
	return xs
}

// near fails unless got and want are equal within rounding relative to
// scale[i] (the sum of the magnitudes that element folds).
func near(t *testing.T, name string, n int, got, want, scale []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s n=%d: length %d, want %d", name, n, len(got), len(want))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-9*(scale[i]+1) {
			t.Fatalf("%s n=%d: element %d is %v, want %v", name, n, i, got[i], want[i])
		}
	}
}

// absScan is the running sum of |x|.
func absScan(xs []float64, start float64) []float64 {
	s, acc := make([]float64, len(xs)), math.Abs(start)
	for i, x := range xs {
		acc += math.Abs(x)
		s[i] = acc
	}
	return s
}

func TestExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		xs, fs := ints(r, n), wholeFloats(r, n)
		x32 := make([]int32, n)
		u32 := make([]uint32, n)
		for i, x := range xs {
			x32[i], u32[i] = int32(x), uint32(x)*2654435761
		}
		start := r.IntN(1000) - 500
		cases := []struct {
			name       string
			fused, spc func() any
		}{
			{"ScanMap", func() any { return ScanMap(fs) }, func() any { return parScanMapSpec(fs) }},
			{"ScanMapInt", func() any { a, b := ScanMapInt(xs, start); return []any{a, b} }, func() any { a, b := scanMapIntSpec(xs, start); return []any{a, b} }},
			{"ScanReduce", func() any { return ScanReduce(xs) }, func() any { return parScanReduceSpec(xs) }},
			{"ScanOut", func() any { a, b := ScanOut(fs); return []any{a, b} }, func() any { a, b := parScanOutSpec(fs); return []any{a, b} }},
			{"TwoScans", func() any { a, b := TwoScans(x32); return []any{a, b} }, func() any { a, b := twoScansSpec(x32); return []any{a, b} }},
			{"FilterScan", func() any { return FilterScan(fs) }, func() any { return parFilterScanSpec(fs) }},
			{"FilterScanMapReduce", func() any { a, b, c := FilterScanMapReduce(xs); return []any{a, b, c} }, func() any { a, b, c := parFilterScanMapReduceSpec(xs); return []any{a, b, c} }},
			{"TwoFilters", func() any { a, b := TwoFilters(xs); return []any{a, b} }, func() any { a, b := twoFiltersSpec(xs); return []any{a, b} }},
			{"StartTen", func() any { return StartTen(xs) }, func() any { return parStartTenSpec(xs) }},
			{"Product", func() any { return Product(xs) }, func() any { return productSpec(xs) }},
			{"Xor", func() any { return Xor(u32, 77) }, func() any { return xorSpec(u32, 77) }},
			{"FloatStart", func() any { return FloatStart(fs, 0.5) }, func() any { return floatStartSpec(fs, 0.5) }},
			{"StartGiven", func() any { return StartGiven(xs, start) }, func() any { return parStartGivenSpec(xs, start) }},
			{"FloatScanStart", func() any { return FloatScanStart(fs, 2.5) }, func() any { return floatScanStartSpec(fs, 2.5) }},
			{"FilterSumStart", func() any { a, b := FilterSumStart(xs); return []any{a, b} }, func() any { a, b := filterSumStartSpec(xs); return []any{a, b} }},
			{"CheckedScanMap", func() any { return CheckedScanMap(xs) }, func() any { return checkedScanMapSpec(xs) }},
			{"ScanMapChecked", func() any { return ScanMapChecked(xs) }, func() any { return scanMapCheckedSpec(xs) }},
			{"ScanBesideSelect", func() any { a, b := ScanBesideSelect(xs); return []any{a, b} }, func() any { a, b := scanBesideSelectSpec(xs); return []any{a, b} }},
			{"TwoSelects", func() any { a, b := TwoSelects(xs); return []any{a, b} }, func() any { a, b := twoSelectsSpec(xs); return []any{a, b} }},
			{"ScanOfScan", func() any { return ScanOfScan(xs) }, func() any { return scanOfScanSpec(xs) }},
			{"FilterOfScan", func() any { a, b := FilterOfScan(xs); return []any{a, b} }, func() any { a, b := filterOfScanSpec(xs); return []any{a, b} }},
			{"FloatScanOfScan", func() any { a, b, c, d, e := FloatScanOfScan(fs); return []any{a, b, c, d, e} }, func() any { a, b, c, d, e := floatScanOfScanSpec(fs); return []any{a, b, c, d, e} }},
			{"FilterScanChecked", func() any { a, b := FilterScanChecked(xs); return []any{a, b} }, func() any { a, b := filterScanCheckedSpec(xs); return []any{a, b} }},
			{"SqrtScanMap", func() any { return SqrtScanMap(fs) }, func() any { return sqrtScanMapSpec(fs) }},
			{"ScanZipMapped", func() any { return ScanZipMapped(fs) }, func() any { return scanZipMappedSpec(fs) }},
			{"MapOutScan", func() any { a, b := MapOutScan(xs); return []any{a, b} }, func() any { a, b := mapOutScanSpec(xs); return []any{a, b} }},
			{"ExpScanMax", func() any { return ExpScanMax(fs) }, func() any { return expScanMaxSpec(fs) }},
			{"ScratchChecked", func() any { return ScratchChecked(xs) }, func() any { return scratchCheckedSpec(xs) }},
			{"ScratchScanChecked", func() any { return ScratchScanChecked(xs) }, func() any { return scratchScanCheckedSpec(xs) }},
			{"GatherScanFilter", func() any { return GatherScanFilter(xs) }, func() any { return gatherScanFilterSpec(xs) }},
			{"ScanRead", func() any { return ScanRead(xs) }, func() any { return scanReadSpec(xs) }},
		}
		for _, c := range cases {
			got := across(t, c.name, n, c.fused)
			if !same(got, c.spc()) {
				t.Errorf("%s n=%d: differs from the spec", c.name, n)
			}
		}
	}
}

// TestRounding: float scans and sums of real numbers, within rounding of
// the spec and the same bits for any GOMAXPROCS.
func TestRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range sizes {
		xs := realFloats(r, n)
		scale := absScan(xs, 0)
		got := across(t, "ScanMap", n, func() any { return ScanMap(xs) }).([]float64)
		want := parScanMapSpec(xs)
		near(t, "ScanMap", n, got, want, scale)

		out := across(t, "ScanOut", n, func() any { a, b := ScanOut(xs); return []any{a, b} }).([]any)
		ps, s := out[0].([]float64), out[1].(float64)
		wps, ws := parScanOutSpec(xs)
		near(t, "ScanOut", n, ps, wps, scale)
		var total float64
		for _, v := range scale {
			total += v
		}
		near(t, "ScanOut's sum", n, []float64{s}, []float64{ws}, []float64{total})

		got = across(t, "FloatScanStart", n, func() any { return FloatScanStart(xs, 1.25) }).([]float64)
		near(t, "FloatScanStart", n, got, floatScanStartSpec(xs, 1.25), absScan(xs, 1.25))

		got = across(t, "FilterScan", n, func() any { return FilterScan(xs) }).([]float64)
		var pos []float64
		for _, x := range xs {
			if x > 0 {
				pos = append(pos, x)
			}
		}
		near(t, "FilterScan", n, got, parFilterScanSpec(xs), absScan(pos, 0.5))

		out = across(t, "FloatScanOfScan", n, func() any { a, b, c, d, e := FloatScanOfScan(xs); return []any{a, b, c, d, e} }).([]any)
		_, wsa, wb, wsb, wc := floatScanOfScanSpec(xs)
		near(t, "FloatScanOfScan sa", n, out[1].([]float64), wsa, scale)
		near(t, "FloatScanOfScan b", n, out[2].([]float64), wb, scale)
		sbScale := absScan(wb, 0)
		near(t, "FloatScanOfScan sb", n, out[3].([]float64), wsb, sbScale)
		near(t, "FloatScanOfScan c", n, out[4].([]float64), wc, sbScale)

		sum := across(t, "FloatStart", n, func() any { return FloatStart(xs, 3.5) }).(float64)
		near(t, "FloatStart", n, []float64{sum}, []float64{floatStartSpec(xs, 3.5)}, []float64{absScan(append(xs, 3.5), 0)[n]})
	}
}

// TestSpecialFloats: -0, NaN and ±Inf where chunks meet. A float sum's
// chunks after the first start from -0: a sum of -0s from -0 stays -0
// (a chunk from +0 would make it +0).
func TestSpecialFloats(t *testing.T) {
	const n = 400_001
	negZero := math.Copysign(0, -1)
	zs := make([]float64, n)
	for i := range zs {
		zs[i] = negZero
	}
	for _, start := range []float64{negZero, 0} {
		got := across(t, "FloatStart", n, func() any { return FloatStart(zs, start) }).(float64)
		if want := floatStartSpec(zs, start); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("FloatStart of -0s from %v: %v, want %v", start, got, want)
		}
		gs := across(t, "FloatScanStart", n, func() any { return FloatScanStart(zs, start) }).([]float64)
		if want := floatScanStartSpec(zs, start); !slices.EqualFunc(gs, want, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
			t.Errorf("FloatScanStart of -0s from %v differs from the spec", start)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		xs := wholeFloats(rand.New(rand.NewPCG(5, 6)), n)
		xs[n/2] = v
		for name, f := range map[string][2]func() any{
			"ScanMap":    {func() any { return ScanMap(xs) }, func() any { return parScanMapSpec(xs) }},
			"ScanOut":    {func() any { a, b := ScanOut(xs); return []any{a, b} }, func() any { a, b := parScanOutSpec(xs); return []any{a, b} }},
			"FilterScan": {func() any { return FilterScan(xs) }, func() any { return parFilterScanSpec(xs) }},
			"FloatStart": {func() any { return FloatStart(xs, 1) }, func() any { return floatStartSpec(xs, 1) }},
		} {
			if !same(across(t, name, n, f[0]), f[1]()) {
				t.Errorf("%s with %v at n/2: differs from the spec", name, v)
			}
		}
	}
}

// good returns n elements that check accepts, with bad ones at the
// given indices (each naming its index).
func good(n int, bad ...int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = i * 97
	}
	for _, b := range bad {
		xs[b] = b*97 + 13
	}
	return xs
}

func panicOf(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

func TestPanicLowestIndex(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const n = 400_001
	for _, p := range procs {
		runtime.GOMAXPROCS(p)
		for _, bad := range [][]int{{n - 1}, {399_000, 7}, {250_000, 120_000, 120_001}, {0, n - 1}, {200_001, 3_000}} {
			xs := good(n, bad...)
			for name, f := range map[string][2]func(){
				"CheckedScanMap":    {func() { CheckedScanMap(xs) }, func() { checkedScanMapSpec(xs) }},
				"ScanMapChecked":    {func() { ScanMapChecked(xs) }, func() { scanMapCheckedSpec(xs) }},
				"FilterScanChecked": {func() { FilterScanChecked(xs) }, func() { filterScanCheckedSpec(xs) }},
				"ScanCheckedScan":   {func() { ScanCheckedScan(xs) }, func() { scanCheckedScanSpec(xs) }},
				// CarriedLocal with a scratch array, the panic in
				// pass 1 and in pass 2.
				"ScratchChecked":     {func() { ScratchChecked(xs) }, func() { scratchCheckedSpec(xs) }},
				"ScratchScanChecked": {func() { ScratchScanChecked(xs) }, func() { scratchScanCheckedSpec(xs) }},
			} {
				want := panicOf(f[1])
				low := slices.Min(bad)
				wantMsg := fmt.Sprint("bad element ", low*97+13)
				if name == "ScanCheckedScan" {
					// The running total at the first bad element.
					wantMsg = fmt.Sprint("bad element ", low*(low+1)/2*97+13)
				}
				if want != wantMsg {
					t.Fatalf("%s: the spec panics with %v", name, want)
				}
				if got := panicOf(f[0]); got != want {
					t.Errorf("GOMAXPROCS=%d bad=%v: %s panics with %v, want %v", p, bad, name, got, want)
				}
			}
		}
	}
}

// TestPanicRerun: TwoPanics's zip panics at a lower index than its first
// map, whose panic the spec raises first (the map runs over every
// element before the zip runs at all).
func TestPanicRerun(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const n = 400_001
	for _, p := range procs {
		runtime.GOMAXPROCS(p)
		for _, at := range [][2]int{{300_000, 5}, {n - 1, 200_000}, {150_000, 149_999}} {
			xs := good(n, at[0])
			xs[at[1]] = at[1]*97 + 12 // check(x+1) panics on it
			want := fmt.Sprint("bad element ", at[0]*97+13)
			if got := panicOf(func() { twoPanicsSpec(xs) }); got != want {
				t.Fatalf("the spec panics with %v, want %v", got, want)
			}
			if got := panicOf(func() { TwoPanics(xs) }); got != want {
				t.Errorf("GOMAXPROCS=%d bad at %v: TwoPanics panics with %v, want %v", p, at, got, want)
			}
		}
	}
}

func TestPanicLeavesNoGoroutine(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	xs := good(400_001, 300_000)
	ScanMap(make([]float64, 400_001)) // grows the worker pool
	before := runtime.NumGoroutine()
	for range 20 {
		panicOf(func() { CheckedScanMap(xs) })
		panicOf(func() { ScanMapChecked(xs) })
		panicOf(func() { FilterScanChecked(xs) })
		panicOf(func() { ScanCheckedScan(xs) })
		panicOf(func() { ScratchChecked(xs) })
		panicOf(func() { ScratchScanChecked(xs) })
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines after the panics, %d before", after, before)
	}
}
