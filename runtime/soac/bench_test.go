package soac_test

// Benchmarks of every reference function against a hand-written loop that
// makes the same single pass and the same one output allocation.
//
// Each benchmark has three variants per size:
//
//   - soac: the reference function, called through a //go:noinline wrapper
//     whose lambda is a parameter (as in user code, f is an opaque closure).
//   - loop: a hand-written loop in its own //go:noinline function that calls
//     the same function value f. This is the like-for-like comparison: the
//     reference semantics include the call of f.
//   - loop-inlined: the same loop with the lambda body written inline, for
//     information (what fused, generated code can reach).
//
// Per the benchmark hygiene in the project's performance anchors, no loop is
// written inside a b.Loop body; both sides allocate their output. Run
//
//	bash scripts/bench-runtime.sh
//
// to reproduce the table in BENCHMARKS.md.

import (
	"math/rand/v2"
	"testing"

	"github.com/soacgen/soacgen/runtime/soac"
)

// benchSizes are the input lengths of every benchmark: in L1/L2 cache, in
// the last-level cache region, and well beyond it (DRAM bound).
var benchSizes = []struct {
	name string
	n    int
}{
	{"1e3", 1_000},
	{"1e6", 1_000_000},
	{"1e7", 10_000_000},
}

// variant is one measured implementation of a benchmark at one size.
type variant struct {
	name string
	run  func()
}

// sink keeps results observable so that no variant's work is dead code.
var (
	sinkF []float64
	sinkI []int
	sinkS float64
)

// runBench runs the variants that setup builds for every size as
// sub-benchmarks named n=SIZE/VARIANT. bytesPerElem is the number of input
// bytes read per element, for b.SetBytes.
//
// Besides wall-clock ns/op, each sub-benchmark reports cpu-ns/op: the CPU
// time of the whole process (all threads, so the garbage collector's work
// counts) per operation. On a shared 2-core machine the wall-clock time also
// counts the time other processes hold the cores; CPU time does not.
func runBench(b *testing.B, bytesPerElem int, setup func(n int) []variant) {
	for _, sz := range benchSizes {
		vs := setup(sz.n)
		// Run every variant once first, so that the heap has grown to its
		// working size before any is timed: otherwise the first variant at
		// each size pays for fresh pages and GC heap growth alone.
		for _, v := range vs {
			v.run()
		}
		for _, v := range vs {
			b.Run("n="+sz.name+"/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(sz.n * bytesPerElem))
				cpu0, ok := processCPUTime()
				for b.Loop() {
					v.run()
				}
				if cpu1, ok1 := processCPUTime(); ok && ok1 {
					b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
				}
			})
		}
	}
}

// benchData returns n pseudo-random float64s in [-1, 1), the same for every
// call with the same n.
func benchData(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = 2*r.Float64() - 1
	}
	return xs
}

// The lambdas shared by the soac and loop variants. They are package-level
// function values so that neither side can specialise on them.
var (
	mapF     = func(x float64) float64 { return 2*x + 1 }
	map2F    = func(x, y float64) float64 { return x*y + 1 }
	map3F    = func(x, y, z float64) float64 { return x*y + z }
	addF     = func(a, b float64) float64 { return a + b }
	posF     = func(x float64) bool { return x > 0 }
	chunkMap = func(c []float64) []float64 {
		out := make([]float64, len(c))
		for i, x := range c {
			out[i] = 2*x + 1
		}
		return out
	}
	chunkSum = func(c []float64) float64 {
		s := 0.0
		for _, x := range c {
			s += x
		}
		return s
	}
)

func BenchmarkMap(b *testing.B) {
	runBench(b, 8, func(n int) []variant {
		xs := benchData(n, 1)
		return []variant{
			{"soac", func() { sinkF = soacMap(xs, mapF) }},
			{"loop", func() { sinkF = loopMap(xs, mapF) }},
			{"loop-inlined", func() { sinkF = loopMapInlined(xs) }},
		}
	})
}

//go:noinline
func soacMap(xs []float64, f func(float64) float64) []float64 { return soac.Map(xs, f) }

//go:noinline
func loopMap(xs []float64, f func(float64) float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

//go:noinline
func loopMapInlined(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = 2*x + 1
	}
	return out
}

func BenchmarkMap2(b *testing.B) {
	runBench(b, 16, func(n int) []variant {
		xs, ys := benchData(n, 1), benchData(n, 2)
		return []variant{
			{"soac", func() { sinkF = soacMap2(xs, ys, map2F) }},
			{"loop", func() { sinkF = loopMap2(xs, ys, map2F) }},
			{"loop-inlined", func() { sinkF = loopMap2Inlined(xs, ys) }},
		}
	})
}

//go:noinline
func soacMap2(xs, ys []float64, f func(float64, float64) float64) []float64 {
	return soac.Map2(xs, ys, f)
}

//go:noinline
func loopMap2(xs, ys []float64, f func(float64, float64) float64) []float64 {
	if len(xs) != len(ys) {
		panic(soac.LengthError("Map2", len(xs), len(ys)))
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f(x, ys[i])
	}
	return out
}

//go:noinline
func loopMap2Inlined(xs, ys []float64) []float64 {
	if len(xs) != len(ys) {
		panic(soac.LengthError("Map2", len(xs), len(ys)))
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x*ys[i] + 1
	}
	return out
}

func BenchmarkMap3(b *testing.B) {
	runBench(b, 24, func(n int) []variant {
		xs, ys, zs := benchData(n, 1), benchData(n, 2), benchData(n, 3)
		return []variant{
			{"soac", func() { sinkF = soacMap3(xs, ys, zs, map3F) }},
			{"loop", func() { sinkF = loopMap3(xs, ys, zs, map3F) }},
			{"loop-inlined", func() { sinkF = loopMap3Inlined(xs, ys, zs) }},
		}
	})
}

//go:noinline
func soacMap3(xs, ys, zs []float64, f func(float64, float64, float64) float64) []float64 {
	return soac.Map3(xs, ys, zs, f)
}

//go:noinline
func loopMap3(xs, ys, zs []float64, f func(float64, float64, float64) float64) []float64 {
	if len(xs) != len(ys) || len(xs) != len(zs) {
		panic(soac.LengthError("Map3", len(xs), len(ys), len(zs)))
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f(x, ys[i], zs[i])
	}
	return out
}

//go:noinline
func loopMap3Inlined(xs, ys, zs []float64) []float64 {
	if len(xs) != len(ys) || len(xs) != len(zs) {
		panic(soac.LengthError("Map3", len(xs), len(ys), len(zs)))
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x*ys[i] + zs[i]
	}
	return out
}

func BenchmarkReduce(b *testing.B) {
	runBench(b, 8, func(n int) []variant {
		xs := benchData(n, 1)
		return []variant{
			{"soac", func() { sinkS = soacReduce(xs, 0, addF) }},
			{"loop", func() { sinkS = loopReduce(xs, 0, addF) }},
			{"loop-inlined", func() { sinkS = loopReduceInlined(xs, 0) }},
		}
	})
}

//go:noinline
func soacReduce(xs []float64, ne float64, op func(float64, float64) float64) float64 {
	return soac.Reduce(xs, ne, op)
}

//go:noinline
func loopReduce(xs []float64, ne float64, op func(float64, float64) float64) float64 {
	acc := ne
	for _, x := range xs {
		acc = op(acc, x)
	}
	return acc
}

//go:noinline
func loopReduceInlined(xs []float64, ne float64) float64 {
	acc := ne
	for _, x := range xs {
		acc += x
	}
	return acc
}

func BenchmarkScan(b *testing.B) {
	runBench(b, 8, func(n int) []variant {
		xs := benchData(n, 1)
		return []variant{
			{"soac", func() { sinkF = soacScan(xs, 0, addF) }},
			{"loop", func() { sinkF = loopScan(xs, 0, addF) }},
			{"loop-inlined", func() { sinkF = loopScanInlined(xs, 0) }},
		}
	})
}

//go:noinline
func soacScan(xs []float64, ne float64, op func(float64, float64) float64) []float64 {
	return soac.Scan(xs, ne, op)
}

//go:noinline
func loopScan(xs []float64, ne float64, op func(float64, float64) float64) []float64 {
	out := make([]float64, len(xs))
	acc := ne
	for i, x := range xs {
		acc = op(acc, x)
		out[i] = acc
	}
	return out
}

//go:noinline
func loopScanInlined(xs []float64, ne float64) []float64 {
	out := make([]float64, len(xs))
	acc := ne
	for i, x := range xs {
		acc += x
		out[i] = acc
	}
	return out
}

// BenchmarkFilter keeps about half of the (random) elements, so the branch
// is unpredictable for both sides. The hand loops grow their output with
// append from an empty slice, as the reference does, so both sides do the
// same allocations.
func BenchmarkFilter(b *testing.B) {
	runBench(b, 8, func(n int) []variant {
		xs := benchData(n, 1)
		return []variant{
			{"soac", func() { sinkF = soacFilter(xs, posF) }},
			{"loop", func() { sinkF = loopFilter(xs, posF) }},
			{"loop-inlined", func() { sinkF = loopFilterInlined(xs) }},
		}
	})
}

//go:noinline
func soacFilter(xs []float64, pred func(float64) bool) []float64 { return soac.Filter(xs, pred) }

//go:noinline
func loopFilter(xs []float64, pred func(float64) bool) []float64 {
	out := make([]float64, 0)
	for _, x := range xs {
		if pred(x) {
			out = append(out, x)
		}
	}
	return out
}

//go:noinline
func loopFilterInlined(xs []float64) []float64 {
	out := make([]float64, 0)
	for _, x := range xs {
		if x > 0 {
			out = append(out, x)
		}
	}
	return out
}

// BenchmarkStreamMap compares with a loop that calls the same chunk function
// on chunks of soac.ChunkSize and copies each result into one preallocated
// output; loop-inlined is the plain element-wise map with no chunk results.
func BenchmarkStreamMap(b *testing.B) {
	runBench(b, 8, func(n int) []variant {
		xs := benchData(n, 1)
		return []variant{
			{"soac", func() { sinkF = soacStreamMap(xs, chunkMap) }},
			{"loop", func() { sinkF = loopStreamMap(xs, chunkMap) }},
			{"loop-inlined", func() { sinkF = loopMapInlined(xs) }},
		}
	})
}

//go:noinline
func soacStreamMap(xs []float64, f func([]float64) []float64) []float64 {
	return soac.StreamMap(xs, f)
}

//go:noinline
func loopStreamMap(xs []float64, f func([]float64) []float64) []float64 {
	out := make([]float64, len(xs))
	for lo := 0; lo < len(xs); lo += soac.ChunkSize {
		hi := min(lo+soac.ChunkSize, len(xs))
		ys := f(xs[lo:hi:hi])
		if len(ys) != hi-lo {
			panic("loopStreamMap: wrong chunk length")
		}
		copy(out[lo:hi], ys)
	}
	return out
}

// BenchmarkStreamRed compares with a loop that calls the same chunk function
// and operator on chunks of soac.ChunkSize; loop-inlined is the plain sum.
func BenchmarkStreamRed(b *testing.B) {
	runBench(b, 8, func(n int) []variant {
		xs := benchData(n, 1)
		return []variant{
			{"soac", func() { sinkS = soacStreamRed(xs, addF, chunkSum) }},
			{"loop", func() { sinkS = loopStreamRed(xs, addF, chunkSum) }},
			{"loop-inlined", func() { sinkS = loopReduceInlined(xs, 0) }},
		}
	})
}

//go:noinline
func soacStreamRed(xs []float64, op func(float64, float64) float64, f func([]float64) float64) float64 {
	return soac.StreamRed(xs, op, f)
}

//go:noinline
func loopStreamRed(xs []float64, op func(float64, float64) float64, f func([]float64) float64) float64 {
	acc := f(xs[:0:0])
	for lo := 0; lo < len(xs); lo += soac.ChunkSize {
		hi := min(lo+soac.ChunkSize, len(xs))
		acc = op(acc, f(xs[lo:hi:hi]))
	}
	return acc
}

// BenchmarkIota has no lambda, so its loop is already inlined. SetBytes
// counts the bytes written.
func BenchmarkIota(b *testing.B) {
	runBench(b, 8, func(n int) []variant {
		return []variant{
			{"soac", func() { sinkI = soacIota(n) }},
			{"loop", func() { sinkI = loopIota(n) }},
		}
	})
}

//go:noinline
func soacIota(n int) []int { return soac.Iota(n) }

//go:noinline
func loopIota(n int) []int {
	if n < 0 {
		panic("loopIota: negative length")
	}
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// BenchmarkReplicate has no lambda, so its loop is already inlined. SetBytes
// counts the bytes written.
func BenchmarkReplicate(b *testing.B) {
	runBench(b, 8, func(n int) []variant {
		return []variant{
			{"soac", func() { sinkF = soacReplicate(n, 0.5) }},
			{"loop", func() { sinkF = loopReplicate(n, 0.5) }},
		}
	})
}

//go:noinline
func soacReplicate(n int, v float64) []float64 { return soac.Replicate(n, v) }

//go:noinline
func loopReplicate(n int, v float64) []float64 {
	if n < 0 {
		panic("loopReplicate: negative length")
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestBenchLoopsAgree checks that every hand-written loop computes what the
// reference function it is compared with computes, so the benchmarks
// compare equal work.
func TestBenchLoopsAgree(t *testing.T) {
	for _, n := range []int{0, 1, 7, soac.ChunkSize - 1, soac.ChunkSize, soac.ChunkSize + 1, 3*soac.ChunkSize + 5} {
		xs, ys, zs := benchData(n, 1), benchData(n, 2), benchData(n, 3)
		check := func(name string, got, want []float64) {
			t.Helper()
			if len(got) != len(want) {
				t.Fatalf("n=%d %s: len %d, want %d", n, name, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("n=%d %s: [%d] = %v, want %v", n, name, i, got[i], want[i])
				}
			}
		}
		check("Map", loopMap(xs, mapF), soacMap(xs, mapF))
		check("Map/inlined", loopMapInlined(xs), soacMap(xs, mapF))
		check("Map2", loopMap2(xs, ys, map2F), soacMap2(xs, ys, map2F))
		if !soac.FMAContracts {
			// The hand-inlined x*y + 1 and x*y + z may be fused into one
			// FMA differently from the lambdas' own compiled bodies,
			// which the reference runs: equal only where nothing fuses.
			check("Map2/inlined", loopMap2Inlined(xs, ys), soacMap2(xs, ys, map2F))
		}
		check("Map3", loopMap3(xs, ys, zs, map3F), soacMap3(xs, ys, zs, map3F))
		if !soac.FMAContracts {
			check("Map3/inlined", loopMap3Inlined(xs, ys, zs), soacMap3(xs, ys, zs, map3F))
		}
		check("Reduce", []float64{loopReduce(xs, 0, addF)}, []float64{soacReduce(xs, 0, addF)})
		check("Reduce/inlined", []float64{loopReduceInlined(xs, 0)}, []float64{soacReduce(xs, 0, addF)})
		check("Scan", loopScan(xs, 0, addF), soacScan(xs, 0, addF))
		check("Scan/inlined", loopScanInlined(xs, 0), soacScan(xs, 0, addF))
		check("Filter", loopFilter(xs, posF), soacFilter(xs, posF))
		check("Filter/inlined", loopFilterInlined(xs), soacFilter(xs, posF))
		check("StreamMap", loopStreamMap(xs, chunkMap), soacStreamMap(xs, chunkMap))
		check("StreamRed", []float64{loopStreamRed(xs, addF, chunkSum)}, []float64{soacStreamRed(xs, addF, chunkSum)})
		check("Replicate", loopReplicate(n, 0.5), soacReplicate(n, 0.5))
		gotI, wantI := loopIota(n), soacIota(n)
		if len(gotI) != len(wantI) {
			t.Fatalf("n=%d Iota: len %d, want %d", n, len(gotI), len(wantI))
		}
		for i := range gotI {
			if gotI[i] != wantI[i] {
				t.Fatalf("n=%d Iota: [%d] = %d, want %d", n, i, gotI[i], wantI[i])
			}
		}
	}
}

// TestAllocs backs the benchmarks with a check that does not depend on
// timing noise: each function allocates only its result (plus, for Filter,
// append's growth steps, and for StreamMap, what f allocates).
func TestAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are skipped in -short mode")
	}
	const n = 10 * soac.ChunkSize
	xs, ys, zs := benchData(n, 1), benchData(n, 2), benchData(n, 3)
	nonAlloc := func(c []float64) []float64 { return c } // returns its chunk: no allocation
	for _, tc := range []struct {
		name string
		max  float64
		f    func()
	}{
		{"Map", 1, func() { sinkF = soac.Map(xs, mapF) }},
		{"Map2", 1, func() { sinkF = soac.Map2(xs, ys, map2F) }},
		{"Map3", 1, func() { sinkF = soac.Map3(xs, ys, zs, map3F) }},
		{"Reduce", 0, func() { sinkS = soac.Reduce(xs, 0, addF) }},
		{"Scan", 1, func() { sinkF = soac.Scan(xs, 0, addF) }},
		{"Filter/none", 0, func() { sinkF = soac.Filter(xs, func(float64) bool { return false }) }},
		{"Filter/all", 30, func() { sinkF = soac.Filter(xs, func(float64) bool { return true }) }},
		{"StreamMap", 1, func() { sinkF = soac.StreamMap(xs, nonAlloc) }},
		{"StreamRed", 0, func() { sinkS = soac.StreamRed(xs, addF, chunkSum) }},
		{"Iota", 1, func() { sinkI = soac.Iota(n) }},
		{"Replicate", 1, func() { sinkF = soac.Replicate(n, 0.5) }},
	} {
		if got := testing.AllocsPerRun(20, tc.f); got > tc.max {
			t.Errorf("%s: %v allocations per call, want at most %v", tc.name, got, tc.max)
		}
	}
}
