// Package clstreams holds StreamRed specs for backend=opencl: stream
// reductions whose chunk function makes a row of a length known before
// the launch, which the opencl backend runs on the stream-reduce
// skeleton (the differential test runs them on the device when there is
// one: equal results, and the spec's panic when a work-item flags one),
// and one spec per reason it refuses a stream, which then falls back.
package clstreams

import (
	"math"
	"math/rand/v2"

	"github.com/soacgen/soacgen/runtime/soac"
)

// Rendered kernels.

// countModSpec counts xs by x % k; a negative x is an index out of
// range of the counts (the device flags it, the CPU code panics), k = 0
// an integer division by zero (no row: the CPU code runs).
//
//soac:fuse CountMod backend=opencl
func countModSpec(xs []int, k int) []int {
	return soac.StreamRed(xs,
		func(a, b []int) []int { return soac.Map2(a, b, func(x, y int) int { return x + y }) },
		func(chunk []int) []int {
			counts := make([]int, k)
			for _, x := range chunk {
				counts[x%k]++
			}
			return counts
		})
}

// countModSpecArgs makes values in [0, 1000), one negative in one trial
// of four, and k in [0, 40].
func countModSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.IntN(1000)
	}
	if n > 0 && r.IntN(4) == 0 {
		xs[r.IntN(n)] = -3
	}
	return []any{xs, r.IntN(41)}
}

// stat is a row element of several fields.
type stat struct {
	Count int32
	Sum   int64
	Max   uint16
}

// statsSpec keeps, per bucket of the values' low bits, how many, their
// wrapping sum and the largest low 16 bits: a row of structs, combined
// field by field, after a map (a struct input into int32 keys) fused into
// the chunks.
//
//soac:fuse Stats backend=opencl
func statsSpec(ps []pt, buckets int32) []stat {
	keys := soac.Map(ps, func(p pt) int64 { return p.A*7 + int64(p.B) })
	return soac.StreamRed(keys,
		func(a, b []stat) []stat {
			return soac.Map2(a, b, func(x, y stat) stat { return stat{x.Count + y.Count, x.Sum + y.Sum, max(x.Max, y.Max)} })
		},
		func(chunk []int64) []stat {
			row := make([]stat, 2*buckets+1)
			for _, v := range chunk {
				i := int(uint64(v) % uint64(len(row)))
				row[i].Count++
				row[i].Sum += v
				row[i].Max = max(row[i].Max, uint16(v))
			}
			return row
		})
}

// pt is an input element.
type pt struct {
	A int64
	B int32
}

// statsSpecArgs makes random points and 0 to 20 buckets per half.
func statsSpecArgs(r *rand.Rand, n int) []any {
	ps := make([]pt, n)
	for i := range ps {
		ps[i] = pt{r.Int64(), r.Int32()}
	}
	return []any{ps, int32(r.IntN(21))}
}

// Refused kernels.

// streamMapRefusedSpec is a StreamMap whose chunk function makes no row.
//
//soac:fuse StreamMapRefused backend=opencl
func streamMapRefusedSpec(xs []int) []int {
	return soac.StreamMap(xs, func(chunk []int) []int {
		out := append([]int(nil), chunk...)
		for i, x := range chunk {
			out[i] = x + 1
		}
		return out
	})
}

// lengthRefusedSpec makes a row whose length depends on the chunk.
//
//soac:fuse LengthRefused backend=opencl
func lengthRefusedSpec(xs []int) []int {
	return soac.StreamRed(xs,
		func(a, b []int) []int { return soac.Map2(a, b, func(x, y int) int { return x + y }) },
		func(chunk []int) []int {
			n := len(chunk) % 3
			row := make([]int, n)
			return row
		})
}

// opCaptureStreamRefusedSpec has an operator that captures k.
//
//soac:fuse OpCaptureStreamRefused backend=opencl
func opCaptureStreamRefusedSpec(xs []int, k int) []int {
	return soac.StreamRed(xs,
		func(a, b []int) []int { return soac.Map2(a, b, func(x, y int) int { return x + y + 0*k }) },
		func(chunk []int) []int {
			row := make([]int, k)
			for _, x := range chunk {
				row[0] += x
			}
			return row
		})
}

// scalarStreamSpec's chunk function returns a number: rows of one.
//
//soac:fuse ScalarStream backend=opencl
func scalarStreamSpec(xs []int) int {
	return soac.StreamRed(xs,
		func(a, b int) int { return a + b },
		func(chunk []int) int {
			s := 0
			for _, x := range chunk {
				s += x
			}
			return s
		})
}

// Chunk functions that return a number or a struct (a row of one
// element on the skeleton).

// scalarMappedSpec folds a map's elements through chunks: the map runs
// into the scratch buffer and divides by zero where some x is -3 (the
// device flags it, the CPU code panics); the chunk function sums the
// odd elements' squares, which every chunking gives alike.
//
//soac:fuse ScalarMapped backend=opencl
func scalarMappedSpec(xs []int32) int64 {
	ys := soac.Map(xs, func(x int32) int64 { return int64(1000 / (x + 3)) })
	return soac.StreamRed(ys, func(a, b int64) int64 { return a + b }, func(chunk []int64) int64 {
		s := int64(0)
		for _, y := range chunk {
			if y%2 != 0 {
				s += y * y
			}
		}
		return s
	})
}

// span is the least and greatest element of a chunk, and its length.
type span struct {
	Lo, Hi float32
	N      int64
}

// scalarStructSpec reduces chunks to their spans, from the empty chunk's
// (+Inf, -Inf, 0); a NaN element is the chunk function's panic.
//
//soac:fuse ScalarStruct backend=opencl
func scalarStructSpec(xs []float32) span {
	return soac.StreamRed(xs, func(a, b span) span {
		return span{min(a.Lo, b.Lo), max(a.Hi, b.Hi), a.N + b.N}
	}, func(chunk []float32) span {
		sp := span{float32(math.Inf(1)), float32(math.Inf(-1)), int64(len(chunk))}
		for _, x := range chunk {
			if x != x {
				panic("NaN")
			}
			sp.Lo, sp.Hi = min(sp.Lo, x), max(sp.Hi, x)
		}
		return sp
	})
}

// arrayChunkRefusedSpec's chunk function returns an array: the stream
// skeleton's rows hold numbers and structs of numbers.
//
//soac:fuse ArrayChunkRefused backend=opencl
func arrayChunkRefusedSpec(xs []int) [2]int {
	return soac.StreamRed(xs, func(a, b [2]int) [2]int { return [2]int{a[0] + b[0], a[1] + b[1]} }, func(chunk []int) [2]int {
		s := 0
		for _, x := range chunk {
			s += x
		}
		return [2]int{len(chunk), s}
	})
}
