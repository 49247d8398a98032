package parallel_test

// StreamCarried: a stream (each chunk's affine maps computed from the
// input, into the chunk's buffer or a fresh slice) followed by a scan
// read by a map, a count of kept elements and a fold, equal to the
// sequential loop (integers, an operator associative but not
// commutative); floats the same bits under GOMAXPROCS 1, 2, 3 and 8;
// carries dropped or reversed caught; chunks without carries combined in
// chunk order; a panic anywhere or a short chunk reported, with no
// goroutine left; scratch buffers never shared by two running chunks.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/soacgen/soacgen/runtime/parallel"
)

// streamOf is the stream's chunk function: each element of the chunk
// becomes an affine map, written into out when it has room (the
// chunk's buffer), else into a fresh slice.
func streamOf(chunk []int, out []affine) []affine {
	if len(out) < len(chunk) {
		out = make([]affine, len(chunk))
	}
	out = out[:len(chunk)]
	for i, x := range chunk {
		out[i] = affine{uint64(x)*2 + 1, uint64(x * x)}
	}
	return out
}

// streamKernel runs, over xs: fs = the stream of xs (streamOf); ps =
// scan(then) of fs from start; ms = the b of ps; kept = the ms whose fs
// element has an even b, in order; sum = fold (+) of the a of ps; with StreamCarried's
// chunks of grain.
func streamKernel(xs []int, start affine, grain int, scratch, exact bool, op func(x, y carriedState) carriedState) ([]uint64, []uint64, uint64, bool) {
	n := len(xs)
	ms := parallel.Alloc[uint64](n)
	kept := make([]uint64, 0, n)
	end, sum, ok := parallel.StreamCarried(n, grain, scratch, carriedState{start, 0}, exact,
		func(lo, hi int, buf []affine) ([]affine, bool) {
			if scratch != (buf != nil) {
				panic("a buffer without scratch, or none with it")
			}
			return streamOf(xs[lo:hi], buf), true
		},
		func(fs []affine, lo, hi int) carriedState {
			acc, k := affine{1, 0}, 0
			for i := lo; i < hi; i++ {
				acc = then(acc, fs[i-lo])
				if fs[i-lo].b%2 == 0 {
					k++
				}
			}
			return carriedState{acc, k}
		}, op,
		func(fs []affine, lo, hi int, carry carriedState) (carriedState, uint64) {
			acc, k, sum := carry.s, carry.k, uint64(0)
			for i := lo; i < hi; i++ {
				acc = then(acc, fs[i-lo])
				ms[i] = acc.b
				if fs[i-lo].b%2 == 0 {
					// A wrong carry makes two chunks store at the same
					// positions: the lock keeps that a wrong result, not
					// a data race.
					keptMu.Lock()
					if k >= 0 && k < cap(kept) {
						kept[:cap(kept)][k] = acc.b
					}
					keptMu.Unlock()
					k++
				}
				sum += acc.a
			}
			return carriedState{acc, k}, sum
		}, func(a, b uint64) uint64 { return a + b })
	return ms, kept[:min(max(end.k, 0), cap(kept))], sum, ok
}

// seqStreamKernel is streamKernel's sequential loop.
func seqStreamKernel(xs []int, start affine) ([]uint64, []uint64, uint64) {
	ms, kept := make([]uint64, len(xs)), []uint64{}
	acc, sum := start, uint64(0)
	for i, f := range streamOf(xs, nil) {
		acc = then(acc, f)
		ms[i] = acc.b
		if f.b%2 == 0 {
			kept = append(kept, acc.b)
		}
		sum += acc.a
	}
	return ms, kept, sum
}

func TestStreamCarried(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(41, 42))
	start := affine{3, 5}
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, grain := range grains {
			for _, n := range sizes(grain) {
				xs := ints(r, n)
				wm, wk, ws := seqStreamKernel(xs, start)
				for _, exact := range []bool{false, true} {
					for _, scratch := range []bool{false, true} {
						ms, kept, sum, ok := streamKernel(xs, start, grain, scratch, exact, combineStates)
						if !ok || !slices.Equal(ms, wm) || !slices.Equal(kept, wk) || sum != ws {
							t.Fatalf("GOMAXPROCS %d grain %d n %d exact %v scratch %v: ok %v, StreamCarried differs from the sequential loop", procs, grain, n, exact, scratch, ok)
						}
					}
				}
			}
		}
	}
}

// TestStreamCarriedWrongCarry: a carry that drops the predecessors' scan,
// counts kept elements from zero in every chunk, or combines the totals
// in the wrong order gives results TestStreamCarried's comparison
// rejects, with and without exact.
func TestStreamCarriedWrongCarry(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	r := rand.New(rand.NewPCG(43, 44))
	xs := ints(r, 20_000)
	wm, wk, ws := seqStreamKernel(xs, affine{3, 5})
	for name, op := range map[string]func(x, y carriedState) carriedState{
		"scan dropped":  func(x, y carriedState) carriedState { return carriedState{y.s, x.k + y.k} },
		"count dropped": func(x, y carriedState) carriedState { return carriedState{then(x.s, y.s), y.k} },
		"reversed":      func(x, y carriedState) carriedState { return carriedState{then(y.s, x.s), x.k + y.k} },
	} {
		// Without exact every chunk but the first runs pass 1 and its
		// carry folds the totals with op (with exact, a chunk whose
		// predecessor is done takes its end state and never calls op).
		ms, kept, sum, ok := streamKernel(xs, affine{3, 5}, 10, false, false, op)
		if ok && slices.Equal(ms, wm) && slices.Equal(kept, wk) && sum == ws {
			t.Errorf("%s: the wrong carry gives the sequential loop's results", name)
		}
	}
}

// TestStreamCarriedFloatBits: a float scan of the stream's output and a
// float sum give the same bits under GOMAXPROCS 1, 2, 3 and 8, and
// equal the sequential loop within rounding.
func TestStreamCarriedFloatBits(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(45, 46))
	n := 200_003
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(12)-6))
	}
	run := func() ([]float64, float64, float64) {
		out := make([]float64, n)
		end, sum, ok := parallel.StreamCarried(n, 97, false, 0.25, false,
			func(lo, hi int, _ []float64) ([]float64, bool) {
				ys := make([]float64, hi-lo)
				for i, x := range xs[lo:hi] {
					ys[i] = x*0.5 - 1
				}
				return ys, true
			},
			func(ys []float64, lo, hi int) float64 {
				acc := math.Copysign(0, -1)
				for _, y := range ys {
					acc += y
				}
				return acc
			}, func(a, b float64) float64 { return a + b },
			func(ys []float64, lo, hi int, carry float64) (float64, float64) {
				acc, sum := carry, math.Copysign(0, -1)
				for i := lo; i < hi; i++ {
					acc += ys[i-lo]
					out[i] = acc
					sum += acc * acc
				}
				return acc, sum
			}, func(a, b float64) float64 { return a + b })
		if !ok {
			t.Fatal("no panic, but not ok")
		}
		return out, end, sum
	}
	var first []uint64
	for _, procs := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		out, end, sum := run()
		got := append(bits(out), math.Float64bits(end), math.Float64bits(sum))
		if first == nil {
			first = got
			acc := 0.25
			for i, x := range xs {
				acc += x*0.5 - 1
				if d := math.Abs(acc - out[i]); d > 1e-9*(1+math.Abs(acc)) {
					t.Fatalf("element %d: %v, the sequential scan %v", i, out[i], acc)
				}
			}
			continue
		}
		if !slices.Equal(got, first) {
			t.Errorf("GOMAXPROCS %d: bits differ from GOMAXPROCS 1's", procs)
		}
	}
}

func bits(xs []float64) []uint64 {
	b := make([]uint64, len(xs))
	for i, x := range xs {
		b[i] = math.Float64bits(x)
	}
	return b
}

// TestStreamCarriedNoCarry: with total nil every chunk runs its members
// from start, the partials combine left to right in chunk order (string
// concatenation shows the order), and the state returned is start.
func TestStreamCarriedNoCarry(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 7, 1000, 100_001} {
			var want strings.Builder
			if n > 0 {
				k := parallel.Chunks(n, 100)
				for c := range k {
					lo, hi := parallel.Bounds(n, k, c)
					fmt.Fprintf(&want, "[%d,%d)", lo, hi)
				}
			}
			end, got, ok := parallel.StreamCarried(n, 100, true, 7, false,
				func(lo, hi int, buf []byte) (string, bool) {
					if len(buf) < hi-lo {
						panic("short buffer")
					}
					return fmt.Sprintf("[%d,%d)", lo, hi), true
				}, nil, nil,
				func(s string, lo, hi int, carry int) (int, string) {
					if carry != 7 {
						panic("a carry without totals")
					}
					return -1, s
				}, func(a, b string) string { return a + b })
			if !ok || end != 7 || got != want.String() {
				t.Errorf("GOMAXPROCS %d n %d: %v %d %.60q, want true 7 %.60q", procs, n, ok, end, got, want.String())
			}
		}
	}
}

// TestStreamCarriedScratch: each chunk's buffer has room for the chunk
// and no two chunks running at once share one.
func TestStreamCarriedScratch(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	const n = 100_003
	var mu sync.Mutex
	inUse := map[*int]bool{}
	_, sum, ok := parallel.StreamCarried(n, 10, true, 0, true,
		func(lo, hi int, buf []int) ([]int, bool) {
			if len(buf) < hi-lo {
				panic("short buffer")
			}
			mu.Lock()
			if inUse[&buf[0]] {
				mu.Unlock()
				panic("a buffer shared by two chunks")
			}
			inUse[&buf[0]] = true
			mu.Unlock()
			for i := lo; i < hi; i++ {
				buf[i-lo] = i
			}
			return buf[:hi-lo], true
		},
		func(s []int, lo, hi int) int { return hi - lo },
		func(a, b int) int { return a + b },
		func(s []int, lo, hi int, carry int) (int, int) {
			sum := 0
			for i, v := range s {
				if v != lo+i {
					panic("the buffer changed under the chunk")
				}
				sum += v
			}
			mu.Lock()
			delete(inUse, &s[0])
			mu.Unlock()
			return carry + hi - lo, sum
		}, func(a, b int) int { return a + b })
	if !ok || sum != n*(n-1)/2 {
		t.Errorf("ok %v sum %d, want %d", ok, sum, n*(n-1)/2)
	}
}

// TestStreamCarriedPanics: a panic of the stream or of the members, in
// any chunk, alone or with another in a chunk above or below, and a
// chunk of the wrong length, make StreamCarried report false (the
// caller then runs the spec's calls); no goroutine is left.
func TestStreamCarriedPanics(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const n = 100_000
	xs := make([]int, n)
	parallel.StreamCarried(n, 100, false, 0, false, func(lo, hi int, _ []int) ([]int, bool) { return xs[lo:hi], true },
		func(ys []int, lo, hi int) int { return 0 }, func(a, b int) int { return a + b },
		func(ys []int, lo, hi int, carry int) (int, int) { return 0, 0 }, func(a, b int) int { return a + b }) // grows the pool
	before := runtime.NumGoroutine()
	at := []int{-1, 0, 5, 49_999, 50_000, 99_999}
	for _, exact := range []bool{false, true} {
		for _, s := range at {
			for _, m := range at {
				for _, short := range []bool{false, true} {
					_, _, ok := parallel.StreamCarried(n, 100, false, 0, exact,
						func(lo, hi int, _ []int) ([]int, bool) {
							ys := make([]int, hi-lo)
							if lo <= s && s < hi {
								if short {
									return ys[1:], false
								}
								panic(fmt.Sprintf("stream at %d", s))
							}
							return ys, true
						},
						func(ys []int, lo, hi int) int {
							if lo <= m && m < hi {
								panic(fmt.Sprintf("total at %d", m))
							}
							return len(ys)
						}, func(a, b int) int { return a + b },
						func(ys []int, lo, hi int, carry int) (int, int) {
							if lo <= m && m < hi {
								panic(fmt.Sprintf("body at %d", m))
							}
							return carry + len(ys), 0
						}, func(a, b int) int { return a + b })
					if want := s < 0 && m < 0; ok != want {
						t.Errorf("exact %v, stream's panic at %d (short %v), members' at %d: ok %v, want %v", exact, s, short, m, ok, want)
					}
				}
			}
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines after the panics, %d before", after, before)
	}
}

// TestReuse: Reuse and ReuseCap return make's length, capacity and zero
// elements, in the buffer when it has room (a dirty buffer is cleared),
// else a fresh array; lengths make rejects panic with make's message.
func TestReuse(t *testing.T) {
	buf := []int{7, 7, 7, 7, 7, 7}
	for _, c := range []struct{ n, c int }{{0, 0}, {3, 3}, {2, 5}, {6, 6}, {4, 7}, {7, 7}} {
		var got []int
		if c.n == c.c {
			got = parallel.Reuse(buf, c.n)
		} else {
			got = parallel.ReuseCap(buf, c.n, c.c)
		}
		if len(got) != c.n || cap(got) != c.c || slices.ContainsFunc(got[:cap(got)], func(x int) bool { return x != 0 }) {
			t.Errorf("make([]int, %d, %d): len %d cap %d %v", c.n, c.c, len(got), cap(got), got[:cap(got)])
		}
		inBuf := c.c > 0 && &got[:c.c][0] == &buf[0]
		if want := c.c > 0 && c.c <= len(buf); inBuf != want {
			t.Errorf("make([]int, %d, %d): in the buffer %v, want %v", c.n, c.c, inBuf, want)
		}
		for i := range buf {
			buf[i] = 7
		}
	}
	n := -1
	if got, want := catchMsg(func() { parallel.Reuse(buf, n) }), catchMsg(func() { _ = make([]int, n) }); got != want {
		t.Errorf("Reuse(-1) panics %q, make %q", got, want)
	}
	if got, want := catchMsg(func() { parallel.ReuseCap(buf, 3, 2) }), catchMsg(func() { m := 3; _ = make([]int, m, 2) }); got != want {
		t.Errorf("ReuseCap(3, 2) panics %q, make %q", got, want)
	}
}

func catchMsg(f func()) (v string) {
	defer func() { v = fmt.Sprint(recover()) }()
	f()
	return "no panic"
}
