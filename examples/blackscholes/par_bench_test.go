package blackscholes

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/parallel"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkPortfolioValuePar and BenchmarkCallPricesPar compare the
// parallel backend with the cpu backend and a hand-written goroutine loop
// (one chunk per core).
func BenchmarkPortfolioValuePar(b *testing.B) {
	impls := []struct {
		name string
		fn   func([]Option) float64
	}{
		{"cpu", PortfolioValue},
		{"parallel", PortfolioValuePar},
		{"goroutines", func(opts []Option) float64 {
			return extest.GoReduce(len(opts), func(lo, hi int) float64 { return portfolioValueHand(opts[lo:hi]) },
				func(a, b float64) float64 { return a + b })
		}},
	}
	for _, size := range extest.ParBenchSizes {
		opts := randOptions(size.N)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						im.fn(opts)
					}
				})
			}
		})
	}
}

func BenchmarkCallPricesPar(b *testing.B) {
	impls := []struct {
		name string
		fn   func([]Option) []float64
	}{
		{"cpu", CallPrices},
		{"parallel", CallPricesPar},
		{"goroutines", func(opts []Option) []float64 {
			out := make([]float64, len(opts))
			extest.GoFor(len(opts), func(lo, hi int) {
				for i := lo; i < hi; i++ {
					out[i] = callPrice(opts[i])
				}
			})
			return out
		}},
	}
	for _, size := range extest.ParBenchSizes {
		opts := randOptions(size.N)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						im.fn(opts)
					}
				})
			}
		})
	}
}

// BenchmarkParPaired times cpu, parallel and the hand goroutine loop of
// CallPrices and PortfolioValue in turns (extest.ParPaired): the speedup
// cpu/par and par/hand, the parallel backend's two goals, from one run; beside them
// CallPrices' chunk code generated before ChunkFuncs (before:
// callPricesParCaptured) and the hand loops with the parallel functions'
// chunks (handchunks).
func BenchmarkParPaired(b *testing.B) {
	for _, size := range extest.PairedSizes {
		opts := randOptions(size.N)
		b.Run("CallPrices/"+size.Name, func(b *testing.B) {
			extest.ParPaired(b,
				func() { CallPrices(opts) },
				func() { CallPricesPar(opts) },
				func() { callPricesGoroutines(opts) },
				extest.Variant{Name: "before", Fn: func() { callPricesParCaptured(opts) }},
				extest.Variant{Name: "handchunks", Fn: func() { callPricesGoChunks(opts) }})
		})
		b.Run("PortfolioValue/"+size.Name, func(b *testing.B) {
			extest.ParPaired(b,
				func() { PortfolioValue(opts) },
				func() { PortfolioValuePar(opts) },
				func() { portfolioValueGoroutines(opts) },
				extest.Variant{Name: "handchunks", Fn: func() { portfolioValueGoChunks(opts) }})
		})
	}
}

// callPricesGoroutines is CallPrices as a hand-written goroutine loop:
// one chunk per core into a make'd slice.
func callPricesGoroutines(opts []Option) []float64 {
	out := make([]float64, len(opts))
	extest.GoFor(len(opts), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = callPrice(opts[i])
		}
	})
	return out
}

// portfolioValueGoroutines is PortfolioValue as a hand-written goroutine
// loop: one chunk per core, the partial sums added in order.
func portfolioValueGoroutines(opts []Option) float64 {
	return extest.GoReduce(len(opts), func(lo, hi int) float64 { return portfolioValueHand(opts[lo:hi]) },
		func(a, b float64) float64 { return a + b })
}

// callPricesGoChunks is callPricesGoroutines with CallPricesPar's chunks
// (extest.GoChunks): the decomposition's cost without the runtime's.
func callPricesGoChunks(opts []Option) []float64 {
	n := len(opts)
	out := make([]float64, n)
	k := parallel.Chunks(n, 77)
	extest.GoChunks(k, func(c int) {
		lo, hi := parallel.Bounds(n, k, c)
		for i := lo; i < hi; i++ {
			out[i] = callPrice(opts[i])
		}
	})
	return out
}

// portfolioValueGoChunks is portfolioValueGoroutines with
// PortfolioValuePar's chunks (extest.GoChunks), the partial sums added in
// chunk order.
func portfolioValueGoChunks(opts []Option) float64 {
	n := len(opts)
	k := parallel.Chunks(n, 71)
	parts := make([]float64, k)
	extest.GoChunks(k, func(c int) {
		lo, hi := parallel.Bounds(n, k, c)
		parts[c] = portfolioValueHand(opts[lo:hi])
	})
	sum := parts[0]
	for _, p := range parts[1:] {
		sum += p
	}
	return sum
}
