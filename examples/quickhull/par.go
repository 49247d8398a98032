package quickhull

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names.

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// filterMaxParSpec is filterMaxSpec for the parallel backend.
//
//soac:fuse FilterMaxPar backend=parallel
func filterMaxParSpec(ps []Point, a, b Point) (far Point, above []Point) {
	ds := soac.Map(ps, func(p Point) distPoint { return distPoint{p, cross(a, b, p)} })
	best := soac.Reduce(ds, distPoint{D: math.Inf(-1)}, func(x, y distPoint) distPoint {
		if y.D > x.D {
			return y
		}
		return x
	})
	ups := soac.Filter(ds, func(d distPoint) bool { return d.D > 0 })
	above = soac.Map(ups, func(d distPoint) Point { return d.P })
	return best.P, above
}
