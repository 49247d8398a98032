// Package clbench benchmarks the examples' backend=opencl variants
// against their cpu-backend and parallel-backend forms in one process:
// per example, the end-to-end time of a call (ns/op), the device's
// kernel and transfer times per call (kernel-ns/op, transfer-ns/op, from
// profiling events), the cpu form, and the parallel form on every core
// (GOMAXPROCS). SOACGEN_BENCH_N sets the array length (default 1<<22;
// matmul multiplies two SOACGEN_BENCH_M-square matrices, default 512,
// and its float32 form two SOACGEN_BENCH_M32-square ones, default 1024).
// It holds benchmarks and one test, TestAutoHostAllocs (backend=auto's
// host path allocates what the parallel variant does); the examples'
// tests check results.
package clbench

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/soacgen/soacgen/examples/blackscholes"
	"github.com/soacgen/soacgen/examples/dotprod"
	"github.com/soacgen/soacgen/examples/histogram"
	"github.com/soacgen/soacgen/examples/kmeans"
	"github.com/soacgen/soacgen/examples/matmul"
	"github.com/soacgen/soacgen/examples/minmax"
	"github.com/soacgen/soacgen/examples/mss"
	"github.com/soacgen/soacgen/examples/normalize2"
	"github.com/soacgen/soacgen/examples/prefixsum"
	"github.com/soacgen/soacgen/examples/quickhull"
	"github.com/soacgen/soacgen/examples/sumsq"
	"github.com/soacgen/soacgen/examples/sumsqpos"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

func size() int {
	if n, err := strconv.Atoi(os.Getenv("SOACGEN_BENCH_N")); err == nil && n > 0 {
		return n
	}
	return 1 << 22
}

func floats(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = r.Float64()*2 - 1
	}
	return xs
}

// bench runs cl, cpu (when not nil) and par as sub-benchmarks; cl
// reports the device times.
func bench(b *testing.B, cl, cpu, par func()) {
	b.Run("opencl", func(b *testing.B) { onDevice(b, cl) })
	if cpu != nil {
		b.Run("cpu", func(b *testing.B) {
			for range b.N {
				cpu()
			}
		})
	}
	b.Run("parallel", func(b *testing.B) {
		for range b.N {
			par()
		}
	})
}

// onDevice times cl, an opencl variant, after one untimed call (which
// builds its programs), fails if no kernel ran on the device, and
// reports the device's kernel and transfer time a call; it returns the
// kernel time a call, in ns.
func onDevice(b *testing.B, cl func()) float64 {
	cl()
	k0, t0 := launch.DeviceTime()
	b.ResetTimer()
	for range b.N {
		cl()
	}
	b.StopTimer()
	k1, t1 := launch.DeviceTime()
	if k1 == k0 {
		b.Fatal("no kernel ran on the device")
	}
	b.ReportMetric(float64(k1-k0)/float64(b.N), "kernel-ns/op")
	b.ReportMetric(float64(t1-t0)/float64(b.N), "transfer-ns/op")
	return float64(k1-k0) / float64(b.N)
}

func BenchmarkSumSq(b *testing.B) {
	xs := floats(size(), 1)
	bench(b, func() { sumsq.SumSqCL(xs) }, func() { sumsq.SumSq(xs) }, func() { sumsq.SumSqPar(xs) })
}

func BenchmarkDot(b *testing.B) {
	xs, ys := floats(size(), 2), floats(size(), 3)
	bench(b, func() { dotprod.DotCL(xs, ys) }, func() { dotprod.Dot(xs, ys) }, func() { dotprod.DotPar(xs, ys) })
}

func BenchmarkBounds(b *testing.B) {
	r := rand.New(rand.NewPCG(4, 1))
	xs := make([]int32, size())
	for i := range xs {
		xs[i] = r.Int32()
	}
	bench(b, func() { minmax.BoundsCL(xs) }, func() { minmax.Bounds(xs) }, func() { minmax.BoundsPar(xs) })
}

func options() []blackscholes.Option {
	r := rand.New(rand.NewPCG(5, 1))
	opts := make([]blackscholes.Option, size())
	for i := range opts {
		opts[i] = blackscholes.Option{S: 10 + 90*r.Float64(), K: 10 + 90*r.Float64(), T: 0.1 + 2*r.Float64(), R: 0.1 * r.Float64(), V: 0.05 + 0.5*r.Float64()}
	}
	return opts
}

func BenchmarkCallPrices(b *testing.B) {
	opts := options()
	bench(b, func() { blackscholes.CallPricesCL(opts) }, func() { blackscholes.CallPrices(opts) }, func() { blackscholes.CallPricesPar(opts) })
}

func BenchmarkPortfolioValue(b *testing.B) {
	opts := options()
	bench(b, func() { blackscholes.PortfolioValueCL(opts) }, func() { blackscholes.PortfolioValue(opts) }, func() { blackscholes.PortfolioValuePar(opts) })
}

func BenchmarkPrefixSums(b *testing.B) {
	r := rand.New(rand.NewPCG(6, 1))
	xs := make([]int, size())
	for i := range xs {
		xs[i] = r.IntN(1000)
	}
	bench(b, func() { prefixsum.PrefixSumsCL(xs) }, func() { prefixsum.PrefixSums(xs) }, func() { prefixsum.PrefixSumsPar(xs) })
}

// BenchmarkChunkedSums is BenchmarkPrefixSums with the map written as a
// StreamMap's chunk function: the stream on the stream-map skeleton, its
// output kept on the device for the scan.
func BenchmarkChunkedSums(b *testing.B) {
	r := rand.New(rand.NewPCG(6, 1))
	xs := make([]int, size())
	for i := range xs {
		xs[i] = r.IntN(1000)
	}
	bench(b, func() { prefixsum.ChunkedSumsCL(xs) }, func() { prefixsum.ChunkedSums(xs) }, func() { prefixsum.ChunkedSumsPar(xs) })
}

// BenchmarkChunkedSumsKept compares ChunkedSumsCL's stream output kept
// on the device for its scan (kept) with the round trip
// (launch.KeepOnDevice false: the stream's output downloaded, then
// uploaded again for the scan).
func BenchmarkChunkedSumsKept(b *testing.B) {
	r := rand.New(rand.NewPCG(6, 1))
	xs := make([]int, size())
	for i := range xs {
		xs[i] = r.IntN(1000)
	}
	for _, keep := range []bool{true, false} {
		name := "kept"
		if !keep {
			name = "roundtrip"
		}
		b.Run(name, func(b *testing.B) {
			launch.KeepOnDevice = keep
			defer func() { launch.KeepOnDevice = true }()
			onDevice(b, func() { prefixsum.ChunkedSumsCL(xs) })
		})
	}
}

func BenchmarkNormalize2(b *testing.B) {
	xs := floats(size(), 7)
	bench(b, func() { normalize2.Normalize2CL(xs) }, func() { normalize2.Normalize2(xs) }, func() { normalize2.Normalize2Par(xs) })
}

func BenchmarkSumSqPos(b *testing.B) {
	xs := floats(size(), 8)
	bench(b, func() { sumsqpos.SumSqPosCL(xs) }, func() { sumsqpos.SumSqPos(xs) }, func() { sumsqpos.SumSqPosPar(xs) })
}

func BenchmarkMSS(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 1))
	xs := make([]int, size())
	for i := range xs {
		xs[i] = r.IntN(201) - 100
	}
	bench(b, func() { mss.MSSCL(xs) }, func() { mss.MSS(xs) }, func() { mss.MSSPar(xs) })
}

func BenchmarkMatMul(b *testing.B) {
	m := 512
	if v, err := strconv.Atoi(os.Getenv("SOACGEN_BENCH_M")); err == nil && v > 0 {
		m = v
	}
	mat := func(seed uint64) [][]float64 {
		x := make([][]float64, m)
		for i := range x {
			x[i] = floats(m, seed+uint64(i)*7)
		}
		return x
	}
	a, bt := mat(10), mat(11)
	bench(b, func() { matmul.MatMulCL(a, bt) }, func() { matmul.MatMul(a, bt) }, func() { matmul.MatMulPar(a, bt) })
}

// BenchmarkMatMul32 multiplies two float32 matrices of side
// SOACGEN_BENCH_M32 (default 1024; the goal's size is 4096): the opencl
// variant (one work-item per element of the product, a tiled dot
// product) against the parallel backend (the cpu form, one core, is left
// out: minutes a call at 4096). It then checks that the device's
// product has the bits of the spec's order on a sample of 4096 elements:
// each summed left to right with every product and sum rounded to
// float32, so a device that contracted a multiply-add or reordered a
// sum would show here (the parallel backend's sums, over 4 accumulators
// from 8 elements on, differ by rounding: not compared).
func BenchmarkMatMul32(b *testing.B) {
	m := 1024
	if v, err := strconv.Atoi(os.Getenv("SOACGEN_BENCH_M32")); err == nil && v > 0 {
		m = v
	}
	mat := func(seed uint64) [][]float32 {
		r := rand.New(rand.NewPCG(seed, 1))
		x := make([][]float32, m)
		for i := range x {
			x[i] = make([]float32, m)
			for j := range x[i] {
				x[i][j] = float32(r.Float64()*2 - 1)
			}
		}
		return x
	}
	a, bt := mat(12), mat(13)
	var cl [][]float32
	bench(b, func() { cl = matmul.MatMul32CL(a, bt) }, nil, func() { matmul.MatMul32Par(a, bt) })
	if cl == nil {
		return // the sub-benchmark did not run (-test.bench filtered it out)
	}
	r := rand.New(rand.NewPCG(14, 1))
	bad, samples := 0, min(4096, m*m)
	for range samples {
		i, j := r.IntN(m), r.IntN(m)
		var s float32
		for k := range a[i] {
			s = float32(s + float32(a[i][k]*bt[j][k]))
		}
		if math.Float32bits(cl[i][j]) != math.Float32bits(s) {
			bad++
		}
	}
	if bad > 0 {
		b.Errorf("%d of %d sampled elements of MatMul32CL differ from the spec's order's bits", bad, samples)
	}
}

// BenchmarkCallPrices32 is Black-Scholes over float32 options (20 bytes
// in, 4 out, per option) at SOACGEN_BENCH_N32 options (default 1<<20;
// the goal's size is 1e8): the opencl variant against the parallel
// backend (the cpu form, one core, is left out: 10 s a call at 1e8).
func BenchmarkCallPrices32(b *testing.B) {
	n := 1 << 20
	if v, err := strconv.Atoi(os.Getenv("SOACGEN_BENCH_N32")); err == nil && v > 0 {
		n = v
	}
	r := rand.New(rand.NewPCG(7, 1))
	opts := make([]blackscholes.Option32, n)
	for i := range opts {
		opts[i] = blackscholes.Option32{S: float32(10 + 90*r.Float64()), K: float32(10 + 90*r.Float64()), T: float32(0.1 + 2*r.Float64()), R: float32(0.1 * r.Float64()), V: float32(0.05 + 0.5*r.Float64())}
	}
	bench(b, func() { blackscholes.CallPrices32CL(opts) }, nil, func() { blackscholes.CallPrices32Par(opts) })
}

// BenchmarkAuto measures backend=auto's choice (CallPricesAuto: the
// device, or the parallel backend's code, by launch's cost model) at
// sizes from 1e3 to 1e7 beside the two it chooses between; the
// goal is auto within 10% of the faster.
func BenchmarkAuto(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000, 1_000_000, 10_000_000} {
		r := rand.New(rand.NewPCG(9, 1))
		opts := make([]blackscholes.Option, n)
		for i := range opts {
			opts[i] = blackscholes.Option{S: 10 + 90*r.Float64(), K: 10 + 90*r.Float64(), T: 0.1 + 2*r.Float64(), R: 0.1 * r.Float64(), V: 0.05 + 0.5*r.Float64()}
		}
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			blackscholes.CallPricesCL(opts) // builds the programs
			blackscholes.CallPricesAuto(opts)
			for _, v := range []struct {
				name string
				fn   func([]blackscholes.Option) []float64
			}{{"opencl", blackscholes.CallPricesCL}, {"parallel", blackscholes.CallPricesPar}, {"auto", blackscholes.CallPricesAuto}} {
				b.Run(v.name, func(b *testing.B) {
					for range b.N {
						v.fn(opts)
					}
				})
			}
		})
	}
}

// BenchmarkAutoSumSq is BenchmarkAuto for a memory-bound kernel: the sum
// of squares (SumSqAuto), whose data starts on the host, so that the
// device pays its transfers against the host's memory bandwidth.
func BenchmarkAutoSumSq(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000, 1_000_000, 10_000_000} {
		xs := floats(n, 11)
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			sumsq.SumSqCL(xs) // builds the programs
			sumsq.SumSqAuto(xs)
			for _, v := range []struct {
				name string
				fn   func([]float64) float64
			}{{"opencl", sumsq.SumSqCL}, {"parallel", sumsq.SumSqPar}, {"auto", sumsq.SumSqAuto}} {
				b.Run(v.name, func(b *testing.B) {
					for range b.N {
						v.fn(xs)
					}
				})
			}
		})
	}
}

// BenchmarkResident measures what keeping arrays on the device between a
// spec's kernels saves, in one run: each spec with its arrays kept
// ("kept": Normalize2CL uploads xs once for its two kernels, KMeansCL
// its points once for its 10 rounds) and with
// each kernel uploading its
// inputs and downloading its outputs ("roundtrip":
// launch.KeepOnDevice false), with the arrays moved per call.
func BenchmarkResident(b *testing.B) {
	xs := floats(size(), 12)
	// KMeansCL: 10 rounds, the points uploaded once per call ("kept")
	// or once per round ("roundtrip").
	ps := make([]kmeans.Point, size())
	for i := range ps {
		ps[i] = kmeans.Point{X: xs[i], Y: xs[len(xs)-1-i]}
	}
	centres := append([]kmeans.Point(nil), ps[:16]...)
	for _, s := range []struct {
		name string
		f    func()
	}{
		{"Normalize2CL", func() { normalize2.Normalize2CL(xs) }},
		{"KMeansCL", func() { kmeans.KMeansCL(ps, centres, 10) }},
	} {
		for _, keep := range []bool{true, false} {
			name := s.name + "/kept"
			if !keep {
				name = s.name + "/roundtrip"
			}
			b.Run(name, func(b *testing.B) {
				launch.KeepOnDevice = keep
				defer func() { launch.KeepOnDevice = true }()
				s.f() // builds the programs
				k0, t0 := launch.DeviceTime()
				u0, d0 := launch.Transfers()
				b.ResetTimer()
				for range b.N {
					s.f()
				}
				b.StopTimer()
				k1, t1 := launch.DeviceTime()
				u1, d1 := launch.Transfers()
				if k1 == k0 {
					b.Fatal("no kernel ran on the device")
				}
				b.ReportMetric(float64(k1-k0)/float64(b.N), "kernel-ns/op")
				b.ReportMetric(float64(t1-t0)/float64(b.N), "transfer-ns/op")
				b.ReportMetric(float64(u1-u0)/float64(b.N), "uploads/op")
				b.ReportMetric(float64(d1-d0)/float64(b.N), "downloads/op")
			})
		}
	}
}

func BenchmarkClusterSizes(b *testing.B) {
	r := rand.New(rand.NewPCG(10, 1))
	ps := make([]kmeans.Point, size())
	for i := range ps {
		ps[i] = kmeans.Point{X: r.NormFloat64(), Y: r.NormFloat64()}
	}
	centres := make([]kmeans.Point, 16)
	for i := range centres {
		centres[i] = kmeans.Point{X: r.NormFloat64(), Y: r.NormFloat64()}
	}
	bench(b, func() { kmeans.ClusterSizesCL(ps, centres) }, func() { kmeans.ClusterSizes(ps, centres) }, func() { kmeans.ClusterSizesPar(ps, centres) })
}

// BenchmarkKMeans runs 10 rounds of k-means (k = 16) inside one call:
// per round a stream reduction of the points into per-centre sums and a
// map over the centres. The points are uploaded once per call.
// SOACGEN_BENCH_KMEANS_N sets the number of points (default 1<<23); the
// small size (1e4) shows the per-round launch overhead.
func BenchmarkKMeans(b *testing.B) {
	n := 1 << 23
	if v, err := strconv.Atoi(os.Getenv("SOACGEN_BENCH_KMEANS_N")); err == nil && v > 0 {
		n = v
	}
	r := rand.New(rand.NewPCG(12, 1))
	centres := make([]kmeans.Point, 16)
	for i := range centres {
		centres[i] = kmeans.Point{X: r.NormFloat64(), Y: r.NormFloat64()}
	}
	for _, m := range []int{10_000, n} {
		ps := make([]kmeans.Point, m)
		for i := range ps {
			ps[i] = kmeans.Point{X: r.NormFloat64(), Y: r.NormFloat64()}
		}
		b.Run("n="+strconv.Itoa(m), func(b *testing.B) {
			bench(b, func() { kmeans.KMeansCL(ps, centres, 10) }, func() { kmeans.KMeans(ps, centres, 10) }, func() { kmeans.KMeansPar(ps, centres, 10) })
		})
	}
}

func BenchmarkHistogram(b *testing.B) {
	xs := floats(size(), 11)
	bench(b, func() { histogram.HistogramCL(xs, -1, 1, 256) }, func() { histogram.Histogram(xs, -1, 1, 256) }, func() { histogram.HistogramPar(xs, -1, 1, 256) })
}

// BenchmarkFilterMax is quickhull's step: the points above a line
// compacted and the farthest point folded over every point, in one
// filter kernel on the device.
func BenchmarkFilterMax(b *testing.B) {
	xs, ys := floats(size(), 12), floats(size(), 13)
	ps := make([]quickhull.Point, len(xs))
	for i := range ps {
		ps[i] = quickhull.Point{X: xs[i], Y: ys[i]}
	}
	a, c := quickhull.Point{X: -1, Y: -0.2}, quickhull.Point{X: 1, Y: 0.3}
	bench(b, func() { quickhull.FilterMaxCL(ps, a, c) }, func() { quickhull.FilterMax(ps, a, c) }, func() { quickhull.FilterMaxPar(ps, a, c) })
}

// BenchmarkHalfSqrts is prefixsum's scan of square roots and the map
// reading it: on the device two launches in one session (the scan kept
// there), against the cpu loop and the parallel backend's CarriedLocal.
func BenchmarkHalfSqrts(b *testing.B) {
	xs := floats(size(), 14)
	for i := range xs {
		xs[i] = math.Abs(xs[i])
	}
	bench(b, func() { prefixsum.HalfSqrtsCL(xs) }, func() { prefixsum.HalfSqrts(xs) }, func() { prefixsum.HalfSqrtsPar(xs) })
}
