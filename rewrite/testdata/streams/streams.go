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

// The chunk function's result points into its chunk: the maps' chunk
// buffer must not be reused, or every pointer sees the last chunk.
//
//soac:fuse Pointers
func pointersSpec(xs []float64) []*float64 {
	ys := soac.Map(xs, func(x float64) float64 { return x + 1 })
	return soac.StreamMap(ys, func(chunk []float64) []*float64 {
		out := make([]*float64, len(chunk))
		for i := range chunk {
			out[i] = &chunk[i]
		}
		return out
	})
}

//soac:fuse BadStream
func badStreamSpec(xs []int) []int {
	return soac.StreamMap(xs, func(chunk []int) []int { return chunk[:len(chunk)/2] })
}

// The maps below run inside the chunk function's range loop (no chunk
// buffer): break and continue in the loop, len(chunk), and the key only.

//soac:fuse BreakContinue
func breakContinueSpec(xs []int, stop int) int {
	sq := soac.Map(xs, func(x int) int { return x * x })
	return soac.StreamRed(sq, func(a, b int) int { return a + b }, func(chunk []int) int {
		s := 0
		for _, v := range chunk {
			if v == stop {
				break
			}
			if v%3 == 0 {
				continue
			}
			s += v
		}
		return s + len(chunk)
	})
}

//soac:fuse KeysOnly
func keysOnlySpec(xs []float64) int {
	ys := soac.Map(xs, func(x float64) float64 { return x / 2 })
	return soac.StreamRed(ys, func(a, b int) int { return a + b }, func(chunk []float64) int {
		n := 0
		for i := range chunk {
			n += i
		}
		return n
	})
}

// The maps below fill a chunk buffer: the chunk is read twice, the map may
// panic, the range loop is inside another loop, and the chunk function
// declares a variable named like one the map reads (inside the loop the
// map would read the chunk function's k, not the spec's).

//soac:fuse TwoLoops
func twoLoopsSpec(xs []int) int {
	ys := soac.Map(xs, func(x int) int { return x + 1 })
	return soac.StreamRed(ys, func(a, b int) int { return a + b }, func(chunk []int) int {
		s := 0
		for _, v := range chunk {
			s += v
		}
		for _, v := range chunk {
			s ^= v
		}
		return s
	})
}

//soac:fuse MayPanicMap
func mayPanicMapSpec(xs []int, tbl []int) int {
	ys := soac.Map(xs, func(x int) int { return tbl[x&7] })
	return soac.StreamRed(ys, func(a, b int) int { return a + b }, func(chunk []int) int {
		s := 0
		for _, v := range chunk {
			s += 100 / (v + 1000)
		}
		return s
	})
}

//soac:fuse NestedRange
func nestedRangeSpec(xs []int) int {
	ys := soac.Map(xs, func(x int) int { return x * 3 })
	return soac.StreamRed(ys, func(a, b int) int { return a + b }, func(chunk []int) int {
		s := 0
		for r := 0; r < 2; r++ {
			for _, v := range chunk {
				s += v * r
			}
		}
		return s
	})
}

//soac:fuse Shadowed
func shadowedSpec(xs []int, k int) int {
	ys := soac.Map(xs, func(x int) int { return x + k })
	return soac.StreamRed(ys, func(a, b int) int { return a + b }, func(chunk []int) int {
		k := 1000
		s := 0
		for _, v := range chunk {
			s += v * k
		}
		return s
	})
}
