// Package difftest compares a generated function with its spec on random
// inputs: the same results (floats bit for bit, nil and empty slices told
// apart), the same panic messages, and the same writes to the arguments.
// The rewrite package's differential tests, and the examples' tests, use
// it.
//
// Files: difftest.go (Run: the cases, sizes and trials, the heap's
// watch), random.go (Random: the arguments), compare.go (Compare,
// Chunking, Copy, Same), flat.go (the fast paths for slices of numbers and
// bools).
package difftest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
)

// Sizes are the input lengths every case is run with.
var Sizes = []int{0, 1, 7, 1000, 100000}

// Case is one spec and its generated function.
type Case struct {
	Name        string
	Spec, Fused any
	// Args, when non-nil, makes the arguments for size n; otherwise they
	// are random values of the parameter types, slices of length n (or,
	// in some trials, n+1, so that unequal lengths are tried too).
	Args func(r *rand.Rand, n int) []any
	// Allocs, when non-nil, returns a call of the generated function on
	// fixed arguments of size 1000; the call must allocate at most
	// MaxAllocs times (its outputs), whatever the size.
	Allocs    func(r *rand.Rand, n int) func()
	MaxAllocs float64
}

// Trials is the number of random inputs per size.
const Trials = 4

// MaxElements bounds the slice elements of one argument, counted at
// every depth (a [][]T of n rows holding m elements in all counts n+m):
// Random never makes more, so a [][]T of n rows has at most
// MaxElements/n - 1 elements a row, and Run fails a case whose Args hook
// makes more rather than let the test run out of memory.
const MaxElements = 1 << 20

// MaxHeap bounds the heap, in bytes, while Run runs: a case whose spec or
// generated function allocates more (a result of len(xs)×len(rows)
// elements on inputs of 1e5 each) ends the test binary with a message
// naming the case, the size and the trial, where the kernel would kill it
// for its memory with nothing but "signal: killed".
var MaxHeap uint64 = 4 << 30

// Run runs every case on random inputs of every size. A case stops at
// its first difference; the cases after it still run.
func Run(t *testing.T, cases []Case, r *rand.Rand) {
	t.Helper()
	for _, c := range cases {
		if c.Allocs != nil {
			for _, n := range []int{1000, 100000} {
				if got := testing.AllocsPerRun(50, c.Allocs(r, n)); got > c.MaxAllocs {
					t.Errorf("%s, n=%d: %v allocations per call, want at most %v", c.Name, n, got, c.MaxAllocs)
				}
			}
		}
		runCase(t, c, r)
	}
}

// runCase compares c's spec and generated function on random inputs of
// every size, under watchHeap (not while Run counts allocations: the
// watch allocates).
func runCase(t *testing.T, c Case, r *rand.Rand) {
	t.Helper()
	var at atomic.Pointer[string]
	stop := watchHeap(&at)
	defer stop()
	for _, n := range Sizes {
		for trial := 0; trial < Trials; trial++ {
			at.Store(ptr(fmt.Sprintf("%s, n=%d, trial %d", c.Name, n, trial)))
			var args []reflect.Value
			if c.Args != nil {
				for _, a := range c.Args(r, n) {
					args = append(args, reflect.ValueOf(a))
				}
			} else {
				ft := reflect.TypeOf(c.Spec)
				for i := 0; i < ft.NumIn(); i++ {
					m := n
					if trial == Trials-1 && r.IntN(2) == 0 {
						m++
					}
					args = append(args, Random(r, ft.In(i), m))
				}
			}
			for i, a := range args {
				if k := Elements(a); k > MaxElements {
					t.Errorf("%s, n=%d, trial %d: argument %d holds %d slice elements, over difftest.MaxElements (%d): bound the sizes of the case's Args hook", c.Name, n, trial, i, k, MaxElements)
					return
				}
			}
			if msg := Compare(c.Spec, c.Fused, args); msg != "" {
				t.Errorf("%s, n=%d, trial %d: %s", c.Name, n, trial, msg)
				return
			}
			if trial == 0 && n >= 2 {
				if msg := Chunking(c.Spec, args, n/3+1); msg != "" {
					t.Errorf("%s, n=%d, trial %d: %s", c.Name, n, trial, msg)
					return
				}
			}
		}
	}
}

func ptr(s string) *string { return &s }

// watchHeap checks the heap every few milliseconds until stop is called;
// over MaxHeap, it ends the process with a message naming what *at says
// runs.
func watchHeap(at *atomic.Pointer[string]) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			if used := sample[0].Value.Uint64(); used > MaxHeap {
				what := "(no case)"
				if p := at.Load(); p != nil {
					what = *p
				}
				fmt.Fprintf(os.Stderr, "difftest: %s: the heap holds %d MiB, over difftest.MaxHeap (%d MiB): the spec's or the generated function's results are too large for these inputs; bound the case's sizes\n", what, used>>20, MaxHeap>>20)
				os.Exit(3)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
