package quickhull

import (
	"math"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkFilterMaxPar compares the parallel backend's filter (kept
// points, beside a max reduction) with the cpu backend and the goroutine
// filter a Go programmer writes (a buffer per chunk, copied in order).
func BenchmarkFilterMaxPar(b *testing.B) {
	a, c := Point{-1, -0.2}, Point{1, 0.3}
	impls := []struct {
		name string
		fn   func([]Point, Point, Point) (Point, []Point)
	}{
		{"cpu", FilterMax},
		{"parallel", FilterMaxPar},
		{"goroutines", goFilterMax},
	}
	for _, size := range extest.ParBenchSizes {
		ps := randPoints(size.N)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(16 * len(ps)))
					for b.Loop() {
						im.fn(ps, a, c)
					}
				})
			}
		})
	}
}

// BenchmarkFilterGC runs the cpu and parallel FilterMax at 1e6 points
// under GOGC 100 and 1000 (extest.GCSweep), as prefixsum's BenchmarkScanGC
// does for the scans: each call allocates a fresh output of the kept
// points.
func BenchmarkFilterGC(b *testing.B) {
	ps := randPoints(1_000_000)
	a, c := Point{-1, -0.2}, Point{1, 0.3}
	extest.GCSweep(b, int64(16*len(ps)), []int{100, 1000},
		extest.Call{Name: "cpu", Call: func() { FilterMax(ps, a, c) }},
		extest.Call{Name: "parallel", Call: func() { FilterMaxPar(ps, a, c) }})
}

// best is the farthest point of a chunk of goFilterMax, with its
// distance.
type best struct {
	p Point
	d float64
}

// goFilterMax is FilterMax as the goroutine filter a Go programmer writes
// (one chunk per core, a buffer per chunk, copied in order).
func goFilterMax(ps []Point, a, b Point) (Point, []Point) {
	above, far := extest.GoFilterFold(len(ps), func(lo, hi int) ([]Point, best) {
		far, up := filterMaxHand(ps[lo:hi], a, b)
		d := math.Inf(-1)
		if hi > lo {
			d = cross(a, b, far)
		}
		return up, best{far, d}
	}, func(x, y best) best {
		if y.d > x.d {
			return y
		}
		return x
	})
	return far.p, above
}

// BenchmarkParPaired times FilterMax at 1e5, 1e6 and 1e7 points as
// extest.ParPaired does (the cpu, parallel and hand functions in turns).
func BenchmarkParPaired(b *testing.B) {
	a, c := Point{-1, -0.2}, Point{1, 0.3}
	for _, size := range extest.PairedSizes {
		ps := randPoints(size.N)
		b.Run("FilterMax/"+size.Name, func(b *testing.B) {
			extest.ParPaired(b, func() { FilterMax(ps, a, c) }, func() { FilterMaxPar(ps, a, c) }, func() { goFilterMax(ps, a, c) })
		})
	}
}
