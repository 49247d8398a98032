// Package shapes holds specs whose fusion graphs the fusiongraph tests
// check: refused fusions, a scalar edge, a nested kernel, a producer
// copied into the kernels of disjoint branches, and unnamed results.
package shapes

import (
	"sync"

	"github.com/soacgen/soacgen/runtime/soac"
)

func square(x float64) float64 { return x * x }

func add(a, b float64) float64 { return a + b }

// writeBetween writes xs between the map and its consumer: refused.
//
//soac:fuse WriteBetween
func writeBetween(xs []float64) float64 {
	ys := soac.Map(xs, square)
	xs[0] = 100
	return soac.Reduce(ys, xs[0], add)
}

// twice consumes ys in a reduction and a map and returns it: ys fuses into
// the reduction and is written out (map-out) for the second map (a
// consumed-twice note says why that map is apart), which
// reads the sum as a scalar.
//
//soac:fuse Twice
func twice(xs []float64) ([]float64, []float64) {
	ys := soac.Map(xs, square)
	sum := soac.Reduce(ys, 0, add)
	scaled := soac.Map(ys, func(y float64) float64 { return y / sum })
	return ys, scaled
}

// rows sums each row: a kernel nested in the lambda of the outer map.
//
//soac:fuse Rows
func rows(m [][]float64) []float64 {
	return soac.Map(m, func(r []float64) float64 {
		return soac.Reduce(soac.Map(r, square), 0, add)
	})
}

// branches fuses the map into the consumer on either branch.
//
//soac:fuse Branches
func branches(xs []float64, up bool) float64 {
	ys := soac.Map(xs, square)
	var r float64
	if up {
		r = soac.Reduce(ys, 0, add)
	} else {
		r = soac.Reduce(ys, 1, func(a, b float64) float64 { return a * b })
	}
	return r
}

// loop consumes ys inside a loop: refused at the loop boundary.
//
//soac:fuse Loop
func loop(xs []float64, n int) float64 {
	ys := soac.Map(xs, square)
	total := 0.0
	for i := 0; i < n; i++ {
		total += soac.Reduce(ys, 0, add)
	}
	return total
}

// reassigned reassigns the map's captured c before its consumer: fusing
// would read the new c, and c holds a lock, which is never copied, so it
// is refused.
//
//soac:fuse Reassigned
func reassigned(xs []float64, c *locked) float64 {
	s := locked{k: c.k}
	ys := soac.Map(xs, func(x float64) float64 { return x * s.k })
	s = locked{k: 2}
	return soac.Reduce(ys, s.k, add)
}

// locked is a factor guarded by a lock.
type locked struct {
	mu sync.Mutex
	k  float64
}
