// Package forms holds one spec per lowered form the cpu backend meets:
// a loop, a chunk loop, a chunk loop with members after its stream, a
// lone stream's runtime call, and a sequence it refuses.
package forms

import "github.com/soacgen/soacgen/runtime/soac"

// Loop: a map feeding a fold and a filter, one loop.
//
//soac:fuse Loop
func loopSpec(xs []float64) (float64, []float64) {
	ys := soac.Map(xs, func(x float64) float64 { return x * 2 })
	s := soac.Reduce(ys, 0.0, func(a, b float64) float64 { return a + b })
	pos := soac.Filter(ys, func(y float64) bool { return y > 0 })
	return s, pos
}

// Chunked: a map feeding a stream's chunks, one chunk loop.
//
//soac:fuse Chunked
func chunkedSpec(xs []int) int {
	m := soac.Map(xs, func(x int) int { return x + 1 })
	return soac.StreamRed(m, func(a, b int) int { return a + b }, func(c []int) int {
		s := 0
		for _, v := range c {
			s += v
		}
		return s
	})
}

// Then: a stream whose output a scan reads, one chunk loop running the
// scan on each chunk.
//
//soac:fuse Then
func thenSpec(xs []int) []int {
	d := soac.StreamMap(xs, func(c []int) []int {
		out := make([]int, len(c))
		for i, v := range c {
			out[i] = v * 3
		}
		return out
	})
	return soac.Scan(d, 0, func(a, b int) int { return a + b })
}

// Call: a lone stream, the runtime's call.
//
//soac:fuse Call
func callSpec(xs []int) int {
	return soac.StreamRed(xs, func(a, b int) int { return max(a, b) }, func(c []int) int {
		m := 0
		for _, v := range c {
			m = max(m, v)
		}
		return m
	})
}

// Beside: a fold beside a stream over the same input: a sequence the
// cpu backend refuses, so its members run as the runtime's calls.
//
//soac:fuse Beside
func besideSpec(xs []float64) (float64, float64) {
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
