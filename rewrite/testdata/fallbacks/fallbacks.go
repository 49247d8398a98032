// Package fallbacks holds kernels the fusion engine builds but whose
// shape no backend renders as one loop: the lowering makes them a
// sequence, with the reason, and the cpu backend falls back to the
// runtime's calls (a warning and a report note).
package fallbacks

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse StreamBeside
func streamBesideSpec(xs []float64) (float64, float64) {
	sum := soac.Reduce(xs, 0.0, func(a, b float64) float64 { return a + b })
	big := soac.StreamRed(xs, func(a, b float64) float64 { return max(a, b) }, func(chunk []float64) float64 {
		m := 0.0
		for _, x := range chunk {
			m = max(m, x)
		}
		return m
	})
	return sum, big
}
