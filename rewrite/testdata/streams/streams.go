// Package streams holds StreamMap and StreamRed, with maps fused into them.
package streams

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse Histogram
func histogramSpec(xs []int) []int {
	bins := soac.Map(xs, func(x int) int { return (x%10 + 10) % 10 })
	return soac.StreamRed(bins, func(a, b []int) []int {
		out := make([]int, 10)
		for i := range out {
			if i < len(a) {
				out[i] += a[i]
			}
			if i < len(b) {
				out[i] += b[i]
			}
		}
		return out
	}, func(chunk []int) []int {
		h := make([]int, 10)
		for _, c := range chunk {
			h[c]++
		}
		return h
	})
}

//soac:fuse Doubled
func doubledSpec(xs []float64) []float64 {
	ys := soac.Map(xs, func(x float64) float64 { return x + 1 })
	return soac.StreamMap(ys, func(chunk []float64) []float64 {
		out := make([]float64, len(chunk))
		for i, c := range chunk {
			out[i] = 2 * c
		}
		return out
	})
}

//soac:fuse BadStream
func badStreamSpec(xs []int) []int {
	return soac.StreamMap(xs, func(chunk []int) []int { return chunk[:len(chunk)/2] })
}
