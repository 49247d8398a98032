package mss

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkGrainPaired times MSS (cpu), MSSPar and a hand goroutine loop
// in turns (extest.ParPaired) at sizes around MSSPar's split: 2 grains,
// 10000 elements when parcost charged inlined calls (grain 5000: parcost charged the call
// of combine, which the compiler inlines) and 20000 since (10000). At
// 1.5e4 MSSPar split before and runs the cpu loop now; at 3e4 and 1e5 it
// splits into half as many chunks.
func BenchmarkGrainPaired(b *testing.B) {
	for _, size := range []extest.BenchSize{{Name: "n=1.5e4", N: 15_000}, {Name: "n=3e4", N: 30_000}, {Name: "n=1e5", N: 100_000}} {
		xs := extest.Ints(extest.Rand(5, size.N), size.N, -100, 101)
		b.Run("MSS/"+size.Name, func(b *testing.B) {
			extest.ParPaired(b, func() { MSS(xs) }, func() { MSSPar(xs) }, func() { mssGoroutines(xs) })
		})
	}
}

// mssGoroutines is MSS as a hand goroutine loop: one chunk per core, its
// segs by one loop, combined in order.
func mssGoroutines(xs []int) int {
	return extest.GoReduce(len(xs), func(lo, hi int) segs {
		s := segs{}
		for _, x := range xs[lo:hi] {
			m := max(x, 0)
			s = combine(s, segs{m, m, m, x})
		}
		return s
	}, combine).Best
}

// TestMSSGoroutines: the benchmark's hand loop computes the spec's sum.
func TestMSSGoroutines(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000, 100_001} {
		xs := extest.Ints(extest.Rand(6, n), n, -100, 101)
		if got, want := mssGoroutines(xs), mssSpec(xs); got != want {
			t.Errorf("n=%d: %d, want %d", n, got, want)
		}
	}
}
