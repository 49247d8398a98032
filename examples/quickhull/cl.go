package quickhull

// This file holds a copy of filterMaxSpec with backend=opencl, so that
// soacgen's opencl backend is generated (the filter skeleton: the kept
// points compacted, the farthest point a fold of every element, its
// start {D: -Inf} built into the program), tested against the spec on
// the device (opencl_test.go) and benchmarked (examples/internal/clbench).
// The copy must stay identical to the spec apart from its name.

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// filterMaxCLSpec is filterMaxSpec for the opencl backend.
//
//soac:fuse FilterMaxCL backend=opencl
func filterMaxCLSpec(ps []Point, a, b Point) (far Point, above []Point) {
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
