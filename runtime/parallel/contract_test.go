package parallel_test

// Tests of promises of this package's doc comments that the other tests
// left unchecked: each was found by a mutant of the code (a flipped
// comparison, a dropped operand) that every other test passed.

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/soacgen/soacgen/runtime/parallel"
)

// TestSequentialIsOneChunk: Sequential(n, grain) holds exactly when
// Chunks(n, grain) is 1, as generated code relies on (its sequential loop
// where the operation would call its body once over [0, n)).
func TestSequentialIsOneChunk(t *testing.T) {
	for _, grain := range []int{-1, 0, 1, 2, 3, 10, 1000} {
		for n := -1; n <= 4*max(grain, 1)+3; n++ {
			if seq, one := parallel.Sequential(n, grain), parallel.Chunks(n, grain) == 1; seq != one {
				t.Errorf("n=%d grain=%d: Sequential %v, Chunks %d", n, grain, seq, parallel.Chunks(n, grain))
			}
		}
	}
}

// TestChunkGrainAtLeastOne: ChunkGrain is grain/ChunksPerGrain, at least 1
// (generated code passes it on as a grain).
func TestChunkGrainAtLeastOne(t *testing.T) {
	for _, g := range []int{-5, 0, 1, parallel.ChunksPerGrain - 1, parallel.ChunksPerGrain, 1000} {
		if got, want := parallel.ChunkGrain(g), max(1, g/parallel.ChunksPerGrain); got != want {
			t.Errorf("ChunkGrain(%d) = %d, want %d", g, got, want)
		}
	}
}

// TestFilterShortOutput: Filter and FilterFold with an output shorter than
// n panic, as the sequential loop's out[n-1] would, before any chunk runs.
func TestFilterShortOutput(t *testing.T) {
	const n, grain = 1000, 10
	for name, f := range map[string]func(out []int, ran *bool){
		"Filter": func(out []int, ran *bool) {
			parallel.Filter(n, grain, out, func(lo, hi int, dst []int) int { *ran = true; return 0 })
		},
		"FilterFold": func(out []int, ran *bool) {
			parallel.FilterFold(n, grain, out, func(lo, hi int, dst []int) (int, int) { *ran = true; return 0, 0 }, func(a, b int) int { return a + b })
		},
	} {
		ran := false
		got := catch(func() { f(make([]int, n/2), &ran) })
		e, ok := got.(runtime.Error)
		if !ok || !strings.Contains(e.Error(), fmt.Sprintf("index out of range [%d] with length %d", n-1, n/2)) {
			t.Errorf("%s with a short output: panic %v, want index out of range [%d] with length %d", name, got, n-1, n/2)
		}
		if ran {
			t.Errorf("%s with a short output: a chunk ran before the panic", name)
		}
	}
}

// TestStreamRedEmptyChunkFirst: StreamRed folds f(empty) first, also when
// the input is one chunk: f(empty) ⊕ f(xs).
func TestStreamRedEmptyChunkFirst(t *testing.T) {
	f := func(ch []int) []int { return []int{len(ch)} } // f(empty) = [0]
	op := func(a, b []int) []int { return append(slices.Clip(a), b...) }
	for _, n := range []int{1, 7, 100_000} {
		xs := make([]int, n)
		got := parallel.StreamRed(xs, 1_000, op, f)
		if len(got) == 0 || got[0] != 0 || len(got) == 1 {
			t.Errorf("n=%d: StreamRed gives %v, want f(empty) = [0] folded first, then the chunks", n, got[:min(len(got), 5)])
		}
		sum := 0
		for _, c := range got {
			sum += c
		}
		if sum != n {
			t.Errorf("n=%d: the chunks' lengths add up to %d", n, sum)
		}
	}
}

// TestStreamMapChunkCapacity: a chunk passed to StreamMap's f has no
// capacity beyond its end, so f appending to it cannot write its
// successor's elements (soac.StreamMap's chunks are capped too).
func TestStreamMapChunkCapacity(t *testing.T) {
	const n, grain = 10_000, 100
	xs := make([]int, n)
	for i := range xs {
		xs[i] = i
	}
	ys := parallel.StreamMap(xs, grain, func(ch []int) []int {
		if cap(ch) != len(ch) {
			panic(fmt.Sprintf("chunk of length %d has capacity %d", len(ch), cap(ch)))
		}
		ch = append(ch, -1) // a copy: the input is untouched
		return ch[:len(ch)-1]
	})
	for i := range xs {
		if xs[i] != i || ys[i] != i {
			t.Fatalf("xs[%d] = %d, ys[%d] = %d, want %d", i, xs[i], i, ys[i], i)
		}
	}
}

// TestStreamMapOrEmpty: StreamMapOr of an empty input returns ref()'s
// result itself (the spec's calls decide nil or empty).
func TestStreamMapOrEmpty(t *testing.T) {
	f := func(ch []int) []int { return ch }
	for _, xs := range [][]int{nil, {}} {
		if got := parallel.StreamMapOr(xs, 10, f, func() []int { return nil }); got != nil {
			t.Errorf("StreamMapOr(%#v) with ref giving nil: %#v", xs, got)
		}
		if got := parallel.StreamMapOr(xs, 10, f, func() []int { return []int{42} }); !slices.Equal(got, []int{42}) {
			t.Errorf("StreamMapOr(%#v) with ref giving [42]: %#v", xs, got)
		}
	}
}

// chunkList is a partial result that records which chunks made it, in
// order: combining two lists is not commutative.
type chunkList []int

func concat(a, b chunkList) chunkList { return append(slices.Clip(a), b...) }

// TestCarriedPartialsInOrder: Carried, CarriedLocal and CarriedLevels
// combine the chunks' partial results left to right in chunk order (comb
// need not commute), exact or not, and return the state after the last
// element.
func TestCarriedPartialsInOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const grain = 10
	total := func(lo, hi int) int { return hi - lo }
	body := func(lo, hi, carry int) (int, chunkList) { return carry + hi - lo, chunkList{lo} }
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 19, 20, 1000, 100_003} {
			k := parallel.Chunks(n, grain)
			var want chunkList
			for c := range k {
				lo, _ := parallel.Bounds(n, k, c)
				want = append(want, lo)
			}
			check := func(name string, end int, got chunkList) {
				t.Helper()
				if end != 5+n || !slices.Equal(got, want) {
					t.Errorf("GOMAXPROCS %d n %d: %s ends at %d with chunks %v, want %d and %v", procs, n, name, end, got[:min(len(got), 5)], 5+n, want[:min(len(want), 5)])
				}
			}
			for _, exact := range []bool{false, true} {
				end, got := parallel.Carried(n, grain, 5, exact, total, addInt, body, concat)
				check(fmt.Sprintf("Carried (exact %v)", exact), end, got)
				end, got = parallel.CarriedLocal(n, grain, 5, exact, total, addInt, body, func(lo, hi, carry int) chunkList { return chunkList{lo} }, concat)
				check(fmt.Sprintf("CarriedLocal (exact %v)", exact), end, got)
			}
			end, got := parallel.CarriedLevels(n, grain, 2, 5,
				func(level, lo, hi, carry int) int { return hi - lo },
				func(level, a, b int) int { return a + b },
				func(level, carry, c int) int { return c },
				body, concat)
			check("CarriedLevels", end, got)
		}
	}
}

// TestPanicLowestIndexFirst makes the lowest index (5, in chunk 0) panic
// first and a higher one (15, in chunk 1, already running) after it: the
// caller still gets the lowest index's value, not the last panic's.
func TestPanicLowestIndexFirst(t *testing.T) {
	const n, grain = 1000, 10
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs a worker beside the caller")
	}
	low, high := &boom{5}, &boom{15}
	for name, run := range map[string]func(elem func(int)){
		"For": func(elem func(int)) { parallel.For(n, grain, func(lo, hi int) { each(lo, hi, elem) }) },
		"Reduce": func(elem func(int)) {
			parallel.Reduce(n, grain, func(lo, hi int) int { each(lo, hi, elem); return 0 }, addInt)
		},
		"Scan": func(elem func(int)) {
			parallel.Scan(n, grain, func(lo, hi int) int { each(lo, hi, elem); return 0 }, func(lo, hi, carry int) {}, addInt)
		},
		"Filter": func(elem func(int)) {
			parallel.Filter(n, grain, make([]int, n), func(lo, hi int, dst []int) int { each(lo, hi, elem); return 0 })
		},
	} {
		started, lowPanics := make(chan struct{}), make(chan struct{})
		got := catch(func() {
			run(func(i int) {
				switch i {
				case 5:
					// Wait (at most 5 s, for a run in which no worker
					// took part) until index 15's chunk runs, then panic.
					select {
					case <-started:
					case <-time.After(5 * time.Second):
					}
					close(lowPanics)
					panic(low)
				case 15:
					close(started)
					<-lowPanics
					time.Sleep(20 * time.Millisecond) // let index 5's panic be recorded first
					panic(high)
				}
			})
		})
		if got != low {
			t.Errorf("%s: recovered %v, want index 5's value", name, got)
		}
	}
}

func each(lo, hi int, elem func(int)) {
	for i := lo; i < hi; i++ {
		elem(i)
	}
}

func addInt(a, b int) int { return a + b }
