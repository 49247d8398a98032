package parallel

// These tests run in the differential test's module (which copies
// every .go file of the case): the parallel backend's panics are
// the spec's, from the lowest index, under GOMAXPROCS 1, 2 and 8, and
// leave no goroutine running.

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"
)

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
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, bad := range [][]int{{n - 1}, {399_000, 7}, {250_000, 120_000, 120_001}, {0, n - 1}} {
			xs := good(n, bad...)
			low := slices.Min(bad)
			want := fmt.Sprint("bad element ", low*97+13)
			for name, f := range map[string]func(){
				"Checked":    func() { Checked(xs) },
				"SumChecked": func() { SumChecked(xs) },
				"EvensCount": func() { EvensCount(xs) },
				"ChunkSum":   func() { ChunkSum(xs) },
			} {
				if got := panicOf(f); got != want {
					t.Errorf("GOMAXPROCS=%d bad=%v: %s panics with %v, want %v", procs, bad, name, got, want)
				}
				if got := panicOf(func() { checkedSpec(xs) }); got != want {
					t.Fatalf("the spec panics with %v, want %v", got, want)
				}
			}
		}
	}
}

func TestPanicLeavesNoGoroutine(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	xs := good(400_001, 300_000)
	Scale(make([]float64, 400_001), 2) // grows the worker pool
	before := runtime.NumGoroutine()
	for range 20 {
		panicOf(func() { Checked(xs) })
		panicOf(func() { SumChecked(xs) })
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

func TestImpureRunsInOrder(t *testing.T) {
	seen = 0
	xs := good(300_000)
	if got, want := Impure(xs), impureSpec(xs); got != want {
		t.Errorf("Impure = %d, want %d", got, want)
	}
	if seen != 2*len(xs) {
		t.Errorf("the impure lambda ran %d times, want %d", seen, 2*len(xs))
	}
}

func TestStreamMapWrongLength(t *testing.T) {
	// ChunkDouble's chunk function is right; the spec's length panic is
	// tested through the runtime (StreamMapOr falls back to the spec's
	// call), here only the result.
	xs := good(300_001)
	got, want := ChunkDouble(xs), chunkDoubleSpec(xs)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ChunkDouble[%d] = %d, want %d", i, got[i], want[i])
		}
	}
}
