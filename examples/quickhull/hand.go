package quickhull

import "math"

// filterMaxHand is filterMaxSpec as one loop: the distance is computed once
// per point, the maximum kept in two scalars, and the points above appended
// to an output preallocated for the worst case.
func filterMaxHand(ps []Point, a, b Point) (far Point, above []Point) {
	bestD := math.Inf(-1)
	above = make([]Point, 0, len(ps))
	for _, p := range ps {
		d := cross(a, b, p)
		if d > bestD {
			bestD, far = d, p
		}
		if d > 0 {
			above = append(above, p)
		}
	}
	return far, above
}
