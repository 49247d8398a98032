package parallel

// Benchmarks of the parallel runtime against the sequential fused loop
// (cpu) and a hand-written goroutine loop (hand), for the kernels of
// kernels_test.go, plus a multi-core read-bandwidth reference and the cost
// of one split. Run them all in one run (BENCHMARKS.md):
//
//	go test -run '^$' -bench . -benchmem -cpu 1,2 ./runtime/parallel
//
// SOACGEN_PAR_N sets the large size (default 1e7 elements; Black-Scholes
// uses a tenth of it). Sizes: 1 and 1e3 (below every threshold: the
// sequential branch), 2*grain (the smallest size that is split), large.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
)

func largeN() int {
	if s := os.Getenv("SOACGEN_PAR_N"); s != "" {
		if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 1 {
			return int(f)
		}
	}
	return 10_000_000
}

var (
	dataMu   sync.Mutex
	floatsBy = map[int][]float64{}
	optsBy   = map[int][]option{}
)

// benchFloats returns n floats in [-1, 1), generated once per n (the
// second input of dot is the same slice shifted by one seed).
func benchFloats(n, seed int) []float64 {
	dataMu.Lock()
	defer dataMu.Unlock()
	key := n*4 + seed
	if xs, ok := floatsBy[key]; ok {
		return xs
	}
	r := rand.New(rand.NewPCG(uint64(n), uint64(seed)))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = 2*r.Float64() - 1
	}
	floatsBy[key] = xs
	return xs
}

func benchOptions(n int) []option {
	dataMu.Lock()
	defer dataMu.Unlock()
	if os, ok := optsBy[n]; ok {
		return os
	}
	r := rand.New(rand.NewPCG(uint64(n), 5))
	opts := make([]option, n)
	for i := range opts {
		opts[i] = option{S: 50 + 100*r.Float64(), K: 50 + 100*r.Float64(), T: 0.1 + 2*r.Float64(), R: 0.01 + 0.05*r.Float64(), V: 0.1 + 0.5*r.Float64()}
	}
	optsBy[n] = opts
	return opts
}

type sizeCase struct {
	name string
	n    int
}

func benchSizes(grain, large int) []sizeCase {
	return []sizeCase{{"n=1", 1}, {"n=1e3", 1000}, {"n=2grain", 2 * grain}, {fmt.Sprintf("n=%.0e", float64(large)), large}}
}

// runVariants runs one sub-benchmark per variant at each size; bytes is
// the number of input bytes per element (for MB/s).
func runVariants[R any](b *testing.B, grain, large, bytes int, variants []string, fns map[string]func(n int) func() R) {
	for _, sz := range benchSizes(grain, large) {
		b.Run(sz.name, func(b *testing.B) {
			for _, v := range variants {
				f := fns[v](sz.n)
				f() // warm: the heap has grown, the pool has started
				b.Run(v, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(bytes * sz.n))
					for b.Loop() {
						f()
					}
				})
			}
		})
	}
}

// withSpawn runs f with goroutines started per call instead of the pool.
func withSpawn[R any](f func() R) func() R {
	return func() R {
		spawnPerCall = true
		defer func() { spawnPerCall = false }()
		return f()
	}
}

func one(f func([]float64) float64) func(n int) func() float64 {
	return func(n int) func() float64 {
		xs := benchFloats(n, 1)
		return func() float64 { return f(xs) }
	}
}

func two(f func(xs, ys []float64) float64) func(n int) func() float64 {
	return func(n int) func() float64 {
		xs, ys := benchFloats(n, 1), benchFloats(n, 2)
		return func() float64 { return f(xs, ys) }
	}
}

func arr(f func([]float64) []float64) func(n int) func() []float64 {
	return func(n int) func() []float64 {
		xs := benchFloats(n, 1)
		return func() []float64 { return f(xs) }
	}
}

// into gives the variant writing into one output allocated outside the
// timed loop (name-reuse).
func into(f func(xs, out []float64) []float64) func(n int) func() []float64 {
	return func(n int) func() []float64 {
		xs, out := benchFloats(n, 1), make([]float64, n)
		return func() []float64 { return f(xs, out) }
	}
}

func BenchmarkSumSq(b *testing.B) {
	runVariants(b, grainLight, largeN(), 8, []string{"cpu", "par", "par4", "par-spawn", "hand"}, map[string]func(int) func() float64{
		"cpu": one(cpuSumSq), "par": one(parSumSq), "par4": one(par4SumSq), "hand": one(handSumSq),
		"par-spawn": func(n int) func() float64 { return withSpawn(one(parSumSq)(n)) },
	})
}

func BenchmarkDot(b *testing.B) {
	runVariants(b, grainLight, largeN(), 16, []string{"cpu", "par", "par4", "hand"}, map[string]func(int) func() float64{
		"cpu": two(cpuDot), "par": two(parDot), "par4": two(par4Dot), "hand": two(handDot),
	})
}

func BenchmarkScanMap(b *testing.B) {
	runVariants(b, grainScan, largeN(), 8, []string{"cpu", "par", "par3", "hand", "cpu-reuse", "par-reuse", "hand-reuse"}, map[string]func(int) func() []float64{
		"cpu": arr(cpuScanMap), "par": arr(parScanMap), "par3": arr(par3ScanMap), "hand": arr(handScanMap),
		"cpu-reuse": into(cpuScanMapInto), "par-reuse": into(parScanMapInto), "hand-reuse": into(handScanMapInto),
	})
}

func BenchmarkFilterMapReduce(b *testing.B) {
	runVariants(b, grainLight, largeN(), 8, []string{"cpu", "par", "hand"}, map[string]func(int) func() float64{
		"cpu": one(cpuSumSqPos), "par": one(parSumSqPos), "hand": one(handSumSqPos),
	})
}

func BenchmarkFilter(b *testing.B) {
	runVariants(b, grainLight, largeN(), 8, []string{"cpu", "par", "hand", "cpu-reuse", "par-reuse", "hand-reuse"}, map[string]func(int) func() []float64{
		"cpu": arr(cpuFilter), "par": arr(parFilter), "hand": arr(handFilter),
		"cpu-reuse": into(cpuFilterInto), "par-reuse": into(parFilterInto), "hand-reuse": into(handFilterInto),
	})
}

func BenchmarkBlackScholes(b *testing.B) {
	bs := func(f func([]option) float64) func(n int) func() float64 {
		return func(n int) func() float64 {
			opts := benchOptions(n)
			return func() float64 { return f(opts) }
		}
	}
	runVariants(b, grainBS, max(largeN()/10, 4*grainBS), 40, []string{"cpu", "par", "par-spawn", "hand"}, map[string]func(int) func() float64{
		"cpu": bs(cpuBS), "par": bs(parBS), "hand": bs(handBS),
		"par-spawn": func(n int) func() float64 { return withSpawn(bs(parBS)(n)) },
	})
}

// BenchmarkReadBandwidth is the multi-core read-bandwidth reference: its
// MB/s is what the memory-bound kernels' MB/s are compared with.
func BenchmarkReadBandwidth(b *testing.B) {
	n := largeN()
	xs := benchFloats(n, 1)
	b.Run(fmt.Sprintf("n=%.0e", float64(n)), func(b *testing.B) {
		b.SetBytes(int64(8 * n))
		for b.Loop() {
			handRead(xs)
		}
	})
}

// BenchmarkOverhead is the cost of one split: For over two chunks of one
// element, with the pool and with goroutines per call, beside the call of
// the same body with one chunk.
func BenchmarkOverhead(b *testing.B) {
	var sink [2]int
	body := func(lo, hi int) { sink[lo] = hi }
	b.Run("one-chunk", func(b *testing.B) {
		for b.Loop() {
			For(1, 1, body)
		}
	})
	b.Run("pool", func(b *testing.B) {
		for b.Loop() {
			For(2, 1, body)
		}
	})
	b.Run("spawn", func(b *testing.B) {
		spawnPerCall = true
		defer func() { spawnPerCall = false }()
		for b.Loop() {
			For(2, 1, body)
		}
	})
}

// TestKernelsAgree checks every benchmark variant against cpu: floats
// within rounding (they re-associate), filters exactly.
func TestKernelsAgree(t *testing.T) {
	if grainLight != Grain(1) || grainScan != Grain(2) || grainBS != Grain(40) {
		t.Fatalf("the benchmark grains are not Grain(1), Grain(2), Grain(40)")
	}
	for _, n := range []int{0, 1, 1000, 2*grainLight - 1, 2 * grainLight, 2*grainScan + 1, 3 * grainBS, 1_000_003} {
		if RaceEnabled && n > 2*grainLight {
			continue
		}
		xs, ys := benchFloats(n, 1), benchFloats(n, 2)
		near := func(name string, got, want float64) {
			if math.Abs(got-want) > 1e-9*float64(n+1) {
				t.Errorf("n=%d: %s = %v, cpu = %v", n, name, got, want)
			}
		}
		for name, f := range map[string]func([]float64) float64{"parSumSq": parSumSq, "par4SumSq": par4SumSq, "handSumSq": handSumSq} {
			near(name, f(xs), cpuSumSq(xs))
		}
		for name, f := range map[string]func(xs, ys []float64) float64{"parDot": parDot, "par4Dot": par4Dot, "handDot": handDot} {
			near(name, f(xs, ys), cpuDot(xs, ys))
		}
		for name, f := range map[string]func([]float64) float64{"parSumSqPos": parSumSqPos, "handSumSqPos": handSumSqPos} {
			near(name, f(xs), cpuSumSqPos(xs))
		}
		want := cpuScanMap(xs)
		for name, f := range map[string]func([]float64) []float64{"parScanMap": parScanMap, "par3ScanMap": par3ScanMap, "handScanMap": handScanMap} {
			got := f(xs)
			if len(got) != n {
				t.Fatalf("n=%d: %s has %d elements", n, name, len(got))
			}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-9*float64(n+1) {
					t.Fatalf("n=%d: %s[%d] = %v, cpu = %v", n, name, i, got[i], want[i])
				}
			}
		}
		wantF := cpuFilter(xs)
		for name, f := range map[string]func([]float64) []float64{"parFilter": parFilter, "handFilter": handFilter} {
			if got := f(xs); !slices.Equal(got, wantF) {
				t.Errorf("n=%d: %s differs from cpuFilter", n, name)
			}
		}
		opts := benchOptions(min(n, 100_000))
		near("parBS", parBS(opts), cpuBS(opts))
		near("handBS", handBS(opts), cpuBS(opts))
		near("handRead", handRead(xs), soacSum(xs))
	}
}

func soacSum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}
