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
	// call: the same code 0.4 or 2.5 ms by position, 2026-11-26).
	GC bool
}

// RoundsWith is Rounds with the options o.
func RoundsWith(b *testing.B, o RoundsOptions, calls int, fs ...func()) (samples [][]float64) {
	samples, _ = rounds(b, o, calls, false, fs)
	return samples
}

// rounds runs RoundsWith's rounds and returns each function's time a
// call per round (ns), wall[f][round], and, when withCPU is set, the
// process's CPU time a call over the same calls, cpu[f][round] (nil
// otherwise). It resets b's timer first.
func rounds(b *testing.B, o RoundsOptions, calls int, withCPU bool, fs []func()) (wall, cpu [][]float64) {
	wall, cpu = make([][]float64, len(fs)), make([][]float64, len(fs))
	for f := range fs {
		wall[f] = make([]float64, 0, b.N)
		if withCPU {
			cpu[f] = make([]float64, 0, b.N)
		}
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
			var c0 int64
			if withCPU {
				c0 = processCPU()
			}
			t0 := time.Now()
			for range calls {
				fs[f]()
			}
			wall[f] = append(wall[f], float64(time.Since(t0))/float64(calls))
			if withCPU {
				cpu[f] = append(cpu[f], float64(processCPU()-c0)/float64(calls))
			}
		}
	}
	b.StopTimer()
	return wall, cpu
}

// Median returns the median of xs without changing xs.
func Median(xs []float64) float64 { return median(slices.Clone(xs)) }

// Turns holds the times a call (ns) of each function of PairedN, one
// row per turn.
type Turns [][]float64

// Median returns the median time a call of function i over the turns.
func (ts Turns) Median(i int) float64 {
	xs := make([]float64, len(ts))
	for t, row := range ts {
		xs[t] = row[i]
	}
	return median(xs)
}

// Ratio returns the median over the turns of function i's time divided
// by function j's.
func (ts Turns) Ratio(i, j int) float64 {
	xs := make([]float64, len(ts))
	for t, row := range ts {
		xs[t] = row[i] / row[j]
	}
	return median(xs)
}

// PairedN is Paired for several functions, Rounds's rounds read as
// turns: each of b.N turns calls every function calls times, starting
// from a different one each turn (turn t starts at fs[t%len(fs)] and
// goes round), and it returns each turn's wall time a call of each
// function (ns) and the process's CPU time a call over all its threads
// (ns; 0 where it is not read): on a host that other work loads, the
// CPU time of a call still counts only what the call's own goroutines
// ran. It resets b's timer first.
func PairedN(b *testing.B, calls int, fs ...func()) (wall, cpu Turns) {
	w, c := rounds(b, RoundsOptions{}, calls, true, fs)
	return turns(w), turns(c)
}

// turns returns samples[f][round] as one row per round.
func turns(samples [][]float64) Turns {
	if len(samples) == 0 {
		return nil
	}
	ts := make(Turns, len(samples[0]))
	for t := range ts {
		ts[t] = make([]float64, len(samples))
		for f := range samples {
			ts[t][f] = samples[f][t]
		}
	}
	return ts
}

// Variant is one function timed by ParPaired beside cpu, parallel and
// the hand goroutine loop.
type Variant struct {
	Name string
	Fn   func()
}

// pairedBlockNanos is about how long ParPaired's block of calls of one
// function takes at least: long against the clock's reading.
const pairedBlockNanos = 2_000_000

// ParPaired times the cpu backend's, the parallel backend's and the hand
// goroutine loop's function (and any extra variants) in turns (PairedN;
// b.N counts turns; each turn a block of calls of each of about 2 ms or
// one call) and reports each one's median time a call (cpu-ns, par-ns,
// hand-ns, <name>-ns), the medians of the turns' ratios cpu/par (the
// speedup) and par/hand (the goal: at most 1.05), and <name>/par for
// each extra variant; and the same ratios of the CPU time a call
// (par-cpu/cpu-cpu: the work parallel adds to cpu's, spinning included;
// par-cpu/hand-cpu; <name>-cpu/par-cpu), which other load on the host
// moves much less than the wall times.
func ParPaired(b *testing.B, cpu, par, hand func(), extra ...Variant) {
	fs := []func(){cpu, par, hand}
	for _, v := range extra {
		fs = append(fs, v.Fn)
	}
	calls := 1
	for {
		t0 := time.Now()
		for range calls {
			par()
		}
		if time.Since(t0) >= pairedBlockNanos || calls >= 1<<20 {
			break
		}
		calls *= 2
	}
	ts, cs := PairedN(b, calls, fs...)
	b.ReportMetric(ts.Median(0), "cpu-ns")
	b.ReportMetric(ts.Median(1), "par-ns")
	b.ReportMetric(ts.Median(2), "hand-ns")
	b.ReportMetric(ts.Ratio(0, 1), "cpu/par")
	b.ReportMetric(ts.Ratio(1, 2), "par/hand")
	b.ReportMetric(cs.Ratio(1, 0), "par-cpu/cpu-cpu")
	b.ReportMetric(cs.Ratio(1, 2), "par-cpu/hand-cpu")
	for i, v := range extra {
		b.ReportMetric(ts.Median(3+i), v.Name+"-ns")
		b.ReportMetric(ts.Ratio(3+i, 1), v.Name+"/par")
		b.ReportMetric(cs.Ratio(3+i, 1), v.Name+"-cpu/par-cpu")
	}
}

// PairedSizes are ParPaired's sizes: 1e5, 1e6 and 1e7.
var PairedSizes = []BenchSize{{"n=1e5", 100_000}, {"n=1e6", 1_000_000}, {"n=1e7", 10_000_000}}

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
