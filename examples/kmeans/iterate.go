package kmeans

// This file holds k-means clustering with its iterations inside the spec:
// each round assigns every point to its nearest centre and moves each
// centre to the mean of its points.
//
// Pipeline shape, per round: a StreamRed over the points whose chunk
// function builds a local []Sum of k per-centre sums and counts (a plain
// loop), with an operator adding two such rows element-wise (a nested
// Map2); then a Map2 over the centres' indices and the old centres
// dividing each centre's sum by its count (a centre without points stays
// where it was). The map reads the sums by index, as a captured slice:
// a StreamRed's result is complete only after it ran, so no rule fuses
// it into a consumer, and an input would be a refused fusion. The points
// are read, never written, by every round: on the opencl backend they are
// uploaded once per call and every round's kernel reads that copy.

import "github.com/soacgen/soacgen/runtime/soac"

// Sum is the sum of the points nearest to a centre and their number.
type Sum struct {
	X, Y float64
	N    int
}

// kmeansSpec runs iters rounds of k-means (Lloyd's algorithm) over ps from
// the given centres and returns the centres it ends with (centres itself
// when iters <= 0). centres must not be empty unless ps is. Sums of
// float64 coordinates depend on their association: the chunk function and
// operator give the same sums for every chunking only up to rounding
// (exactly when the coordinates are small integers).
//
// Its directives generate KMeans (cpu), KMeansPar (parallel) and KMeansCL
// (opencl).
//
//soac:fuse KMeans
//soac:fuse KMeansPar backend=parallel
//soac:fuse KMeansCL backend=opencl
func kmeansSpec(ps []Point, centres []Point, iters int) []Point {
	k := len(centres)
	for it := 0; it < iters; it++ {
		sums := soac.StreamRed(ps,
			func(x, y []Sum) []Sum {
				return soac.Map2(x, y, func(a, b Sum) Sum { return Sum{a.X + b.X, a.Y + b.Y, a.N + b.N} })
			},
			func(chunk []Point) []Sum {
				acc := make([]Sum, k)
				for _, p := range chunk {
					i := nearest(p, centres)
					acc[i].X += p.X
					acc[i].Y += p.Y
					acc[i].N++
				}
				return acc
			})
		centres = soac.Map2(soac.Iota(k), centres, func(i int, c Point) Point {
			s := sums[i]
			if s.N == 0 {
				return c
			}
			n := float64(s.N)
			return Point{s.X / n, s.Y / n}
		})
	}
	return centres
}
