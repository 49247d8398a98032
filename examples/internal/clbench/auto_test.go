package clbench

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/soacgen/soacgen/examples/blackscholes"
	"github.com/soacgen/soacgen/examples/histogram"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/examples/kmeans"
	"github.com/soacgen/soacgen/examples/matmul"
	"github.com/soacgen/soacgen/examples/normalize2"
	"github.com/soacgen/soacgen/examples/sumsq"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// autoSizes are the lengths BenchmarkAutoAll runs the one-dimensional
// examples at; autoSides the sides of matmul's square matrices.
var (
	autoSizes = []int{1_000, 10_000, 100_000, 1_000_000, 10_000_000}
	autoSides = []int{64, 256, 1024, 2048}
)

// autoCase is one example at one size: its three variants (backend
// opencl, parallel and auto) as closures over inputs made by setup.
type autoCase struct {
	name  string
	setup func() (cl, par, auto func())
}

// autoCases returns every example and size of BenchmarkAutoAll; each
// makes its inputs only when its sub-benchmark runs.
// Under -short (CI's run of every benchmark once, on PoCL) the largest
// matrices are left out: one call of a 2048² matmul takes minutes there.
func autoCases() []autoCase {
	if testing.Short() {
		return autoCasesAt(autoSizes, autoSides[:len(autoSides)-1])
	}
	return autoCasesAt(autoSizes, autoSides)
}

// autoCasesAt is autoCases at the given lengths and matmul sides.
func autoCasesAt(autoSizes, autoSides []int) []autoCase {
	var cs []autoCase
	for _, n := range autoSizes {
		at := "/n=" + strconv.Itoa(n)
		cs = append(cs,
			autoCase{"CallPrices" + at, func() (func(), func(), func()) {
				r := rand.New(rand.NewPCG(9, 1))
				opts := make([]blackscholes.Option, n)
				for i := range opts {
					opts[i] = blackscholes.Option{S: 10 + 90*r.Float64(), K: 10 + 90*r.Float64(), T: 0.1 + 2*r.Float64(), R: 0.1 * r.Float64(), V: 0.05 + 0.5*r.Float64()}
				}
				return func() { blackscholes.CallPricesCL(opts) }, func() { blackscholes.CallPricesPar(opts) }, func() { blackscholes.CallPricesAuto(opts) }
			}},
			autoCase{"SumSq" + at, func() (func(), func(), func()) {
				xs := floats(n, 11)
				return func() { sumsq.SumSqCL(xs) }, func() { sumsq.SumSqPar(xs) }, func() { sumsq.SumSqAuto(xs) }
			}},
			autoCase{"ClusterSizes" + at, func() (func(), func(), func()) {
				r := rand.New(rand.NewPCG(10, 1))
				ps := make([]kmeans.Point, n)
				for i := range ps {
					ps[i] = kmeans.Point{X: r.NormFloat64(), Y: r.NormFloat64()}
				}
				cs := make([]kmeans.Point, 16)
				for i := range cs {
					cs[i] = kmeans.Point{X: r.NormFloat64(), Y: r.NormFloat64()}
				}
				return func() { kmeans.ClusterSizesCL(ps, cs) }, func() { kmeans.ClusterSizesPar(ps, cs) }, func() { kmeans.ClusterSizesAuto(ps, cs) }
			}},
			autoCase{"Histogram" + at, func() (func(), func(), func()) {
				xs := floats(n, 12)
				return func() { histogram.HistogramCL(xs, -1, 1, 256) }, func() { histogram.HistogramPar(xs, -1, 1, 256) }, func() { histogram.HistogramAuto(xs, -1, 1, 256) }
			}},
			autoCase{"Normalize2" + at, func() (func(), func(), func()) {
				xs := floats(n, 13)
				return func() { normalize2.Normalize2CL(xs) }, func() { normalize2.Normalize2Par(xs) }, func() { normalize2.Normalize2Auto(xs) }
			}},
		)
	}
	for _, m := range autoSides {
		at := "/m=" + strconv.Itoa(m)
		cs = append(cs,
			autoCase{"MatMul" + at, func() (func(), func(), func()) {
				a, bt := matrix(m, 14), matrix(m, 15)
				return func() { matmul.MatMulCL(a, bt) }, func() { matmul.MatMulPar(a, bt) }, func() { matmul.MatMulAuto(a, bt) }
			}},
			autoCase{"MatMul32" + at, func() (func(), func(), func()) {
				a, bt := matrix32(m, 16), matrix32(m, 17)
				return func() { matmul.MatMul32CL(a, bt) }, func() { matmul.MatMul32Par(a, bt) }, func() { matmul.MatMul32Auto(a, bt) }
			}},
		)
	}
	return cs
}

// matrix returns an m×m matrix of floats in [-1, 1).
func matrix(m int, seed uint64) [][]float64 {
	x := make([][]float64, m)
	for i := range x {
		x[i] = floats(m, seed+uint64(i)*7)
	}
	return x
}

// matrix32 is matrix for float32.
func matrix32(m int, seed uint64) [][]float32 {
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

// BenchmarkAutoAll runs, per example and size, the backend=opencl,
// parallel and auto variants (sub-benchmarks opencl, parallel, auto) in
// one process, for the goal "auto within 10% of the faster of parallel
// and opencl": CallPrices, SumSq, ClusterSizes (16 centres), Histogram
// (256 bins) and Normalize2 at n = 1e3 ... 1e7, MatMul and MatMul32 at
// m×m for m = 64, 256, 1024, 2048. Every variant runs once before its
// timing (the programs built, the device opened). The opencl and auto
// variants report kernel-ns/op (the device's kernel time per call: 0 for
// an auto that chose the host) so that the choice shows beside the times.
// Filter with -test.bench 'AutoAll/CallPrices/n=1000$' and the like.
func BenchmarkAutoAll(b *testing.B) {
	for _, c := range autoCases() {
		b.Run(c.name, func(b *testing.B) {
			cl, par, auto := c.setup()
			for _, v := range []struct {
				name   string
				f      func()
				device bool
			}{{"opencl", cl, true}, {"parallel", par, false}, {"auto", auto, true}} {
				b.Run(v.name, func(b *testing.B) {
					v.f()
					k0, _ := launch.DeviceTime()
					b.ResetTimer()
					for range b.N {
						v.f()
					}
					b.StopTimer()
					if v.device {
						k1, _ := launch.DeviceTime()
						b.ReportMetric(float64(k1-k0)/float64(b.N), "kernel-ns/op")
					}
				})
			}
		})
	}
}

// BenchmarkAutoPaired times each example and size's parallel and auto
// variants call by call in one loop (alternating which goes first), so
// that a drift of the host's speed over a run (turbo, other load, the
// collector) falls on both alike: BenchmarkAutoAll takes each variant's
// samples one after the other, and there the parallel samples of
// Histogram at n = 1e5 rose from 136 to 163 µs before auto's ran (issue
// 13's 1.13×). It reports the medians of the calls' times, par-ns/op and
// auto-ns/op, and of the pairs' ratios, auto/par (medians: a call that
// the scheduler delays by far more than its own time moves them little).
// On the host auto runs the parallel variant's code (the same closures)
// after its choice (launch's Use, BenchmarkChoice: tens of nanoseconds).
// Filter as for BenchmarkAutoAll.
func BenchmarkAutoPaired(b *testing.B) {
	for _, c := range autoCases() {
		b.Run(c.name, func(b *testing.B) {
			_, par, auto := c.setup()
			par()
			auto()
			p, a, r := extest.Paired(b, 1, par, auto)
			b.ReportMetric(p, "par-ns/op")
			b.ReportMetric(a, "auto-ns/op")
			b.ReportMetric(r, "auto/par")
		})
	}
}

// BenchmarkAutoRounds times each example and size's opencl, parallel
// and auto variants in rounds (extest.Rounds: one call of each a round,
// the first variant rotating), so that the goal "auto within 10% of
// the faster of parallel and opencl" is judged on samples taken side by
// side, the device's included: BenchmarkAutoAll times the variants one
// after the other and BenchmarkAutoPaired leaves the device out. It
// reports the medians of each variant's time a call (cl-ns/op,
// par-ns/op, auto-ns/op), the median of the rounds' auto/min(cl, par)
// (auto/best: ≤ 1.10 is the goal) and which variant was faster by its
// median (cl-faster: 1 or 0). Each timed call follows a call of another
// variant, which a program calling one function repeatedly never sees:
// the medians of each variant's calls by the variant that ran just
// before (extest.After), X-after-Y-ns for X, Y of cl, par and auto,
// show whether that order moves the times (a GPU call right after a
// call on every core, a host call right after a GPU call's wait);
// BenchmarkAutoRoundsWarm times each variant after a call of its own.
// Filter as for BenchmarkAutoAll.
func BenchmarkAutoRounds(b *testing.B) {
	autoRounds(b, extest.RoundsOptions{})
}

// BenchmarkAutoRoundsWarm is BenchmarkAutoRounds with one untimed call
// of each variant before its timed call in every round
// (extest.RoundsOptions.Warm): each variant's time in a run of its own
// calls, what a program that calls it repeatedly sees, with the rounds'
// side by side sampling kept. Filter with -test.bench
// 'AutoRoundsWarm/Normalize2/n=100000$' and the like.
func BenchmarkAutoRoundsWarm(b *testing.B) {
	autoRounds(b, extest.RoundsOptions{Warm: 1})
}

// BenchmarkAutoRoundsGC is BenchmarkAutoRounds with the collector run
// (untimed) before each timed call (extest.RoundsOptions.GC), so that
// where the garbage collector's cycles fall does not repeat with the
// rounds. It reports what BenchmarkAutoRounds does.
func BenchmarkAutoRoundsGC(b *testing.B) {
	autoRounds(b, extest.RoundsOptions{GC: true})
}

// autoNames are the variants of autoRounds, in the order of its
// samples.
var autoNames = []string{"cl", "par", "auto"}

// autoRounds is BenchmarkAutoRounds sampling with the options o.
func autoRounds(b *testing.B, o extest.RoundsOptions) {
	for _, c := range autoCases() {
		b.Run(c.name, func(b *testing.B) {
			cl, par, auto := c.setup()
			cl()
			par()
			auto()
			s := extest.RoundsWith(b, o, 1, cl, par, auto)
			if o.Warm == 0 {
				for f, x := range autoNames {
					for g, y := range autoNames {
						if a := extest.After(s, f, g); f != g && len(a) > 0 {
							b.ReportMetric(extest.Median(a), x+"-after-"+y+"-ns")
						}
					}
				}
			}
			best := make([]float64, len(s[2]))
			for i := range best {
				best[i] = s[2][i] / min(s[0][i], s[1][i])
			}
			clNs, parNs := extest.Median(s[0]), extest.Median(s[1])
			b.ReportMetric(clNs, "cl-ns/op")
			b.ReportMetric(parNs, "par-ns/op")
			b.ReportMetric(extest.Median(s[2]), "auto-ns/op")
			b.ReportMetric(extest.Median(best), "auto/best")
			faster := 0.0
			if clNs < parNs {
				faster = 1
			}
			b.ReportMetric(faster, "cl-faster")
		})
	}
}
