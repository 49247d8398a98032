package parallel_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/soacgen/soacgen/runtime/parallel"
)

// sink keeps the chunks' delay loops from being optimized away.
var sink atomic.Int64

// streamReds are StreamRed and StreamRedChunks over [0, n) with string
// results: each chunk's result names its bounds, after a delay that
// varies from chunk to chunk (so that results arrive out of order), and
// at panicAt (if >= 0) the chunk holding that index panics with it.
func streamReds(n, grain, panicAt int, op func(a, b string) string) map[string]func() string {
	chunk := func(lo, hi int) string {
		spin := (lo*7919 + hi) % 23 * 2000
		x := 0
		for i := range spin {
			x += i
		}
		if panicAt >= lo && panicAt < hi {
			panic(panicAt)
		}
		sink.Add(int64(x))
		return fmt.Sprintf("%d:%d", lo, hi)
	}
	xs := make([]int, n)
	for i := range xs {
		xs[i] = i
	}
	return map[string]func() string{
		"StreamRed": func() string {
			return parallel.StreamRed(xs, grain, op, func(c []int) string {
				if len(c) == 0 {
					return "e"
				}
				return chunk(c[0], c[len(c)-1]+1)
			})
		},
		"StreamRedChunks": func() string {
			return parallel.StreamRedChunks(n, grain, false, "e", op, func(lo, hi int, _ []int) string { return chunk(lo, hi) })
		},
	}
}

// leftFold is the fold the caller would run after the chunks: op over
// "e" and the chunks' names, left to right.
func leftFold(n, grain int, op func(a, b string) string) string {
	k := parallel.Chunks(n, grain)
	acc := "e"
	for c := range k {
		lo, hi := parallel.Bounds(n, k, c)
		acc = op(acc, fmt.Sprintf("%d:%d", lo, hi))
	}
	return acc
}

// TestStreamRedFoldsInOrder checks that the streams' results, folded as
// they arrive, are the left fold over the chunks in order, op called
// once per chunk with the operands the sequential fold gives it, for any
// GOMAXPROCS: op here shows the whole tree of calls.
func TestStreamRedFoldsInOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{2, 3, 17, 1000, 20000} {
			for _, grain := range []int{1, 7, 100} {
				var calls atomic.Int64
				op := func(a, b string) string { calls.Add(1); return "(" + a + " " + b + ")" }
				want := leftFold(n, grain, func(a, b string) string { return "(" + a + " " + b + ")" })
				k := int64(parallel.Chunks(n, grain))
				for name, run := range streamReds(n, grain, -1, op) {
					calls.Store(0)
					if got := run(); got != want {
						t.Fatalf("procs %d, %s(n=%d, grain=%d) = %.80s..., want %.80s...", procs, name, n, grain, got, want)
					}
					if calls.Load() != k {
						t.Errorf("procs %d, %s(n=%d, grain=%d): op called %d times, want %d", procs, name, n, grain, calls.Load(), k)
					}
				}
			}
		}
	}
}

// TestStreamRedFoldPanics checks which panic a stream raises when op
// panics while the chunks still run: op's first panic in fold order, op
// not called after it; a chunk's panic before any panic of op, however
// early in the fold op panicked; and no goroutine left inside.
func TestStreamRedFoldPanics(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	base := runtime.NumGoroutine()
	const n, grain = 5000, 10 // 256 chunks of 19-20
	k := parallel.Chunks(n, grain)
	lo3, _ := parallel.Bounds(n, k, 3)
	lo7, _ := parallel.Bounds(n, k, 7)
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, c := range []struct {
			what      string
			opPanics  []int // op panics when its right operand starts at these
			chunkAt   int   // index whose chunk panics, -1 for none
			want      any
			wantCalls int64 // -1: not checked
		}{
			{"op at chunk 3", []int{lo3}, -1, "op " + fmt.Sprint(lo3), 4},
			{"op at chunks 3 and 7", []int{lo7, lo3}, -1, "op " + fmt.Sprint(lo3), 4},
			{"chunk 200 and op at chunk 3", []int{lo3}, 4000, 4000, -1},
			{"chunk 200 only", nil, 4000, 4000, -1},
		} {
			var calls atomic.Int64
			op := func(a, b string) string {
				calls.Add(1)
				for _, at := range c.opPanics {
					if strings.HasPrefix(b, fmt.Sprintf("%d:", at)) {
						panic("op " + fmt.Sprint(at))
					}
				}
				return "x"
			}
			for name, run := range streamReds(n, grain, c.chunkAt, op) {
				calls.Store(0)
				got := catch(func() { run() })
				if got != c.want {
					t.Errorf("procs %d, %s, %s: panic %v, want %v", procs, c.what, name, got, c.want)
				}
				if c.wantCalls >= 0 && calls.Load() != c.wantCalls {
					t.Errorf("procs %d, %s, %s: op called %d times, want %d (none after its panic)", procs, c.what, name, calls.Load(), c.wantCalls)
				}
			}
		}
	}
	checkGoroutines(t, base)
}
