package parallel

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// span is a chunk's range as text: concatenating spans is associative
// but not commutative, so the combined result shows the order in which
// the chunks' results were combined.
func span(lo, hi int) string { return fmt.Sprintf("[%d,%d)", lo, hi) }

// wantSpans is the concatenation of the spans of the chunks of [0, n),
// in order.
func wantSpans(n, grain int) string {
	k := Chunks(n, grain)
	var b strings.Builder
	for c := range k {
		b.WriteString(span(Bounds(n, k, c)))
	}
	return b.String()
}

// TestStreamRedChunksOrder: the chunks' results combine left to right in
// chunk order after the caller's f(empty), under GOMAXPROCS 1, 2 and 8;
// one chunk is op(acc, body(0, n)); an empty input returns acc.
func TestStreamRedChunksOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	cat := func(a, b string) string { return a + b }
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{1, 7, 1000, 100_001} {
			got := StreamRedChunks(n, 100, false, "e", cat, func(lo, hi int, buf []int) string {
				if buf != nil {
					t.Errorf("a buffer without scratch")
				}
				return span(lo, hi)
			})
			if want := "e" + wantSpans(n, 100); got != want {
				t.Errorf("GOMAXPROCS=%d n=%d: %.60s..., want %.60s...", procs, n, got, want)
			}
		}
	}
	if got := StreamRedChunks(0, 1, true, "e", cat, func(lo, hi int, _ []int) string { return "x" }); got != "e" {
		t.Errorf("empty input: %q, want the start", got)
	}
}

// TestStreamRedChunksScratch: with scratch, each chunk gets a buffer of
// at least its length, and no two chunks running at once share one.
func TestStreamRedChunksScratch(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	const n = 100_003
	var mu sync.Mutex
	inUse := map[*int]bool{}
	sum := StreamRedChunks(n, 10, true, 0, func(a, b int) int { return a + b }, func(lo, hi int, buf []int) int {
		if len(buf) < hi-lo {
			t.Errorf("chunk [%d,%d): buffer of %d", lo, hi, len(buf))
			return 0
		}
		mu.Lock()
		if inUse[&buf[0]] {
			t.Errorf("chunk [%d,%d): a buffer in use by another chunk", lo, hi)
		}
		inUse[&buf[0]] = true
		mu.Unlock()
		for i := lo; i < hi; i++ {
			buf[i-lo] = i
		}
		s := 0
		for _, v := range buf[:hi-lo] {
			s += v
		}
		mu.Lock()
		delete(inUse, &buf[0])
		mu.Unlock()
		return s
	})
	if want := n * (n - 1) / 2; sum != want {
		t.Errorf("sum %d, want %d", sum, want)
	}
}

// TestStreamMapChunks: the chunks' results land at their ranges; a wrong
// length in any chunk reports false (the generated code then runs the
// spec's calls) unless a lower chunk panicked, whose panic is re-raised.
func TestStreamMapChunks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const n = 100_001
	ids := func(lo, hi int, _ []int) []int {
		out := make([]int, hi-lo)
		for i := range out {
			out[i] = lo + i
		}
		return out
	}
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, m := range []int{1, 1000, n} {
			got, ok := StreamMapChunks(m, 100, procs == 2, ids)
			if !ok || len(got) != m || !slices.IsSorted(got) || got[0] != 0 || got[m-1] != m-1 {
				t.Errorf("GOMAXPROCS=%d n=%d: ok %v, %d elements", procs, m, ok, len(got))
			}
		}
		short := func(lo, hi int, buf []int) []int {
			out := ids(lo, hi, buf)
			if lo <= 70_000 && 70_000 < hi {
				return out[1:]
			}
			return out
		}
		if got, ok := StreamMapChunks(n, 100, false, short); ok || got != nil {
			t.Errorf("GOMAXPROCS=%d: a wrong length gives ok %v", procs, ok)
		}
		// A panic below the wrong length is the spec's first.
		below := func(lo, hi int, buf []int) []int {
			if lo <= 30_000 && 30_000 < hi {
				panic("at 30000")
			}
			return short(lo, hi, buf)
		}
		if v := panicValue(func() { StreamMapChunks(n, 100, false, below) }); v != "at 30000" {
			t.Errorf("GOMAXPROCS=%d: panic %v, want the lower chunk's", procs, v)
		}
	}
	if got, ok := StreamMapChunks(0, 1, false, ids); !ok || got == nil || len(got) != 0 {
		t.Errorf("empty input: %v %v, want an empty non-nil slice", got, ok)
	}
}
