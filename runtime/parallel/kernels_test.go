package parallel

// The benchmark kernels, each in the forms bench_test.go compares:
//
//   - cpu: the sequential fused loop, as the cpu backend generates it
//     (examples/*/*_soac.go);
//   - par: the runtime-based version as the parallel backend will generate
//     it: the same loop body inlined into a chunk body, the sequential
//     loop inline below the threshold (Sequential);
//   - par4 (memory-bound reductions): the chunk body with four
//     accumulators, the re-association docs/contract.md allows;
//   - hand: what a good Go programmer writes: one chunk per core
//     (GOMAXPROCS goroutines, a sync.WaitGroup), the same loop body.
//
// TestKernelsAgree checks that every form computes what cpu computes.

import (
	"math"
	"runtime"
	"sync"
)

// Grains, Grain(nanosPerElem) for the generator's kind of estimate of the
// nanoseconds per element of each loop body on one core, written as
// constants as generated code will write them (Sequential is then one
// comparison). TestKernelsAgree checks them against Grain.
const (
	grainLight = MinChunkNanos / 1  // sum of squares, dot, filter-map-reduce
	grainScan  = MinChunkNanos / 2  // scan of a map: the local scan and the fix-up
	grainBS    = MinChunkNanos / 40 // Black-Scholes: log, sqrt, exp, two erf
)

func add(a, b float64) float64 { return a + b }

// handChunks runs body over GOMAXPROCS equal chunks, one goroutine each.
func handChunks(n int, body func(w, lo, hi int)) int {
	p := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range p {
		wg.Go(func() { body(w, w*n/p, (w+1)*n/p) })
	}
	wg.Wait()
	return p
}

// handSum runs body over GOMAXPROCS equal chunks, one goroutine each, and
// adds up the chunks' results in order.
func handSum(n int, body func(lo, hi int) float64) float64 {
	parts := make([]float64, runtime.GOMAXPROCS(0))
	handChunks(n, func(w, lo, hi int) { parts[w] = body(lo, hi) })
	sum := 0.0
	for _, p := range parts {
		sum += p
	}
	return sum
}

// ---- sum of squares

func cpuSumSq(xs []float64) float64 {
	n := len(xs)
	in := xs[:n]
	var acc float64 = 0.0
	for i := 0; i < n; i++ {
		x := in[i]
		acc = acc + x*x
	}
	return acc
}

func parSumSq(xs []float64) float64 {
	n := len(xs)
	if Sequential(n, grainLight) {
		in := xs[:n]
		var acc float64 = 0.0
		for i := 0; i < n; i++ {
			x := in[i]
			acc = acc + x*x
		}
		return acc
	}
	return Reduce(n, grainLight, func(lo, hi int) float64 {
		in := xs[lo:hi]
		var acc float64 = 0.0
		for i := 0; i < len(in); i++ {
			x := in[i]
			acc = acc + x*x
		}
		return acc
	}, add)
}

// sumSq4 is the four-accumulator chunk body.
func sumSq4(in []float64) float64 {
	var a0, a1, a2, a3 float64
	i := 0
	for ; i+4 <= len(in); i += 4 {
		a0 += in[i] * in[i]
		a1 += in[i+1] * in[i+1]
		a2 += in[i+2] * in[i+2]
		a3 += in[i+3] * in[i+3]
	}
	for ; i < len(in); i++ {
		a0 += in[i] * in[i]
	}
	return (a0 + a1) + (a2 + a3)
}

func par4SumSq(xs []float64) float64 {
	n := len(xs)
	if Sequential(n, grainLight) {
		return sumSq4(xs)
	}
	return Reduce(n, grainLight, func(lo, hi int) float64 { return sumSq4(xs[lo:hi]) }, add)
}

func handSumSq(xs []float64) float64 {
	return handSum(len(xs), func(lo, hi int) float64 { return cpuSumSq(xs[lo:hi]) })
}

// ---- dot product

func cpuDot(xs, ys []float64) float64 {
	n := len(xs)
	in, in2 := xs[:n], ys[:n]
	var acc float64 = 0.0
	for i := 0; i < n; i++ {
		acc = acc + in[i]*in2[i]
	}
	return acc
}

func parDot(xs, ys []float64) float64 {
	n := len(xs)
	if Sequential(n, grainLight) {
		in, in2 := xs[:n], ys[:n]
		var acc float64 = 0.0
		for i := 0; i < n; i++ {
			acc = acc + in[i]*in2[i]
		}
		return acc
	}
	return Reduce(n, grainLight, func(lo, hi int) float64 {
		in, in2 := xs[lo:hi], ys[lo:hi]
		var acc float64 = 0.0
		for i := 0; i < len(in); i++ {
			acc = acc + in[i]*in2[i]
		}
		return acc
	}, add)
}

func dot4(in, in2 []float64) float64 {
	in2 = in2[:len(in)]
	var a0, a1, a2, a3 float64
	i := 0
	for ; i+4 <= len(in); i += 4 {
		a0 += in[i] * in2[i]
		a1 += in[i+1] * in2[i+1]
		a2 += in[i+2] * in2[i+2]
		a3 += in[i+3] * in2[i+3]
	}
	for ; i < len(in); i++ {
		a0 += in[i] * in2[i]
	}
	return (a0 + a1) + (a2 + a3)
}

func par4Dot(xs, ys []float64) float64 {
	n := len(xs)
	if Sequential(n, grainLight) {
		return dot4(xs, ys)
	}
	return Reduce(n, grainLight, func(lo, hi int) float64 { return dot4(xs[lo:hi], ys[lo:hi]) }, add)
}

func handDot(xs, ys []float64) float64 {
	return handSum(len(xs), func(lo, hi int) float64 { return cpuDot(xs[lo:hi], ys[lo:hi]) })
}

// ---- scan of a map: out = scan(+, 0, map(2x+1, xs))

func cpuScanMap(xs []float64) []float64 { return cpuScanMapInto(xs, make([]float64, len(xs))) }

// cpuScanMapInto is cpuScanMap writing into a given output (the -reuse
// benchmarks, which leave out the allocation and zeroing of the output).
func cpuScanMapInto(xs, out []float64) []float64 {
	n := len(xs)
	in := xs[:n]
	var acc float64 = 0.0
	for i := 0; i < n; i++ {
		acc = acc + (2*in[i] + 1)
		out[i] = acc
	}
	return out
}

// scanMapFrom scans xs[lo:hi] from carry into out[lo:hi].
func scanMapFrom(xs, out []float64, lo, hi int, carry float64) float64 {
	in, o := xs[lo:hi], out[lo:hi]
	acc := carry
	for i := 0; i < len(in); i++ {
		acc = acc + (2*in[i] + 1)
		o[i] = acc
	}
	return acc
}

func addCarry(out []float64, carry float64) {
	for i := range out {
		out[i] = carry + out[i]
	}
}

func parScanMap(xs []float64) []float64 { return parScanMapInto(xs, make([]float64, len(xs))) }

func parScanMapInto(xs, out []float64) []float64 {
	n := len(xs)
	if Sequential(n, grainScan) {
		return cpuScanMapInto(xs, out)
	}
	Scan(n, grainScan, func(lo, hi int) float64 {
		return scanMapFrom(xs, out, lo, hi, 0)
	}, func(lo, hi int, carry float64) {
		addCarry(out[lo:hi], carry)
	}, add)
	return out
}

func par3ScanMap(xs []float64) []float64 {
	n := len(xs)
	if Sequential(n, grainScan) {
		return cpuScanMap(xs)
	}
	out := make([]float64, n)
	scanThreePhase(n, grainScan, 0, func(lo, hi int) float64 {
		acc := 0.0
		for _, x := range xs[lo:hi] {
			acc = acc + (2*x + 1)
		}
		return acc
	}, func(lo, hi int, carry float64) float64 {
		return scanMapFrom(xs, out, lo, hi, carry)
	}, add)
	return out
}

// handScanMap: each goroutine scans its block, the block totals are folded
// sequentially, then every block but the first adds its offset.
func handScanMap(xs []float64) []float64 { return handScanMapInto(xs, make([]float64, len(xs))) }

func handScanMapInto(xs, out []float64) []float64 {
	n := len(xs)
	p := runtime.GOMAXPROCS(0)
	sums := make([]float64, p)
	handChunks(n, func(w, lo, hi int) {
		sums[w] = scanMapFrom(xs, out, lo, hi, 0)
	})
	offs := make([]float64, p)
	for w := 1; w < p; w++ {
		offs[w] = offs[w-1] + sums[w-1]
	}
	handChunks(n, func(w, lo, hi int) {
		if w > 0 {
			addCarry(out[lo:hi], offs[w])
		}
	})
	return out
}

// ---- filter -> map -> reduce: sum of x*x over x > 0, the filter a select

func sumSqPosBody(in []float64) float64 {
	var acc float64 = 0.0
	for i := 0; i < len(in); i++ {
		x := in[i]
		keep := x > 0
		v := x * x
		var mask uint64
		if keep {
			mask = ^uint64(0)
		}
		v = math.Float64frombits(math.Float64bits(v) & mask)
		acc = acc + v
	}
	return acc
}

func cpuSumSqPos(xs []float64) float64 { return sumSqPosBody(xs) }

func parSumSqPos(xs []float64) float64 {
	n := len(xs)
	if Sequential(n, grainLight) {
		return sumSqPosBody(xs)
	}
	return Reduce(n, grainLight, func(lo, hi int) float64 { return sumSqPosBody(xs[lo:hi]) }, add)
}

func handSumSqPos(xs []float64) float64 {
	return handSum(len(xs), func(lo, hi int) float64 { return sumSqPosBody(xs[lo:hi]) })
}

// ---- filter -> map kept as an array: [2x | x <- xs, x > 0]

// filterBody compacts the kept 2x of in into dst, branch-free as the cpu
// backend writes it, and returns how many it kept.
func filterBody(in, dst []float64) int {
	kept := 0
	dst = dst[:len(in)]
	for i := 0; i < len(in); i++ {
		x := in[i]
		dst[kept] = 2 * x
		if x > 0 {
			kept++
		}
	}
	return kept
}

func cpuFilter(xs []float64) []float64 { return cpuFilterInto(xs, make([]float64, len(xs))) }

func cpuFilterInto(xs, out []float64) []float64 {
	kept := filterBody(xs, out)
	return out[:kept:kept]
}

func parFilter(xs []float64) []float64 { return parFilterInto(xs, make([]float64, len(xs))) }

func parFilterInto(xs, out []float64) []float64 {
	n := len(xs)
	if Sequential(n, grainLight) {
		return cpuFilterInto(xs, out)
	}
	kept := Filter(n, grainLight, out, func(lo, hi int, dst []float64) int {
		return filterBody(xs[lo:hi], dst)
	})
	return out[:kept:kept]
}

// handFilter: each goroutine compacts its block at the block's start, then
// the blocks are moved down to their offsets in order.
func handFilter(xs []float64) []float64 { return handFilterInto(xs, make([]float64, len(xs))) }

func handFilterInto(xs, out []float64) []float64 {
	n := len(xs)
	p := runtime.GOMAXPROCS(0)
	counts := make([]int, p)
	handChunks(n, func(w, lo, hi int) {
		counts[w] = filterBody(xs[lo:hi], out[lo:hi])
	})
	kept := 0
	for w := range p {
		lo := w * n / p
		kept += copy(out[kept:], out[lo:lo+counts[w]])
	}
	return out[:kept:kept]
}

// ---- Black-Scholes portfolio value (examples/blackscholes)

type option struct{ S, K, T, R, V float64 }

func cnd(x float64) float64 { return 0.5 * (1 + math.Erf(x/math.Sqrt2)) }

func callPrice(o option) float64 {
	vst := o.V * math.Sqrt(o.T)
	d1 := (math.Log(o.S/o.K) + (o.R+0.5*o.V*o.V)*o.T) / vst
	d2 := d1 - vst
	return o.S*cnd(d1) - o.K*math.Exp(-o.R*o.T)*cnd(d2)
}

func bsBody(in []option) float64 {
	var acc float64 = 0.0
	for i := 0; i < len(in); i++ {
		m := callPrice(in[i])
		acc = acc + m
	}
	return acc
}

func cpuBS(opts []option) float64 { return bsBody(opts) }

func parBS(opts []option) float64 {
	n := len(opts)
	if Sequential(n, grainBS) {
		return bsBody(opts)
	}
	return Reduce(n, grainBS, func(lo, hi int) float64 { return bsBody(opts[lo:hi]) }, add)
}

func handBS(opts []option) float64 {
	return handSum(len(opts), func(lo, hi int) float64 { return bsBody(opts[lo:hi]) })
}

// ---- multi-core read bandwidth: one chunk per goroutine, eight
// accumulators (enough to keep the loads, not the adds, the bottleneck)

func read8(in []float64) float64 {
	// Eight scalars, not an array: the compiler keeps only scalars (and
	// arrays of one element) in registers.
	var a0, a1, a2, a3, a4, a5, a6, a7 float64
	i := 0
	for ; i+8 <= len(in); i += 8 {
		a0 += in[i]
		a1 += in[i+1]
		a2 += in[i+2]
		a3 += in[i+3]
		a4 += in[i+4]
		a5 += in[i+5]
		a6 += in[i+6]
		a7 += in[i+7]
	}
	for ; i < len(in); i++ {
		a0 += in[i]
	}
	return ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7))
}

func handRead(xs []float64) float64 {
	return handSum(len(xs), func(lo, hi int) float64 { return read8(xs[lo:hi]) })
}
