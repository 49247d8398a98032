package parallel_test

// Panics: every operation re-raises, on the caller's goroutine, the
// original value of the panic at the lowest index; no body is still
// running when it does; no goroutine is left but the parked pool workers.

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/soacgen/soacgen/runtime/parallel"
)

// boom is a panic value compared by identity.
type boom struct{ i int }

// catch calls f and returns what it panicked with (nil if it returned).
func catch(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

// panicker returns an element function that panics with booms[i] at the
// indices of booms and counts the bodies running in *live.
type panicker struct {
	booms  map[int]*boom
	custom func(int) float64 // replaces the default element body when set
	live   atomic.Int64
}

func newPanicker(at ...int) *panicker {
	p := &panicker{booms: map[int]*boom{}}
	for _, i := range at {
		p.booms[i] = &boom{i}
	}
	return p
}

// elem is the element body: panics at the chosen indices.
func (p *panicker) elem(i int) float64 {
	if p.custom != nil {
		return p.custom(i)
	}
	if b, ok := p.booms[i]; ok {
		panic(b)
	}
	return float64(i)
}

// enter marks a body running until the returned function is called.
func (p *panicker) enter() func() {
	p.live.Add(1)
	return func() { p.live.Add(-1) }
}

// ops runs each operation of the package with p's element body.
func ops(p *panicker, n, grain int) map[string]func() {
	return map[string]func(){
		"For": func() {
			parallel.For(n, grain, func(lo, hi int) {
				defer p.enter()()
				for i := lo; i < hi; i++ {
					p.elem(i)
				}
			})
		},
		"ForMeasured": func() {
			parallel.ForMeasured(n, grain, func(lo, hi int) {
				defer p.enter()()
				for i := lo; i < hi; i++ {
					p.elem(i)
				}
			})
		},
		"Reduce": func() {
			parallel.Reduce(n, grain, func(lo, hi int) float64 {
				defer p.enter()()
				acc := 0.0
				for i := lo; i < hi; i++ {
					acc += p.elem(i)
				}
				return acc
			}, add)
		},
		"Scan": func() {
			out := make([]float64, n)
			parallel.Scan(n, grain, func(lo, hi int) float64 {
				defer p.enter()()
				acc := 0.0
				for i := lo; i < hi; i++ {
					acc += p.elem(i)
					out[i] = acc
				}
				return acc
			}, func(lo, hi int, carry float64) {
				defer p.enter()()
				for i := lo; i < hi; i++ {
					out[i] += carry
				}
			}, add)
		},
		"ScanExact": func() {
			out := parallel.Alloc[int](n)
			parallel.ScanExact(n, grain, 0, func(lo, hi int, start int) int {
				defer p.enter()()
				acc := start
				for i := lo; i < hi; i++ {
					acc += int(p.elem(i))
					out[i] = acc
				}
				return acc
			}, func(lo, hi int, carry int) {
				defer p.enter()()
				for i := lo; i < hi; i++ {
					out[i] += carry
				}
			}, func(a, b int) int { return a + b })
		},
		"Carried": func() {
			out := make([]float64, n)
			parallel.Carried(n, grain, 0.0, false, func(lo, hi int) float64 {
				defer p.enter()()
				acc := 0.0
				for i := lo; i < hi; i++ {
					acc += p.elem(i)
				}
				return acc
			}, add, func(lo, hi int, carry float64) (float64, float64) {
				defer p.enter()()
				acc := carry
				for i := lo; i < hi; i++ {
					acc += p.elem(i)
					out[i] = acc
				}
				return acc, acc
			}, add)
		},
		// CarriedLocal with the panicking member upstream of the scan
		// (pass 1: total) and downstream of it (pass 2: fix).
		"CarriedLocal pass 1": func() {
			local, out := make([]float64, n), make([]float64, n)
			parallel.CarriedLocal(n, grain, 0.0, false, func(lo, hi int) float64 {
				defer p.enter()()
				acc := 0.0
				for i := lo; i < hi; i++ {
					acc += p.elem(i)
					local[i] = acc
				}
				return acc
			}, add, func(lo, hi int, carry float64) (float64, float64) {
				defer p.enter()()
				acc := carry
				for i := lo; i < hi; i++ {
					acc += p.elem(i)
					out[i] = acc
				}
				return acc, acc
			}, func(lo, hi int, carry float64) float64 {
				defer p.enter()()
				for i := lo; i < hi; i++ {
					out[i] = carry + local[i]
				}
				return 0
			}, add)
		},
		"CarriedLocal pass 2": func() {
			local, out := make([]float64, n), make([]float64, n)
			parallel.CarriedLocal(n, grain, 0.0, false, func(lo, hi int) float64 {
				defer p.enter()()
				acc := 0.0
				for i := lo; i < hi; i++ {
					acc += float64(i)
					local[i] = acc
				}
				return acc
			}, add, func(lo, hi int, carry float64) (float64, float64) {
				defer p.enter()()
				acc := carry
				for i := lo; i < hi; i++ {
					acc += float64(i)
					out[i] = acc * p.elem(i)
				}
				return acc, acc
			}, func(lo, hi int, carry float64) float64 {
				defer p.enter()()
				for i := lo; i < hi; i++ {
					out[i] = (carry + local[i]) * p.elem(i)
				}
				return 0
			}, add)
		},
		"CarriedLevels": func() {
			out := make([]float64, n)
			parallel.CarriedLevels(n, grain, 2, 0.0, func(level, lo, hi int, carry float64) float64 {
				defer p.enter()()
				acc := 0.0
				for i := lo; i < hi; i++ {
					acc += p.elem(i)
				}
				return acc
			}, func(level int, a, b float64) float64 { return a + b }, func(level int, c, d float64) float64 { return d },
				func(lo, hi int, carry float64) (float64, float64) {
					defer p.enter()()
					acc := carry
					for i := lo; i < hi; i++ {
						acc += p.elem(i)
						out[i] = acc
					}
					return acc, acc
				}, add)
		},
		"Filter": func() {
			out := make([]float64, n)
			parallel.Filter(n, grain, out, func(lo, hi int, dst []float64) int {
				defer p.enter()()
				m := 0
				for i := lo; i < hi; i++ {
					if v := p.elem(i); int(v)%3 == 0 {
						dst[m] = v
						m++
					}
				}
				return m
			})
		},
		"StreamRed": func() {
			xs := make([]int, n)
			for i := range xs {
				xs[i] = i
			}
			parallel.StreamRed(xs, grain, add, func(chunk []int) float64 {
				defer p.enter()()
				acc := 0.0
				for _, i := range chunk {
					acc += p.elem(i)
				}
				return acc
			})
		},
	}
}

func TestPanicLowestIndex(t *testing.T) {
	base := runtime.NumGoroutine() - parallel.Workers()
	const n, grain = 10_000, 10
	cases := [][]int{{0}, {9_999}, {5_000}, {17, 9_000}, {4_999, 5_000, 5_001}, {9_998, 3, 6_000, 42}}
	for _, at := range cases {
		lowest := at[0]
		for _, i := range at {
			lowest = min(lowest, i)
		}
		for name := range ops(nil, 0, 0) {
			p := newPanicker(at...)
			got := catch(ops(p, n, grain)[name])
			if got != p.booms[lowest] {
				t.Errorf("%s panicking at %v: recovered %v, want the value from index %d", name, at, got, lowest)
			}
			if l := p.live.Load(); l != 0 {
				t.Errorf("%s panicking at %v: %d bodies still running after the panic reached the caller", name, at, l)
			}
		}
	}
	checkGoroutines(t, base)
}

// TestPanicLowestIndexNotFirst makes the lowest index (5, in chunk 0) panic
// after a higher one (15, in chunk 1, whose body runs before it waits for
// chunk 0 in a scan or filter) has: the lowest still wins.
func TestPanicLowestIndexNotFirst(t *testing.T) {
	const n, grain = 1000, 10
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs a worker beside the caller")
	}
	for name := range ops(nil, 0, 0) {
		p := newPanicker(5, 15)
		high := make(chan struct{})
		p.custom = func(i int) float64 {
			switch i {
			case 15:
				close(high)
				panic(p.booms[15])
			case 5:
				// Wait until index 15 has panicked (at most 5 s, for a
				// run in which no worker took part), then panic.
				select {
				case <-high:
				case <-time.After(5 * time.Second):
				}
				panic(p.booms[5])
			}
			return float64(i)
		}
		t0 := time.Now()
		got := catch(ops(p, n, grain)[name])
		t.Log(name, time.Since(t0))
		if got != p.booms[5] {
			t.Errorf("%s: recovered %v, want index 5's value", name, got)
		}
	}
}

func TestStreamMapLengthPanic(t *testing.T) {
	const n, grain = 1000, 10
	k := parallel.Chunks(n, grain)
	xs := make([]int, n)
	for i := range xs {
		xs[i] = i
	}
	got := catch(func() {
		parallel.StreamMap(xs, grain, func(chunk []int) []int {
			if slices.Contains(chunk, 500) || slices.Contains(chunk, n-1) {
				return chunk[1:]
			}
			return chunk
		})
	})
	var want string
	for c := range k {
		if lo, hi := parallel.Bounds(n, k, c); lo <= 500 && 500 < hi {
			want = fmt.Sprintf("soac.StreamMap: chunk xs[%d:%d] has %d elements but f returned %d", lo, hi, hi-lo, hi-lo-1)
		}
	}
	if got != want {
		t.Errorf("StreamMap with short chunk results panicked with %v, want %q (the lowest bad chunk)", got, want)
	}
}

func TestGoexit(t *testing.T) {
	var v any
	done := make(chan struct{})
	go func() { // runtime.Goexit ends whatever goroutine runs it; keep the test's alive
		defer close(done)
		v = catch(func() {
			parallel.For(1000, 10, func(lo, hi int) {
				if lo > 500 {
					runtime.Goexit()
				}
			})
		})
	}()
	<-done
	// v == nil: the caller itself ran such a chunk and its goroutine
	// ended, as it would have in the sequential loop.
	if _, ok := v.(*parallel.GoexitError); v != nil && !ok {
		t.Fatalf("a body calling runtime.Goexit on a worker: recovered %v, want a *GoexitError", v)
	}
}

// checkGoroutines fails unless the goroutines left are at most base (one that
// was exiting when base was counted may be gone) plus the pool's parked
// workers, none of them inside an operation. A worker that has just
// left a job may still be on its way back to the channel receive, so the
// check is retried for up to a second.
func checkGoroutines(t *testing.T, base int) {
	t.Helper()
	var stray []string
	for range 1000 {
		stray = stray[:0]
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "runtime/parallel.(*job)") && !strings.Contains(g, "parallel_test.") {
				stray = append(stray, g)
			}
		}
		if len(stray) == 0 && runtime.NumGoroutine()-parallel.Workers() <= base {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%d goroutines (want at most %d plus %d workers); inside an operation:\n%s",
		runtime.NumGoroutine(), base, parallel.Workers(), strings.Join(stray, "\n\n"))
}
