// Package clstreams holds StreamRed specs for backend=opencl: stream
// reductions whose chunk function makes a row of a length known before
// the launch, which the opencl backend runs on the stream-reduce
// skeleton (the differential test runs them on the device when there is
// one: equal results, and the spec's panic when a work-item flags one),
// and one spec per reason it refuses a stream, which then falls back.
package clstreams

import (
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

// streamMapRefusedSpec is a StreamMap.
//
//soac:fuse StreamMapRefused backend=opencl
func streamMapRefusedSpec(xs []int) []int {
	return soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
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

// scalarStreamRefusedSpec's chunk function returns a number, not a row.
//
//soac:fuse ScalarStreamRefused backend=opencl
func scalarStreamRefusedSpec(xs []int) int {
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
