package extest

// The goroutine baselines the parallel benchmarks compare with give the
// sequential results (the benchmarks' figures mean nothing otherwise).

import (
	"flag"
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

// TestAfter checks After against the order Rounds and RoundsWith really
// call their functions in: each sample replaced by the function that ran
// just before its timed call, After(s, f, g) must return g's alone, as
// many as the calls of f that followed g, for k = 2 and 3 functions and
// round counts not a multiple of k; a wrong rotation returns others.
func TestAfter(t *testing.T) {
	// testing.Benchmark runs each function for -test.benchtime: a few
	// rounds are enough here.
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := flag.Set("test.benchtime", "7x"); err != nil {
		t.Fatal(err)
	}
	defer flag.Set("test.benchtime", old)
	for _, k := range []int{2, 3} {
		for _, warm := range []int{0, 1} {
			var log []int
			fs := make([]func(), k)
			for f := range fs {
				fs[f] = func() { log = append(log, f) }
			}
			var s [][]float64
			testing.Benchmark(func(b *testing.B) {
				log = log[:0]
				s = RoundsWith(b, RoundsOptions{Warm: warm, GC: warm > 0}, 1, fs...)
			})
			per := warm + 1
			rounds := len(s[0])
			if rounds < 2 || len(log) != rounds*k*per {
				t.Fatalf("k=%d: %d rounds, %d calls", k, rounds, len(log))
			}
			want := make([][]int, k) // want[f][g]: f's timed calls right after a call of g
			for f := range want {
				want[f] = make([]int, k)
			}
			for i := range rounds {
				for j := range k {
					f := (i + j) % k
					at := (i*k+j)*per + warm // the timed call
					if at != 0 {
						s[f][i] = float64(log[at-1])
					} else {
						s[f][i] = -1
					}
					if warm > 0 && log[at-1] != f {
						t.Fatalf("k=%d round %d: the warm call before call %d is of %d, want %d", k, i, at, log[at-1], f)
					}
					if log[at] != f {
						t.Fatalf("k=%d round %d: call %d is of %d, want %d", k, i, at, log[at], f)
					}
				}
			}
			for f := range k {
				for i := range rounds {
					if g := int(s[f][i]); g >= 0 && warm == 0 {
						want[f][g]++
					}
				}
			}
			if warm > 0 {
				continue // each timed call follows its own warm call
			}
			for f := range k {
				for g := range k {
					got := After(s, f, g)
					for _, x := range got {
						if int(x) != g {
							t.Errorf("k=%d: After(s, %d, %d) holds a sample after %v", k, f, g, x)
						}
					}
					if len(got) != want[f][g] {
						t.Errorf("k=%d: After(s, %d, %d) has %d samples, want %d", k, f, g, len(got), want[f][g])
					}
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
