package extest

// This file times two functions against each other for the benchmarks
// whose ratio matters more than either time (clbench's
// BenchmarkAutoPaired, smallbench's BenchmarkSmallPaired): in turns, so
// that the host's drift over a run (turbo, other load, the collector)
// falls on both alike, and by medians, so that a turn the scheduler
// delays by far more than its own time moves the result little.

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// Paired runs b.N turns, each calls calls of x then calls of y (y first
// on odd turns), and returns the medians of x's and y's time a call per
// turn (ns) and of the turns' ratios y/x. It resets b's timer first.
func Paired(b *testing.B, calls int, x, y func()) (xNs, yNs, ratio float64) {
	timed := func(f func()) float64 {
		t0 := time.Now()
		for range calls {
			f()
		}
		return float64(time.Since(t0)) / float64(calls)
	}
	xs, ys, rs := make([]float64, 0, b.N), make([]float64, 0, b.N), make([]float64, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		var tx, ty float64
		if i%2 == 0 {
			tx, ty = timed(x), timed(y)
		} else {
			ty, tx = timed(y), timed(x)
		}
		xs, ys, rs = append(xs, tx), append(ys, ty), append(rs, ty/tx)
	}
	b.StopTimer()
	return median(xs), median(ys), median(rs)
}

// median returns the median of xs, which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// Rounds runs b.N rounds, each calls calls of every function of fs in
// turn, starting round i at fs[i%len(fs)] so that no function always runs
// first, and returns each round's time a call (ns) per function:
// samples[f][round]. It resets b's timer first. Where more than two
// variants are compared (clbench's BenchmarkAutoRounds: opencl, parallel
// and auto), it serves as Paired does for two.
func Rounds(b *testing.B, calls int, fs ...func()) (samples [][]float64) {
	return RoundsWith(b, RoundsOptions{}, calls, fs...)
}

// RoundsOptions change how RoundsWith samples.
type RoundsOptions struct {
	// Warm untimed calls of each function come before its timed ones in
	// every round: its samples are its time in a run of its own calls,
	// as a program that calls one of them repeatedly sees it, still
	// taken side by side (Rounds's first call of a function follows
	// another function's call: what After measures).
	Warm int
	// GC runs the collector (runtime.GC, untimed) before each function's
	// calls in every round: a collection that the calls' allocations
	// start then falls where they would start it from an empty heap,
	// not where the rounds' period puts it. Without it, a function
	// allocating less than the heap's goal per call finds collections
	// started by the others' garbage at positions that repeat with the
	// rounds (on the 2-core VM, Normalize2's variants at 1e5, 1.6 MB a
	// call: the same code 0.4 or 2.5 ms by position, BENCHMARKS.md).
	GC bool
}

// RoundsWith is Rounds with the options o.
func RoundsWith(b *testing.B, o RoundsOptions, calls int, fs ...func()) (samples [][]float64) {
	samples = make([][]float64, len(fs))
	for f := range samples {
		samples[f] = make([]float64, 0, b.N)
	}
	b.ResetTimer()
	for i := range b.N {
		for j := range fs {
			f := (i + j) % len(fs)
			for range o.Warm {
				fs[f]()
			}
			if o.GC {
				b.StopTimer()
				runtime.GC()
				b.StartTimer()
			}
			t0 := time.Now()
			for range calls {
				fs[f]()
			}
			samples[f] = append(samples[f], float64(time.Since(t0))/float64(calls))
		}
	}
	b.StopTimer()
	return samples
}

// Median returns the median of xs without changing xs.
func Median(xs []float64) float64 { return median(slices.Clone(xs)) }

// After returns the samples of function f of a Rounds run (samples, its
// result, over k = len(samples) functions) taken right after a call of
// function g: in round i, f runs at position (f-i) mod k, after the
// function before it in the round, or, first in the round, after the
// previous round's last function, (i-1+k-1) mod k. Round 0's first
// function follows nothing timed and is left out. Comparing After(s, f,
// g) over g shows whether a function's time depends on what ran just
// before it (a GPU call after a call on every core, and the like).
func After(samples [][]float64, f, g int) []float64 {
	k := len(samples)
	var out []float64
	for i, x := range samples[f] {
		j := ((f-i)%k + k) % k
		var prev int
		switch {
		case j > 0:
			prev = (i + j - 1) % k
		case i > 0:
			prev = (i - 1 + k - 1) % k
		default:
			continue
		}
		if prev == g {
			out = append(out, x)
		}
	}
	return out
}
