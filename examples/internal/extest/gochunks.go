package extest

// This file holds the hand-written goroutine loops that the examples'
// parallel benchmarks compare the parallel backend with: what a good Go
// programmer writes without a runtime — one chunk per core (GOMAXPROCS),
// a goroutine each, a sync.WaitGroup, partial results combined in order.
// They are benchmark baselines, not part of any example's API.

import (
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// GoFor runs body over [0, n) in GOMAXPROCS chunks, one goroutine each.
func GoFor(n int, body func(lo, hi int)) {
	p := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for c := range p {
		lo, hi := c*n/p, (c+1)*n/p
		wg.Go(func() { body(lo, hi) })
	}
	wg.Wait()
}

// GoReduce runs body over GOMAXPROCS chunks of [0, n), one goroutine
// each, and folds the partial results in chunk order with op.
func GoReduce[A any](n int, body func(lo, hi int) A, op func(A, A) A) A {
	p := runtime.GOMAXPROCS(0)
	parts := make([]A, p)
	var wg sync.WaitGroup
	for c := range p {
		lo, hi := c*n/p, (c+1)*n/p
		wg.Go(func() { parts[c] = body(lo, hi) })
	}
	wg.Wait()
	acc := parts[0]
	for _, x := range parts[1:] {
		acc = op(acc, x)
	}
	return acc
}

// GoScan is the two-pass scan a Go programmer writes: each goroutine
// scans its chunk (scan returns the chunk's total), the totals are folded
// in order, then each goroutine adds its carry (fix).
func GoScan[A any](n int, scan func(lo, hi int) A, fix func(lo, hi int, carry A), op func(A, A) A) {
	p := runtime.GOMAXPROCS(0)
	totals := make([]A, p)
	var wg sync.WaitGroup
	for c := range p {
		lo, hi := c*n/p, (c+1)*n/p
		wg.Go(func() { totals[c] = scan(lo, hi) })
	}
	wg.Wait()
	carry := totals[0]
	for c := 1; c < p; c++ {
		lo, hi := c*n/p, (c+1)*n/p
		cr := carry
		wg.Go(func() { fix(lo, hi, cr) })
		carry = op(carry, totals[c])
	}
	wg.Wait()
}

// GoFilterFold is the order-keeping filter a Go programmer writes: each
// goroutine compacts its chunk into a buffer of its own (body returns
// the kept elements and the chunk's partial result), then the buffers are
// copied in chunk order into one output, again a goroutine per chunk,
// and the partials are folded in order with op.
func GoFilterFold[T, A any](n int, body func(lo, hi int) ([]T, A), op func(A, A) A) ([]T, A) {
	p := runtime.GOMAXPROCS(0)
	bufs, parts := make([][]T, p), make([]A, p)
	var wg sync.WaitGroup
	for c := range p {
		lo, hi := c*n/p, (c+1)*n/p
		wg.Go(func() { bufs[c], parts[c] = body(lo, hi) })
	}
	wg.Wait()
	total := 0
	for _, b := range bufs {
		total += len(b)
	}
	out := make([]T, total)
	off := 0
	for _, b := range bufs {
		at := off
		wg.Go(func() { copy(out[at:], b) })
		off += len(b)
	}
	wg.Wait()
	acc := parts[0]
	for _, x := range parts[1:] {
		acc = op(acc, x)
	}
	return out, acc
}

// ParBenchSizes are the sizes of the parallel benchmarks: 1 and 1e3 (the
// sequential path: its cost over cpu is the check), 1e6 (split), and
// 1e7 when the environment sets SOACGEN_PAR_1E7 (scans and filters,
// whose outputs are 80-160 MB there).
var ParBenchSizes = parBenchSizes()

func parBenchSizes() []BenchSize {
	s := []BenchSize{{"n=1", 1}, {"n=1e3", 1_000}, {"n=1e6", 1_000_000}}
	if os.Getenv("SOACGEN_PAR_1E7") != "" {
		s = append(s, BenchSize{"n=1e7", 10_000_000})
	}
	return s
}

// ReadBandwidth reads every element of each slice once on all cores
// (GOMAXPROCS chunks, a goroutine each, eight independent accumulators
// per chunk so that no add chain bounds it) and returns their sum. It is
// the memory-bound benchmarks' ceiling: the multi-core read bandwidth of
// the same bytes, measured in the same run (the goal: "≥ 80% of the
// read bandwidth").
func ReadBandwidth(xss ...[]float64) float64 {
	n := 0
	if len(xss) > 0 {
		n = len(xss[0])
	}
	return GoReduce(n, func(lo, hi int) float64 {
		s := 0.0
		for _, xs := range xss {
			s += read8(xs[lo:hi])
		}
		return s
	}, func(a, b float64) float64 { return a + b })
}

// read8 sums xs with eight independent accumulators: eight scalars, which
// the compiler keeps in registers.
func read8(xs []float64) float64 {
	var a0, a1, a2, a3, a4, a5, a6, a7 float64
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		a0 += xs[i]
		a1 += xs[i+1]
		a2 += xs[i+2]
		a3 += xs[i+3]
		a4 += xs[i+4]
		a5 += xs[i+5]
		a6 += xs[i+6]
		a7 += xs[i+7]
	}
	for ; i < len(xs); i++ {
		a0 += xs[i]
	}
	return ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7))
}

// GoChunks runs chunk(c) for c in [0, k) on GOMAXPROCS goroutines started
// per call, each claiming the next chunk from one atomic counter: the hand
// loop with runtime/parallel's decomposition (k chunks, results per chunk)
// but none of its machinery (no pool, no panic handling), to tell what the
// decomposition costs from what the runtime costs.
func GoChunks(k int, chunk func(c int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(k, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for c := int(next.Add(1) - 1); c < k; c = int(next.Add(1) - 1) {
				chunk(c)
			}
		})
	}
	wg.Wait()
}
