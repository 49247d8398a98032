// Package papers holds the benchmark programs of the papers, written in Go.
package papers

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b float64) float64 { return a + b }

func minf(a, b float64) float64 {
	if a < b {
		return a
	}
	return b
}

func maxf(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

// normalize2 (Robinson et al., "Clustering for Array-Backed Streams" (2014) [Robinson-ILP] §1.1): two kernels, {sum1, gts, sum2} and {ys1, ys2}.
func normalize2(xs []float64) (ys1, ys2 []float64) {
	sum1 := soac.Reduce(xs, 0.0, func(a, b float64) float64 { return a + b })
	gts := soac.Filter(xs, func(x float64) bool { return x > 0 })
	sum2 := soac.Reduce(gts, 0.0, func(a, b float64) float64 { return a + b })
	ys1 = soac.Map(xs, func(x float64) float64 { return x / sum1 })
	ys2 = soac.Map(xs, func(x float64) float64 { return x / sum2 })
	return ys1, ys2
}

// normalizeInc ([Robinson-ILP] Fig. 1.9): two kernels, incs never materialised.
func normalizeInc(us []float64) []float64 {
	incs := soac.Map(us, func(u float64) float64 { return u + 1 })
	sum1 := soac.Reduce(us, 0.0, add)
	ys := soac.Map(incs, func(x float64) float64 { return x / sum1 })
	return ys
}

type point struct{ x, y float64 }

type line struct{ a, b point }

type ann struct {
	p point
	d float64
}

func distance(p point, l line) float64 {
	return (l.b.x-l.a.x)*(p.y-l.a.y) - (l.b.y-l.a.y)*(p.x-l.a.x)
}

func maxBy(a, b ann) ann {
	if a.d >= b.d {
		return a
	}
	return b
}

// filterMax (quickhull core, [Robinson-ILP] Listing 1.4): one kernel.
func filterMax(l line, pts []point) (point, []point) {
	ptsAnn := soac.Map(pts, func(p point) ann { return ann{p, distance(p, l)} })
	maxim := soac.Reduce(ptsAnn, ann{d: -1e308}, maxBy)
	aboveAnn := soac.Filter(ptsAnn, func(a ann) bool { return a.d > 0 })
	above := soac.Map(aboveAnn, func(a ann) point { return a.p })
	return maxim.p, above
}

// initialBounds (quadtree, [Robinson-ILP] Listing 1.3): one kernel.
func initialBounds(pts []point) (x1, y1, x2, y2 float64) {
	xs := soac.Map(pts, func(p point) float64 { return p.x })
	ys := soac.Map(pts, func(p point) float64 { return p.y })
	x1 = soac.Reduce(xs, 1e308, minf)
	x2 = soac.Reduce(xs, -1e308, maxf)
	y1 = soac.Reduce(ys, 1e308, minf)
	y2 = soac.Reduce(ys, -1e308, maxf)
	return x1, y1, x2, y2
}

type box struct{ x1, y1, x2, y2 float64 }

func (b box) has(p point) bool { return b.x1 <= p.x && p.x < b.x2 && b.y1 <= p.y && p.y < b.y2 }

// partition (quadtree step): four filters of one array, one kernel.
func partition(ins []point, b1, b2, b3, b4 box) (p1, p2, p3, p4 []point) {
	p1 = soac.Filter(ins, b1.has)
	p2 = soac.Filter(ins, b2.has)
	p3 = soac.Filter(ins, b3.has)
	p4 = soac.Filter(ins, b4.has)
	return p1, p2, p3, p4
}

func naive(ps []point) float64 { return float64(len(ps)) }

// closestSteps (closest points, [Robinson-ILP] Listing 1.2): the midpoint, then
// one kernel for each pair of filters.
func closestSteps(pts []point) (aboves, belows, aboveB, belowB []point) {
	midy := soac.Reduce(soac.Map(pts, func(p point) float64 { return p.y }), 0.0, add) / float64(len(pts))
	aboves = soac.Filter(pts, func(p point) bool { return p.y >= midy })
	belows = soac.Filter(pts, func(p point) bool { return p.y < midy })
	border := minf(naive(aboves), naive(belows))
	aboveB = soac.Filter(pts, func(p point) bool { return p.y < midy+border && p.y >= midy })
	belowB = soac.Filter(pts, func(p point) bool { return p.y >= midy-border && p.y < midy })
	return aboves, belows, aboveB, belowB
}

// diamond (Henriksen & Oancea, "A T2 Graph-Reduction Approach to Fusion" (2013) [T2-fusion] Fig. 8): x feeds y and z, which feed r: one kernel.
func diamond(a []float64) []float64 {
	x := soac.Map(a, func(v float64) float64 { return v * 2 })
	y := soac.Map(x, func(v float64) float64 { return v + 1 })
	z := soac.Map(x, func(v float64) float64 { return v - 1 })
	r := soac.Map2(y, z, func(p, q float64) float64 { return p * q })
	return r
}

// matmul ([T2-fusion] Fig. 15): a map kernel at depths 0 and 1, a redomap at
// depth 2.
func matmul(a, bt [][]float64) [][]float64 {
	return soac.Map(a, func(row []float64) []float64 {
		return soac.Map(bt, func(col []float64) float64 {
			return soac.Reduce(soac.Map2(row, col, func(x, y float64) float64 { return x * y }), 0.0, add)
		})
	})
}

// matmulRep is matmul with the replicates of [T2-fusion] Fig. 15: they are
// never materialised.
func matmulRep(a, bt [][]float64) [][]float64 {
	return soac.Map2(a, soac.Replicate(len(a), bt), func(row []float64, b [][]float64) []float64 {
		return soac.Map2(b, soac.Replicate(len(b), row), func(col, r []float64) float64 {
			return soac.Reduce(soac.Map2(r, col, func(x, y float64) float64 { return x * y }), 0.0, add)
		})
	})
}
