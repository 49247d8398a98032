package kmeans

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// goSums is kmeansSums over GOMAXPROCS chunks, one goroutine each, the
// chunks' sums added in order.
func goSums(ps, centres []Point) []Sum {
	return extest.GoReduce(len(ps), func(lo, hi int) []Sum {
		return kmeansSums(ps[lo:hi], centres)
	}, func(x, y []Sum) []Sum {
		for i := range x {
			x[i].X += y[i].X
			x[i].Y += y[i].Y
			x[i].N += y[i].N
		}
		return x
	})
}

// TestKMeansHand checks the benchmark's hand loops against the spec
// (integer coordinates: exact in every association).
func TestKMeansHand(t *testing.T) {
	ps, cs := gridPoints(14, 100_003), gridPoints(15, 16)
	want := kmeansSpec(ps, cs, 5)
	for name, sums := range map[string]func(ps, cs []Point) []Sum{"loop": kmeansSums, "goroutines": goSums} {
		if d := extest.Same(kmeansHand(ps, cs, 5, sums), want); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

// BenchmarkKMeans compares KMeans (cpu backend), KMeansPar (parallel
// backend) and the hand goroutine loop: 10 rounds, k = 16 centres.
// The opencl form is benchmarked in examples/internal/clbench.
func BenchmarkKMeans(b *testing.B) {
	impls := []struct {
		name string
		fn   func(ps, centres []Point, iters int) []Point
	}{
		{"cpu", KMeans},
		{"parallel", KMeansPar},
		{"goroutines", func(ps, centres []Point, iters int) []Point { return kmeansHand(ps, centres, iters, goSums) }},
	}
	cs := randPoints(16, 16)
	for _, size := range []extest.BenchSize{{Name: "n=1e4", N: 10_000}, {Name: "n=2^23", N: 1 << 23}} {
		ps := randPoints(17, size.N)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(16 * len(ps) * 10))
					for b.Loop() {
						im.fn(ps, cs, 10)
					}
				})
			}
		})
	}
}
