package extest

// The goroutine baselines the parallel benchmarks compare with give the
// sequential results (the benchmarks' figures mean nothing otherwise).

import (
	"runtime"
	"slices"
	"testing"
)

func TestGoFilterFoldAndScan(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 7, 1000, 100_003} {
			xs := Ints(Rand(3, n), n, -50, 50)
			var wantKept []int
			wantSum := 0
			for _, x := range xs {
				if x%2 == 0 {
					wantKept = append(wantKept, x)
				}
				wantSum += x
			}
			kept, sum := GoFilterFold(n, func(lo, hi int) ([]int, int) {
				var k []int
				s := 0
				for _, x := range xs[lo:hi] {
					if x%2 == 0 {
						k = append(k, x)
					}
					s += x
				}
				return k, s
			}, func(a, b int) int { return a + b })
			if !slices.Equal(kept, wantKept) && !(len(kept) == 0 && len(wantKept) == 0) || sum != wantSum {
				t.Fatalf("GOMAXPROCS %d n %d: GoFilterFold = %d kept, sum %d; want %d, %d", procs, n, len(kept), sum, len(wantKept), wantSum)
			}
			out := make([]int, n)
			GoScan(n, func(lo, hi int) int {
				acc := 0
				for i := lo; i < hi; i++ {
					acc += xs[i]
					out[i] = acc
				}
				return acc
			}, func(lo, hi int, carry int) {
				for i := lo; i < hi; i++ {
					out[i] += carry
				}
			}, func(a, b int) int { return a + b })
			acc := 0
			for i, x := range xs {
				acc += x
				if out[i] != acc {
					t.Fatalf("GOMAXPROCS %d n %d: GoScan[%d] = %d, want %d", procs, n, i, out[i], acc)
				}
			}
		}
	}
}

// TestGoChunks checks that every chunk runs exactly once, for any
// GOMAXPROCS (a chunk run twice or skipped fails it).
func TestGoChunks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, k := range []int{0, 1, 2, 7, 300} {
			runs := make([]int, k)
			GoChunks(k, func(c int) { runs[c]++ })
			for c, r := range runs {
				if r != 1 {
					t.Fatalf("GOMAXPROCS %d k %d: chunk %d ran %d times", procs, k, c, r)
				}
			}
		}
	}
}
