package parstreams

// These tests run in the differential test's module (which copies
// every .go file of the case): the parallel backend's fused
// streams give the spec's results, the same bits under GOMAXPROCS 1, 2
// and 8, combine their chunks in order, raise the spec's panic of the
// lowest index, and leave no goroutine running.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
)

// sizes run the sequential path (below the grains) and split into chunks.
var sizes = []int{0, 1, 7, 1000, 100_000, 1_000_003}

func ints(n int) []int {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.IntN(2001) - 1000
	}
	return xs
}

func floats(n int) []float64 {
	r := rand.New(rand.NewPCG(uint64(n), 8))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = r.NormFloat64() * 1e3
	}
	return xs
}

// acrossProcs returns f's result under GOMAXPROCS 1, failing t unless
// GOMAXPROCS 2 and 8 give the same bits.
func acrossProcs[T comparable](t *testing.T, name string, f func() T) T {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first T
	for i, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		got := f()
		if i == 0 {
			first = got
		} else if got != first {
			t.Errorf("%s: GOMAXPROCS=%d gives %v, GOMAXPROCS=1 %v", name, procs, got, first)
		}
	}
	return first
}

func TestHashAcrossProcs(t *testing.T) {
	for _, n := range sizes {
		xs := ints(n)
		want := hashSpec(xs)
		for name, f := range map[string]func([]int) uint64{"Hash": Hash, "HashTwice": HashTwice} {
			if got := acrossProcs(t, name, func() uint64 { return f(xs) }); got != want {
				t.Errorf("n=%d: %s = %#x, want %#x", n, name, got, want)
			}
		}
		want = namedHashSpec(xs, 5)
		if got := acrossProcs(t, "NamedHash", func() uint64 { return NamedHash(xs, 5) }); got != want {
			t.Errorf("n=%d: NamedHash = %#x, want %#x", n, got, want)
		}
	}
}

// TestHashSeesOrder is the negative check behind TestHashAcrossProcs:
// the hash of the chunks combined in another order differs, so a
// parallel StreamRed that combined its chunks out of order would fail it.
func TestHashSeesOrder(t *testing.T) {
	xs := ints(100_000)
	a, b := hashSpec(xs[:50_000]), hashSpec(xs[50_000:])
	swapped := hashSpec(append(slices.Clone(xs[50_000:]), xs[:50_000]...))
	if want := hashSpec(xs); swapped == want || a == b {
		t.Fatalf("the hash does not depend on the order of its chunks")
	}
}

func TestSumSqAcrossProcs(t *testing.T) {
	for _, n := range sizes {
		xs := floats(n)
		if n > 0 {
			xs[n/2] = math.Copysign(0, -1)
		}
		want := sumSqSpec(xs)
		got := acrossProcs(t, "SumSq", func() float64 { return SumSq(xs) })
		if math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("n=%d: SumSq = %v, want %v within rounding", n, got, want)
		}
	}
	for _, special := range []float64{math.NaN(), math.Inf(1)} {
		xs := floats(300_000)
		xs[123_456] = special
		if got, want := SumSq(xs), sumSqSpec(xs); math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("with %v: SumSq = %v, want %v", special, got, want)
		}
	}
}

func TestStreamMapsAcrossProcs(t *testing.T) {
	for _, n := range sizes {
		xs := ints(n)
		want := mapOutWant(xs)
		got := acrossProcs(t, "MapOut", func() string { return fmt.Sprint(MapOut(xs)) })
		if got != want {
			t.Errorf("n=%d: MapOut differs from the spec", n)
		}
	}
}

func mapOutWant(xs []int) string { return fmt.Sprint(mapOutSpec(xs)) }

// good returns n multiples of 97, with bad elements (each naming its
// index) at the given indices.
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
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, bad := range [][]int{{n - 1}, {399_000, 7}, {250_000, 120_000, 120_001}, {0, n - 1}} {
			xs := good(n, bad...)
			want := fmt.Sprint("bad element ", slices.Min(bad)*97+13)
			if got := panicOf(func() { checkedSumSpec(xs) }); got != want {
				t.Fatalf("the spec panics with %v, want %v", got, want)
			}
			for name, f := range map[string]func(){
				"CheckedSum":    func() { CheckedSum(xs) },
				"CheckedDouble": func() { CheckedDouble(xs) },
			} {
				if got := panicOf(f); got != want {
					t.Errorf("GOMAXPROCS=%d bad=%v: %s panics with %v, want %v", procs, bad, name, got, want)
				}
			}
		}
	}
}

func TestWrongLengthPanicsAsSpec(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, at := range []int{299_999, 150_000, 5} {
			xs := make([]int, 300_000)
			xs[at] = 17 // 17 % 10 == 7
			want := panicOf(func() { dropSevensSpec(xs) })
			if want == nil {
				t.Fatal("the spec does not panic")
			}
			if got := panicOf(func() { DropSevens(xs) }); got != want {
				t.Errorf("GOMAXPROCS=%d: DropSevens panics with %v, want %v", procs, got, want)
			}
		}
	}
}

func TestPanicLeavesNoGoroutine(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	xs := good(400_001, 300_000)
	Hash(ints(400_001)) // grows the worker pool
	before := runtime.NumGoroutine()
	for range 20 {
		panicOf(func() { CheckedSum(xs) })
		panicOf(func() { CheckedDouble(xs) })
	}
	// Workers park again after the caller has panicked; give them a
	// moment to be counted as parked, not as new goroutines.
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines after the panics, %d before", after, before)
	}
}
