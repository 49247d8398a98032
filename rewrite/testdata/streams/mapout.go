package streams

import "github.com/soacgen/soacgen/runtime/soac"

// MapOutStreamRed: m feeds the StreamRed's chunks and is returned too:
// the chunk loop writes m's chunks into m (map-out into a stream).
//
//soac:fuse MapOutStreamRed
func mapOutStreamRedSpec(xs []int) (int, []int) {
	m := soac.Map(xs, func(x int) int { return x*x - 3 })
	r := soac.StreamRed(m, func(a, b int) int { return a + b }, func(c []int) int {
		s := 0
		for _, v := range c {
			s += v
		}
		return s
	})
	return r, m
}

// MapOutStreamMap: m is used after the StreamMap that consumes it.
//
//soac:fuse MapOutStreamMap
func mapOutStreamMapSpec(xs []float64) ([]float64, float64) {
	m := soac.Map(xs, func(x float64) float64 { return x / 2 })
	d := soac.StreamMap(m, func(c []float64) []float64 {
		out := make([]float64, len(c))
		for i, v := range c {
			out[i] = v + 1
		}
		return out
	})
	last := 0.0
	if len(m) > 0 {
		last = m[len(m)-1]
	}
	return d, last
}
