// Package streams holds StreamMap and StreamRed, with maps fused into them.
package streams

import (
	"math/rand/v2"

	"github.com/soacgen/soacgen/runtime/soac"
)

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
// Each stream's result is the same for every chunking, as docs/contract.md
// asks (difftest checks it).

// prefix is BreakContinue's reduction: what the elements before the
// first stop give, and whether a stop was reached (the elements after it
// give nothing).
type prefix struct {
	sum     int
	stopped bool
}

//soac:fuse BreakContinue
func breakContinueSpec(xs []int, stop int) int {
	sq := soac.Map(xs, func(x int) int { return x * x })
	p := soac.StreamRed(sq, func(a, b prefix) prefix {
		if a.stopped {
			return a
		}
		return prefix{a.sum + b.sum, b.stopped}
	}, func(chunk []int) prefix {
		var p prefix
		n := len(chunk)
		for i, v := range chunk {
			if v == stop {
				p.stopped, n = true, i
				break
			}
			if v%3 == 0 {
				continue
			}
			p.sum += v
		}
		p.sum += n
		return p
	})
	return p.sum
}

// breakContinueSpecArgs makes inputs of small elements whose stop is,
// in some trials, the square of one of them.
func breakContinueSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.IntN(200) - 100
	}
	stop := -1
	if n > 0 && r.IntN(3) != 0 {
		x := xs[r.IntN(n)]
		stop = x * x
	}
	return []any{xs, stop}
}

//soac:fuse KeysOnly
func keysOnlySpec(xs []float64) int {
	ys := soac.Map(xs, func(x float64) float64 { return x / 2 })
	return soac.StreamRed(ys, func(a, b int) int { return a + b }, func(chunk []float64) int {
		n := 0
		for i := range chunk {
			n = i + 1
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
			s += v ^ 1
		}
		return s
	})
}

// Both may panic: the map on an index out of range, the chunk function on
// a division by zero. The spec maps every element before the chunk
// function sees any, so its panic is the map's whenever the map panics;
// computing elements inside the chunk function's loop would divide by
// zero first on inputs such as xs = [1, -1] with tbl[1] == 3.
//
//soac:fuse MayPanicMap
func mayPanicMapSpec(xs []int, tbl []int) int {
	ys := soac.Map(xs, func(x int) int { return tbl[x] })
	return soac.StreamRed(ys, func(a, b int) int { return a + b }, func(chunk []int) int {
		s := 0
		for _, v := range chunk {
			s += 1000 / (v % 3)
		}
		return s
	})
}

// Only the map may panic, and the chunk function may skip its loop: run
// inside the loop, the map would never see an index out of range that
// the spec's map panics on.
//
//soac:fuse SkippedMap
func skippedMapSpec(xs []int, tbl []int, on bool) int {
	ys := soac.Map(xs, func(x int) int { return tbl[x] })
	return soac.StreamRed(ys, func(a, b int) int { return a + b }, func(chunk []int) int {
		s := 0
		if on {
			for _, v := range chunk {
				s += v
			}
		}
		return s
	})
}

// The chunk function writes a variable the map reads: the spec maps
// every element with cnt == 0.
//
//soac:fuse ImpureChunk
func impureChunkSpec(xs []int) (int, int) {
	cnt := 0
	ys := soac.Map(xs, func(x int) int { return x + cnt })
	s := soac.StreamRed(ys, func(a, b int) int { return a + b }, func(chunk []int) int {
		s := 0
		for _, v := range chunk {
			cnt++
			s += v
		}
		return s
	})
	return s, cnt
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
