package quickhull

import (
	"math"

	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// impls are the implementations that the test compares with the spec and the
// benchmark measures. The generated function is the "fused" entry.
var impls = []struct {
	name string
	fn   func(ps []Point, a, b Point) (Point, []Point)
}{
	{"spec", filterMaxSpec},
	{"fused", FilterMax},
	{"hand", filterMaxHand},
	{"lo", filterMaxLo},
	{"iter", filterMaxIter},
}

func maxByDist(x, y distPoint) distPoint {
	if y.D > x.D {
		return y
	}
	return x
}

// filterMaxLo annotates with lo.Map, then takes lo.MaxBy (first on ties, as
// the spec) and lo.FilterMap.
func filterMaxLo(ps []Point, a, b Point) (Point, []Point) {
	ds := lo.Map(ps, func(p Point, _ int) distPoint { return distPoint{p, cross(a, b, p)} })
	best := lo.MaxBy(ds, func(x, y distPoint) bool { return x.D > y.D })
	above := lo.FilterMap(ds, func(d distPoint, _ int) (Point, bool) { return d.P, d.D > 0 })
	return best.P, above
}

// filterMaxIter needs two chains since the annotated points have two
// consumers; each chain recomputes the distance rather than materialising it.
func filterMaxIter(ps []Point, a, b Point) (Point, []Point) {
	annotate := func(p Point) distPoint { return distPoint{p, cross(a, b, p)} }
	best := seq.Reduce(seq.Map(seq.Values(ps), annotate), distPoint{D: math.Inf(-1)}, maxByDist)
	above := seq.Map(
		seq.Filter(seq.Map(seq.Values(ps), annotate), func(d distPoint) bool { return d.D > 0 }),
		func(d distPoint) Point { return d.P })
	out := make([]Point, 0, len(ps))
	for p := range above {
		out = append(out, p)
	}
	return best.P, out
}
