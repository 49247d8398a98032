package skel

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/soacgen/soacgen/internal/testkit"
	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// Benchmarks report, besides ns/op (wall time per call, including launch
// and synchronisation), kernel-ms (device time from profiling events) and
// GB/s over kernel time. Bytes are counted as the fewest a kernel must
// move: a reduction reads n elements, a copy, a map and a scan read n and
// write n, a filter reads n and writes the kept ones. The e2e variants
// upload the inputs and download the results on every call; their GB/s
// counts the same bytes over wall time, so they say when the device pays
// for the transfers.

// benchN is the array length: $SOACGEN_BENCH_N, else 2^28 on a GPU (1 GiB
// of float32, far beyond any cache) and 2^24 on a CPU device.
func benchN(d *device.Device) int {
	if s := os.Getenv("SOACGEN_BENCH_N"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	if d.Info.IsGPU() {
		return 1 << 28
	}
	return 1 << 24
}

var (
	benchOnce sync.Once
	benchX    []float32
)

// benchInput returns n random float32s in [-1, 1), shared by benchmarks.
func benchInput(n int) []float32 {
	benchOnce.Do(func() {
		benchX = randF32(rand.New(rand.NewPCG(42, 42)), n)
	})
	return benchX[:n]
}

// deviceInput uploads x once per benchmark.
func deviceInput(b *testing.B, d *device.Device, x []float32) *cl.MemObject {
	buf, err := d.Buffer(4 * len(x))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := d.Queue.EnqueueWriteBuffer(buf, true, 0, cl.Bytes(x), nil); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Recycle(buf) })
	return buf
}

func deviceBuf(b *testing.B, d *device.Device, size int) *cl.MemObject {
	buf, err := d.Buffer(size)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Recycle(buf) })
	return buf
}

// report adds kernel-ms and GB/s over the summed kernel time.
func report(b *testing.B, kernel time.Duration, bytes int64) {
	if b.N == 0 || kernel <= 0 {
		return
	}
	per := kernel / time.Duration(b.N)
	b.ReportMetric(float64(per.Nanoseconds())/1e6, "kernel-ms")
	b.ReportMetric(float64(bytes)/float64(per.Nanoseconds()), "GB/s")
}

// reportE2E adds GB/s of the same bytes over wall time.
func reportE2E(b *testing.B, bytes int64) {
	if el := b.Elapsed(); el > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/float64(el.Nanoseconds()), "e2e-GB/s")
	}
}

var logOnce sync.Once

func benchDevice(b *testing.B) *device.Device {
	d := testkit.Device(b)
	logOnce.Do(func() { fmt.Fprintf(os.Stderr, "device: %v\nn: %d\n", d.Info, benchN(d)) })
	return d
}

// BenchmarkCopy measures clEnqueueCopyBuffer of n float32s: the device's
// practical bandwidth ceiling (bytes read plus bytes written).
func BenchmarkCopy(b *testing.B) {
	d := benchDevice(b)
	n := benchN(d)
	src := deviceInput(b, d, benchInput(n))
	dst := deviceBuf(b, d, 4*n)
	var kernel time.Duration
	for i := 0; i < b.N+1; i++ {
		if i == 1 {
			b.ResetTimer()
			kernel = 0
		}
		e, err := d.Queue.EnqueueCopyBuffer(src, dst, 0, 0, 4*n, nil)
		if err != nil {
			b.Fatal(err)
		}
		dur, err := e.Duration()
		if err != nil {
			b.Fatal(err)
		}
		kernel += dur
		e.Release()
	}
	report(b, kernel, 8*int64(n))
}

func sumKernel(b *testing.B, d *device.Device, lay Layout) *RedomapKernel {
	k, err := Redomap{Name: "bsum", Inputs: []Param{{"x", Float32}}, Body: "s = x;", Layout: lay,
		Reductions: []Reduction{{Name: "s", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}}}.Build(d)
	if err != nil {
		b.Fatal(err)
	}
	return k
}

// BenchmarkReduce is the map-reduce sum of n float32s on device-resident
// data, in both layouts.
func BenchmarkReduce(b *testing.B) {
	for _, lay := range []Layout{Interleaved, Chunked, Tiled} {
		b.Run(lay.String(), func(b *testing.B) {
			d := benchDevice(b)
			n := benchN(d)
			k := sumKernel(b, d, lay)
			x := deviceInput(b, d, benchInput(n))
			res := deviceBuf(b, d, 4)
			b.Log(k.Plan(n))
			runKernelBench(b, func() (Timing, error) {
				return k.RunDevice(n, []*cl.MemObject{x}, nil, []*cl.MemObject{res})
			}, 4*int64(n))
		})
	}
	b.Run("e2e", func(b *testing.B) {
		d := benchDevice(b)
		n := benchN(d)
		k := sumKernel(b, d, Auto)
		x := benchInput(n)
		got := make([]float32, 1)
		runE2E(b, func() error {
			_, err := k.Run([]HostSlice{Slice(x)}, nil, []HostSlice{Slice(got)})
			return err
		}, 4*int64(n))
	})
}

// runKernelBench runs f once to warm up, then b.N times, reporting device
// time.
func runKernelBench(b *testing.B, f func() (Timing, error), bytes int64) {
	if _, err := f(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var kernel time.Duration
	for range b.N {
		t, err := f()
		if err != nil {
			b.Fatal(err)
		}
		kernel += t.Kernel
	}
	report(b, kernel, bytes)
}

func runE2E(b *testing.B, f func() error, bytes int64) {
	if err := f(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	reportE2E(b, bytes)
}

// BenchmarkMap is y = x*x + 1 over n float32s.
func BenchmarkMap(b *testing.B) {
	d := benchDevice(b)
	n := benchN(d)
	k, err := Redomap{Name: "bmap", Inputs: []Param{{"x", Float32}}, Outputs: []Param{{"y", Float32}}, Body: "y = x * x + 1.0f;"}.Build(d)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("kernel", func(b *testing.B) {
		x := deviceInput(b, d, benchInput(n))
		y := deviceBuf(b, d, 4*n)
		runKernelBench(b, func() (Timing, error) { return k.RunDevice(n, []*cl.MemObject{x}, []*cl.MemObject{y}, nil) }, 8*int64(n))
	})
	b.Run("e2e", func(b *testing.B) {
		x, y := benchInput(n), make([]float32, n)
		runE2E(b, func() error {
			_, err := k.Run([]HostSlice{Slice(x)}, []HostSlice{Slice(y)}, nil)
			return err
		}, 8*int64(n))
	})
}

// BenchmarkHorizontal is two reductions (sum, maximum) and a map of one
// array in one pass: reads n, writes n.
func BenchmarkHorizontal(b *testing.B) {
	d := benchDevice(b)
	n := benchN(d)
	k, err := Redomap{Name: "bhoriz", Inputs: []Param{{"x", Float32}}, Outputs: []Param{{"y", Float32}},
		Reductions: []Reduction{
			{Name: "s", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true},
			{Name: "m", Type: Float32, Op: "r = fmax(a, b);", Neutral: "-INFINITY", Commutative: true},
		},
		Body: "y = 2.0f * x; s = x; m = x;"}.Build(d)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("kernel", func(b *testing.B) {
		x := deviceInput(b, d, benchInput(n))
		y := deviceBuf(b, d, 4*n)
		r1, r2 := deviceBuf(b, d, 4), deviceBuf(b, d, 4)
		runKernelBench(b, func() (Timing, error) {
			return k.RunDevice(n, []*cl.MemObject{x}, []*cl.MemObject{y}, []*cl.MemObject{r1, r2})
		}, 8*int64(n))
	})
}

// BenchmarkScan is the inclusive prefix sum of n float32s (scan) and of
// their squares plus one (scanomap, a map fused before the scan): reads
// n, writes n, on both algorithms (reduce-then-scan's kernels move 3n:
// they read the input twice).
func BenchmarkScan(b *testing.B) {
	d := benchDevice(b)
	n := benchN(d)
	for _, c := range []struct{ name, body string }{{"scan", "s = x;"}, {"scanomap", "s = x * x + 1.0f;"}} {
		for _, a := range []Algorithm{SinglePass, ReduceThenScan} {
			k := benchScan(b, d, c.name, c.body, a)
			b.Run(c.name+"/"+a.String(), func(b *testing.B) {
				x := deviceInput(b, d, benchInput(n))
				y := deviceBuf(b, d, 4*n)
				runKernelBench(b, func() (Timing, error) { return k.RunDevice(n, []*cl.MemObject{x}, y) }, 8*int64(n))
			})
		}
	}
	b.Run("e2e", func(b *testing.B) {
		k := benchScan(b, d, "scan", "s = x;", AutoAlgorithm)
		x, y := benchInput(n), make([]float32, n)
		runE2E(b, func() error {
			_, err := k.Run([]HostSlice{Slice(x)}, Slice(y))
			return err
		}, 8*int64(n))
	})
}

func benchScan(b *testing.B, d *device.Device, name, body string, a Algorithm) *ScanKernel {
	k, err := Scan{Name: "b" + name + strconv.Itoa(int(a)), Inputs: []Param{{"x", Float32}}, Body: body, Algorithm: a,
		Op: Reduction{Name: "s", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}}.Build(d)
	if err != nil {
		b.Fatal(err)
	}
	if a != AutoAlgorithm && k.Algorithm() != a {
		b.Fatalf("built %v: %s", k.Algorithm(), k.Why())
	}
	return k
}

// BenchmarkScanSweep varies the single-pass scan's tile (work-items ×
// elements per work-item) around the default, to check it on the device
// at hand.
func BenchmarkScanSweep(b *testing.B) {
	d := benchDevice(b)
	n := benchN(d)
	x := deviceInput(b, d, benchInput(n))
	y := deviceBuf(b, d, 4*n)
	for _, local := range []int{128, 256} {
		for _, k := range []int{7, 11, 15, 23} {
			if local > d.Info.MaxWorkGroupSize || int64(local*(k+1)*4) > d.Info.LocalMemSize {
				continue
			}
			b.Run(fmt.Sprintf("wg%d-k%d", local, k), func(b *testing.B) {
				spOverride = func(t *spTarget) { t.local, t.k = local, k }
				defer func() { spOverride = nil }()
				sk := benchScan(b, d, fmt.Sprintf("sweep%d_%d_", local, k), "s = x;", SinglePass)
				runKernelBench(b, func() (Timing, error) { return sk.RunDevice(n, []*cl.MemObject{x}, y) }, 8*int64(n))
			})
		}
	}
}

// BenchmarkFilter keeps the positive half of n float32s: filter-map-reduce
// (doubles the kept elements, writes them and sums them: reads n, writes
// the kept elements, about n/2), filter-map (the same without the sum)
// and filter-reduce (only the sum: reads n), on both algorithms.
func BenchmarkFilter(b *testing.B) {
	d := benchDevice(b)
	n := benchN(d)
	kept := 0
	for _, v := range benchInput(n) {
		if v > 0 {
			kept++
		}
	}
	sum := []Reduction{{Name: "y", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}}
	out := []Param{{"y", Float32}}
	for _, c := range []struct {
		name string
		outs []Param
		reds []Reduction
	}{{"filter-map-reduce", out, sum}, {"filter-map", out, nil}, {"filter-reduce", nil, sum}} {
		bytes := 4 * int64(n)
		if c.outs != nil {
			bytes += 4 * int64(kept)
		}
		algs := []Algorithm{SinglePass, ReduceThenScan}
		if c.outs == nil {
			algs = append(algs, AutoAlgorithm) // the counting pass alone
		}
		for _, a := range algs {
			k := benchFilter(b, d, c.name, c.outs, c.reds, a)
			b.Run(c.name+"/"+a.String(), func(b *testing.B) {
				x := deviceInput(b, d, benchInput(n))
				var ys, rs []*cl.MemObject
				if c.outs != nil {
					ys = append(ys, deviceBuf(b, d, 4*n))
				}
				if c.reds != nil {
					rs = append(rs, deviceBuf(b, d, 4))
				}
				runKernelBench(b, func() (Timing, error) {
					got, t, err := k.RunDevice(n, []*cl.MemObject{x}, ys, rs)
					if err == nil && got != kept {
						err = fmt.Errorf("kept %d, want %d", got, kept)
					}
					return t, err
				}, bytes)
			})
		}
	}
	b.Run("e2e", func(b *testing.B) {
		k := benchFilter(b, d, "filter-map-reduce", out, sum, AutoAlgorithm)
		x, y, s := benchInput(n), make([]float32, n), make([]float32, 1)
		runE2E(b, func() error {
			_, _, err := k.Run([]HostSlice{Slice(x)}, []HostSlice{Slice(y)}, []HostSlice{Slice(s)})
			return err
		}, 4*int64(n)+4*int64(kept))
	})
}

// BenchmarkFilterKeep is filter compaction on the single pass at keep
// ratios of 10%, 50% and 90% of n float32s in [-1, 1): the kept elements
// themselves (filter), doubled plus one (filter-map), and their running
// sum (filter-scan, Filter.Scan). GB/s counts the n elements read and the
// kept ones written, as BenchmarkCopy counts its reads and writes.
func BenchmarkFilterKeep(b *testing.B) {
	d := benchDevice(b)
	n := benchN(d)
	x := deviceInput(b, d, benchInput(n))
	y := deviceBuf(b, d, 4*n)
	for _, c := range []struct{ name, body string }{
		{"filter", "y = x;"}, {"filter-map", "y = 2.0f * x + 1.0f;"}, {"filter-scan", "y = x;"},
	} {
		for _, pct := range []int{10, 50, 90} {
			thr := float32(100-2*pct) / 100
			kept := 0
			for _, v := range benchInput(n) {
				if v > thr {
					kept++
				}
			}
			f := Filter{Name: fmt.Sprintf("bkeep_%s_%d", strings.ReplaceAll(c.name, "-", "_"), pct), Inputs: []Param{{"x", Float32}},
				Outputs: []Param{{"y", Float32}}, Body: fmt.Sprintf("keep = x > %.2ff; %s", thr, c.body), Algorithm: SinglePass}
			if c.name == "filter-scan" {
				f.Outputs = nil
				f.Scan = &Reduction{Name: "y", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}
			}
			k, err := f.Build(d)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/keep=%d", c.name, pct), func(b *testing.B) {
				runKernelBench(b, func() (Timing, error) {
					got, t, err := k.RunDevice(n, []*cl.MemObject{x}, []*cl.MemObject{y}, nil)
					if err == nil && got != kept {
						err = fmt.Errorf("kept %d, want %d", got, kept)
					}
					return t, err
				}, 4*int64(n)+4*int64(kept))
			})
		}
	}
}

// BenchmarkFilterSweep varies the single-pass filter-map-reduce's tile
// around the default.
func BenchmarkFilterSweep(b *testing.B) {
	d := benchDevice(b)
	n := benchN(d)
	x := deviceInput(b, d, benchInput(n))
	y, s := deviceBuf(b, d, 4*n), deviceBuf(b, d, 4)
	kept := 0
	for _, v := range benchInput(n) {
		if v > 0 {
			kept++
		}
	}
	sum := []Reduction{{Name: "y", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}}
	for _, local := range []int{128, 256} {
		for _, k := range []int{7, 11, 15, 23, 31} {
			if local > d.Info.MaxWorkGroupSize || int64(local*(k+1)*4) > d.Info.LocalMemSize {
				continue
			}
			b.Run(fmt.Sprintf("wg%d-k%d", local, k), func(b *testing.B) {
				spOverride = func(t *spTarget) { t.local, t.k = local, k }
				defer func() { spOverride = nil }()
				fk := benchFilter(b, d, fmt.Sprintf("fsweep%d_%d_", local, k), []Param{{"y", Float32}}, sum, SinglePass)
				runKernelBench(b, func() (Timing, error) {
					_, t, err := fk.RunDevice(n, []*cl.MemObject{x}, []*cl.MemObject{y}, []*cl.MemObject{s})
					return t, err
				}, 4*int64(n)+4*int64(kept))
			})
		}
	}
}

func benchFilter(b *testing.B, d *device.Device, name string, outs []Param, reds []Reduction, a Algorithm) *FilterKernel {
	k, err := Filter{Name: "b" + strings.ReplaceAll(name, "-", "_") + strconv.Itoa(int(a)), Inputs: []Param{{"x", Float32}},
		Outputs: outs, Reductions: reds, Body: "keep = x > 0.0f; y = 2.0f * x;", Algorithm: a}.Build(d)
	if err != nil {
		b.Fatal(err)
	}
	if a != AutoAlgorithm && k.Algorithm() != a {
		b.Fatalf("built %v: %s", k.Algorithm(), k.Why())
	}
	return k
}

// BenchmarkGoSum is the host baseline: a Go loop with four accumulators
// over the same n float32s (reassociated like the device's sum).
func BenchmarkGoSum(b *testing.B) {
	d := benchDevice(b)
	x := benchInput(benchN(d))
	var sink float32
	b.ResetTimer()
	for range b.N {
		sink += goSum(x)
	}
	reportE2E(b, 4*int64(len(x)))
	_ = sink
}

func goSum(x []float32) float32 {
	var a, b, c, d float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		a += x[i]
		b += x[i+1]
		c += x[i+2]
		d += x[i+3]
	}
	for ; i < len(x); i++ {
		a += x[i]
	}
	return a + b + c + d
}

// BenchmarkReduceSweep varies the launch geometry of the interleaved sum
// around the defaults, to check them on the device at hand.
func BenchmarkReduceSweep(b *testing.B) {
	d := benchDevice(b)
	n := benchN(d)
	k := sumKernel(b, d, Interleaved)
	x := deviceInput(b, d, benchInput(n))
	res := deviceBuf(b, d, 4)
	for _, local := range []int{128, 256, 512} {
		for _, perCU := range []int{4, 8, 16, 32} {
			if local > k.prog.wg {
				continue
			}
			b.Run(fmt.Sprintf("wg%d-perCU%d", local, perCU), func(b *testing.B) {
				planOverride = func(info device.Info, l, g *int) { *l, *g = local, info.ComputeUnits*perCU }
				defer func() { planOverride = nil }()
				runKernelBench(b, func() (Timing, error) {
					return k.RunDevice(n, []*cl.MemObject{x}, nil, []*cl.MemObject{res})
				}, 4*int64(n))
			})
		}
	}
}

// BenchmarkTiledSweep varies the Tiled layout's run per round for a
// float32 and a float64 sum whose operator is not declared commutative
// (as generated kernels declare theirs).
func BenchmarkTiledSweep(b *testing.B) {
	d := benchDevice(b)
	n := benchN(d)
	x32 := deviceInput(b, d, benchInput(n))
	res := deviceBuf(b, d, 8)
	for _, tk := range []int{8, 16, 32} {
		for _, ty := range []Type{Float32, Float64} {
			if ty.Size == 8 && !d.Info.FP64 {
				continue
			}
			b.Run(fmt.Sprintf("%s-run%d", ty.Name, tk), func(b *testing.B) {
				tiledRunOverride = tk
				defer func() { tiledRunOverride = 0 }()
				k, err := Redomap{Name: fmt.Sprintf("btiled%s%d", ty.Name, tk), Inputs: []Param{{"x", ty}}, Body: "s = x;", Layout: Tiled,
					Reductions: []Reduction{{Name: "s", Type: ty, Op: "r = a + b;", Neutral: "0"}}}.Build(d)
				if err != nil {
					b.Fatal(err)
				}
				m := n
				if ty.Size == 8 {
					m = n / 2 // the same bytes as the float32 array
				}
				b.Log(k.Plan(m))
				runKernelBench(b, func() (Timing, error) {
					return k.RunDevice(m, []*cl.MemObject{x32}, nil, []*cl.MemObject{res})
				}, 4*int64(n))
			})
		}
	}
}
