// Package smallbench compares every example's parallel-backend function
// with its cpu-backend one where the parallel function runs its
// sequential path (n = 1 and 1e3), in blocks of calls that alternate
// between the two, so that the host's drift and load fall on both alike
// (the goal: the parallel function no more than 5% slower than cpu's).
// Three control pairs put a cpu function beside a copy of its own code
// (controls.go): what placement alone moves a ratio. It holds a
// benchmark and the check that the copies match; the examples' tests
// check results.
package smallbench

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/soacgen/soacgen/examples/blackscholes"
	"github.com/soacgen/soacgen/examples/dotprod"
	"github.com/soacgen/soacgen/examples/histogram"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/examples/kmeans"
	"github.com/soacgen/soacgen/examples/matmul"
	"github.com/soacgen/soacgen/examples/prefixsum"
	"github.com/soacgen/soacgen/examples/quickhull"
	"github.com/soacgen/soacgen/examples/sumsq"
	"github.com/soacgen/soacgen/examples/sumsqpos"
)

// pair is one example's cpu and parallel functions on inputs of one size.
type pair struct {
	name     string
	cpu, par func()
}

// pairs returns every example's pair on inputs of n elements (matmul:
// the square matrices of at least n elements, only for n > 1).
func pairs(n int) []pair {
	xs, ys := extest.Floats(extest.Rand(1, n), n, -1.1, 1.1), extest.Floats(extest.Rand(2, n), n, -1.1, 1.1)
	pos := make([]float64, n)
	is := make([]int, n)
	for i := range pos {
		pos[i] = xs[i] * xs[i] * 10
		is[i] = i%7 - 3
	}
	r := rand.New(rand.NewPCG(3, 1))
	opts := make([]blackscholes.Option, n)
	for i := range opts {
		opts[i] = blackscholes.Option{S: 10 + 90*r.Float64(), K: 10 + 90*r.Float64(), T: 0.1 + 2*r.Float64(), R: 0.1 * r.Float64(), V: 0.05 + 0.5*r.Float64()}
	}
	kps := make([]kmeans.Point, n)
	qps := make([]quickhull.Point, n)
	for i := range kps {
		kps[i] = kmeans.Point{X: xs[i], Y: ys[i]}
		qps[i] = quickhull.Point{X: xs[i], Y: ys[i]}
	}
	centres := kps[:min(n, 8)]
	qa, qb := quickhull.Point{X: -1, Y: -0.2}, quickhull.Point{X: 1, Y: 0.3}
	ps := []pair{
		{"SumSq", func() { sumsq.SumSq(xs) }, func() { sumsq.SumSqPar(xs) }},
		{"Dot", func() { dotprod.Dot(xs, ys) }, func() { dotprod.DotPar(xs, ys) }},
		{"SumSqPos", func() { sumsqpos.SumSqPos(xs) }, func() { sumsqpos.SumSqPosPar(xs) }},
		{"PrefixSums", func() { prefixsum.PrefixSums(is) }, func() { prefixsum.PrefixSumsPar(is) }},
		{"PrefixSqrts", func() { prefixsum.PrefixSqrts(pos) }, func() { prefixsum.PrefixSqrtsPar(pos) }},
		{"HalfSqrts", func() { prefixsum.HalfSqrts(pos) }, func() { prefixsum.HalfSqrtsPar(pos) }},
		{"ChunkedSums", func() { prefixsum.ChunkedSums(is) }, func() { prefixsum.ChunkedSumsPar(is) }},
		{"PortfolioValue", func() { blackscholes.PortfolioValue(opts) }, func() { blackscholes.PortfolioValuePar(opts) }},
		{"CallPrices", func() { blackscholes.CallPrices(opts) }, func() { blackscholes.CallPricesPar(opts) }},
		{"Histogram", func() { histogram.Histogram(xs, -1, 1, 64) }, func() { histogram.HistogramPar(xs, -1, 1, 64) }},
		{"ClusterSizes", func() { kmeans.ClusterSizes(kps, centres) }, func() { kmeans.ClusterSizesPar(kps, centres) }},
		{"FilterMax", func() { quickhull.FilterMax(qps, qa, qb) }, func() { quickhull.FilterMaxPar(qps, qa, qb) }},
		// Controls: the cpu function against a copy of its own code
		// (controls.go); "par" is the copy.
		{"SumSqCopy", func() { sumsq.SumSq(xs) }, func() { SumSqCopy(xs) }},
		{"SumSqPosCopy", func() { sumsqpos.SumSqPos(xs) }, func() { SumSqPosCopy(xs) }},
		{"ChunkedSumsCopy", func() { prefixsum.ChunkedSums(is) }, func() { ChunkedSumsCopy(is) }},
	}
	if n > 1 {
		side := 1
		for side*side < n {
			side++
		}
		a, bt := make([][]float64, side), make([][]float64, side)
		for i := range a {
			a[i], bt[i] = extest.Floats(extest.Rand(10+uint64(i), side), side, -1, 1), extest.Floats(extest.Rand(1000+uint64(i), side), side, -1, 1)
		}
		ps = append(ps, pair{"MatMul", func() { matmul.MatMul(a, bt) }, func() { matmul.MatMulPar(a, bt) }})
	}
	return ps
}

// blockNanos is about how long one block of calls takes: long against
// the clock's reading, short against the host's drift.
const blockNanos = 20_000

// BenchmarkSmallPaired runs, per example and n (1, 1e3), blocks of calls
// of the cpu and the parallel function in turn (extest.Paired; b.N
// counts blocks of each). It reports cpu-ns/op and par-ns/op, the
// medians of a call's time per block, and par/cpu, the median of the
// blocks' ratios. Filter with -test.bench 'SmallPaired/HalfSqrts/n=1$'.
func BenchmarkSmallPaired(b *testing.B) {
	for _, n := range []int{1, 1000} {
		for _, p := range pairs(n) {
			b.Run(p.name+"/n="+strconv.Itoa(n), func(b *testing.B) {
				calls := 1
				for {
					t0 := time.Now()
					for range calls {
						p.cpu()
						p.par()
					}
					if time.Since(t0) >= 2*blockNanos || calls >= 1<<20 {
						break
					}
					calls *= 2
				}
				c, q, r := extest.Paired(b, calls, p.cpu, p.par)
				b.ReportMetric(c, "cpu-ns/op")
				b.ReportMetric(q, "par-ns/op")
				b.ReportMetric(r, "par/cpu")
			})
		}
	}
}
