package extest

// This file holds the hand-written goroutine loops that the examples'
// parallel benchmarks compare the parallel backend with: what a good Go
// programmer writes without a runtime — one chunk per core (GOMAXPROCS),
// a goroutine each, a sync.WaitGroup, partial results combined in order.
// They are benchmark baselines, not part of any example's API.

import (
	"runtime"
	"sync"
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

// ParBenchSizes are the sizes of the parallel benchmarks: 1 and 1e3 (the
// sequential path: its cost over cpu is the check), 1e6 (split).
var ParBenchSizes = []BenchSize{{"n=1", 1}, {"n=1e3", 1_000}, {"n=1e6", 1_000_000}}
