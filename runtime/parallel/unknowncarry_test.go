package parallel_test

// A chunk waiting for its carry gives up when a chunk below it panics:
// its members never run from a carry its predecessors did not give (the
// result would be unused, and members running from a wrong carry do
// needless work or raise panics of their own). Mutants that run them
// anyway passed every other test of Carried, CarriedLocal, Scan, ScanExact
// and StreamCarried, and rewrite's TestTwoPanics (StreamCarried's).

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/soacgen/soacgen/runtime/parallel"
)

// panicBelow makes chunk pb of n elements in chunks of grain panic only
// once chunk pb+1 has begun its pass 1 (and so will wait for chunk pb's
// carry), and records every member that runs from a carry other than
// its lo (each element adds 1).
type panicBelow struct {
	plo, nlo int
	waiting  chan struct{}
	once     sync.Once
	mu       sync.Mutex
	wrong    []string
}

func newPanicBelow(n, grain, pb int) *panicBelow {
	k := parallel.Chunks(n, grain)
	plo, _ := parallel.Bounds(n, k, pb)
	nlo, _ := parallel.Bounds(n, k, pb+1)
	return &panicBelow{plo: plo, nlo: nlo, waiting: make(chan struct{})}
}

// pass1 is called as a chunk's pass 1 begins; the chunk pb panics there.
func (b *panicBelow) pass1(lo int) {
	if lo == b.nlo {
		b.once.Do(func() { close(b.waiting) })
	}
	if lo == b.plo {
		// Another goroutine runs chunk pb+1 where there is one; else
		// stop waiting (there is then nothing to check).
		select {
		case <-b.waiting:
		case <-time.After(2 * time.Second):
		}
		panic("pass 1")
	}
}

// member is called as a chunk's pass 2 begins.
func (b *panicBelow) member(lo, hi, carry int) {
	if carry != lo {
		b.mu.Lock()
		b.wrong = append(b.wrong, fmt.Sprintf("[%d, %d) from carry %d", lo, hi, carry))
		b.mu.Unlock()
	}
}

// recovered runs f and returns whether it panicked.
func recovered(f func()) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	f()
	return false
}

func TestNoUnknownCarry(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const n, grain = 10_000, 100
	k := parallel.Chunks(n, grain)
	add := func(a, b int) int { return a + b }
	// Pass 1 runs in every chunk only for Scan and a stream: Carried's
	// chunk 0 has its carry, and with exact a chunk whose carry is known
	// as it starts skips pass 1 (timing decides which).
	ops := []struct {
		name  string
		every bool
		run   func(b *panicBelow, exact bool) bool // reports whether the call failed
	}{
		{"Carried", false, func(b *panicBelow, exact bool) bool {
			return recovered(func() {
				parallel.Carried(n, grain, 0, exact, func(lo, hi int) int { b.pass1(lo); return hi - lo }, add,
					func(lo, hi, carry int) (int, int) { b.member(lo, hi, carry); return carry + hi - lo, 0 }, add)
			})
		}},
		{"CarriedLocal", false, func(b *panicBelow, exact bool) bool {
			return recovered(func() {
				parallel.CarriedLocal(n, grain, 0, exact, func(lo, hi int) int { b.pass1(lo); return hi - lo }, add,
					func(lo, hi, carry int) (int, int) { b.member(lo, hi, carry); return carry + hi - lo, 0 },
					func(lo, hi, carry int) int { b.member(lo, hi, carry); return 0 }, add)
			})
		}},
		{"Scan", true, func(b *panicBelow, exact bool) bool {
			return recovered(func() {
				parallel.Scan(n, grain, func(lo, hi int) int { b.pass1(lo); return hi - lo },
					func(lo, hi, carry int) { b.member(lo, hi, carry) }, add)
			})
		}},
		{"ScanExact", true, func(b *panicBelow, exact bool) bool {
			return recovered(func() {
				parallel.ScanExact(n, grain, 0, func(lo, hi, start int) int { b.pass1(lo); return start + hi - lo },
					func(lo, hi, carry int) { b.member(lo, hi, carry) }, add)
			})
		}},
		{"StreamCarried, the stream panicking", true, func(b *panicBelow, exact bool) bool {
			_, _, ok := parallel.StreamCarried(n, grain, false, 0, exact,
				func(lo, hi int, _ []int) ([]int, bool) { b.pass1(lo); return make([]int, hi-lo), true },
				func(ys []int, lo, hi int) int { return len(ys) }, add,
				func(ys []int, lo, hi int, carry int) (int, int) { b.member(lo, hi, carry); return carry + len(ys), 0 }, add)
			return !ok
		}},
		{"StreamCarried, a total panicking", false, func(b *panicBelow, exact bool) bool {
			_, _, ok := parallel.StreamCarried(n, grain, false, 0, exact,
				func(lo, hi int, _ []int) ([]int, bool) { return make([]int, hi-lo), true },
				func(ys []int, lo, hi int) int { b.pass1(lo); return len(ys) }, add,
				func(ys []int, lo, hi int, carry int) (int, int) { b.member(lo, hi, carry); return carry + len(ys), 0 }, add)
			return !ok
		}},
	}
	for _, op := range ops {
		for _, exact := range []bool{false, true} {
			for _, pb := range []int{0, 1, k / 2, k - 2} {
				if !op.every && (exact || pb == 0) {
					continue
				}
				b := newPanicBelow(n, grain, pb)
				if !op.run(b, exact) {
					t.Errorf("%s, exact %v, chunk %d panicking: no failure", op.name, exact, pb)
				}
				if len(b.wrong) > 0 {
					t.Errorf("%s, exact %v, chunk %d panicking: members ran %v", op.name, exact, pb, b.wrong)
				}
			}
		}
	}
}
