// Package clstreammap holds StreamMap specs for backend=opencl: stream
// maps whose chunk function makes a row of its chunk's length and
// returns it, which the opencl backend runs on the stream-map skeleton
// (the differential test runs them on the device when there is one:
// equal results, and the spec's panic when a work-item flags one, for
// a panic of the chunk function or a row of another length), and one
// spec per reason it refuses a stream map, which then falls back.
package clstreammap

import (
	"math"
	"math/rand/v2"

	"github.com/soacgen/soacgen/runtime/soac"
)

// Rendered kernels.

// affineSpec is a lone StreamMap of ints (form call): 3x+1, wrapping.
//
//soac:fuse Affine backend=opencl
func affineSpec(xs []int) []int {
	return soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, x := range chunk {
			out[i] = 3*x + 1
		}
		return out
	})
}

// scaledSpec captures a number and a slice: each element scaled by k
// plus the table's entry of its low bits (an empty table is an index
// out of range: the device flags it, the CPU code panics).
//
//soac:fuse Scaled backend=opencl
func scaledSpec(xs []float64, k float64, table []float64) []float64 {
	return soac.StreamMap(xs, func(chunk []float64) []float64 {
		row := make([]float64, len(chunk))
		for i := range chunk {
			row[i] = chunk[i]*k + table[int(math.Float64bits(chunk[i])%uint64(len(table)))]
		}
		return row
	})
}

// scaledSpecArgs makes floats with NaN, ±Inf and ±0 among them, a k
// and a table of 0 to 4 entries.
func scaledSpecArgs(r *rand.Rand, n int) []any {
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)}
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = r.NormFloat64() * 100
		if r.IntN(50) == 0 {
			xs[i] = specials[r.IntN(len(specials))]
		}
	}
	table := make([]float64, r.IntN(5))
	for i := range table {
		table[i] = r.Float64()
	}
	return []any{xs, r.NormFloat64(), table}
}

// pair is an output element of two fields.
type pair struct {
	Lo  int32
	Sum float32
}

// mappedSpec fuses a map (int16 to float32) into the chunks (form
// chunked: the map runs into the scratch buffer) and makes structs;
// the map divides by zero where some x is -7.
//
//soac:fuse Mapped backend=opencl
func mappedSpec(xs []int16) []pair {
	ys := soac.Map(xs, func(x int16) float32 { return float32(x)*0.25 + float32(1000/(int32(x)+7)) })
	return soac.StreamMap(ys, func(chunk []float32) []pair {
		out := make([]pair, len(chunk))
		for i, y := range chunk {
			out[i].Lo = int32(y) & 0xff
			out[i].Sum = y*0.5 + float32(out[i].Lo)
		}
		return out
	})
}

// mappedSpecArgs makes int16s, one -7 in one trial of four.
func mappedSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]int16, n)
	for i := range xs {
		xs[i] = int16(r.Uint32())
		if xs[i] == -7 {
			xs[i] = 7
		}
	}
	if n > 0 && r.IntN(4) == 0 {
		xs[r.IntN(n)] = -7
	}
	return []any{xs}
}

// panickySpec's chunk function panics on a negative element.
//
//soac:fuse Panicky backend=opencl
func panickySpec(xs []int64) []int64 {
	return soac.StreamMap(xs, func(chunk []int64) []int64 {
		out := make([]int64, len(chunk))
		for i, x := range chunk {
			if x < 0 {
				panic("negative element")
			}
			out[i] = x / 3
		}
		return out
	})
}

// panickySpecArgs makes non-negative values, one negative in one trial
// of three.
func panickySpecArgs(r *rand.Rand, n int) []any {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = r.Int64N(1 << 40)
	}
	if n > 0 && r.IntN(3) == 0 {
		xs[r.IntN(n)] = -5
	}
	return []any{xs}
}

// wrongLengthSpec's chunk function makes a row of len(chunk)+extra
// elements: with extra 0 it is the chunk's, else StreamMap panics (the
// device flags the make's length, the CPU code raises the spec's
// panic). A negative extra is left out: the chunk function's own index
// panic would name its chunk's length, which no chunking but the
// reference's gives (docs/contract.md: the result must not depend on it).
//
//soac:fuse WrongLength backend=opencl
func wrongLengthSpec(xs []uint8, extra int) []uint8 {
	return soac.StreamMap(xs, func(chunk []uint8) []uint8 {
		out := make([]uint8, len(chunk)+extra)
		for i, x := range chunk {
			out[i] = x*x + 1
		}
		return out
	})
}

// wrongLengthSpecArgs makes bytes and extra in {0, 1, 2}, 0 in one
// trial of two.
func wrongLengthSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]uint8, n)
	for i := range xs {
		xs[i] = uint8(r.Uint32())
	}
	extra := 0
	if r.IntN(2) == 0 {
		extra = r.IntN(3)
	}
	return []any{xs, extra}
}

// Refused kernels.

// mapOutRefusedSpec materialises the map fused into the chunks.
//
//soac:fuse MapOutRefused backend=opencl
func mapOutRefusedSpec(xs []int) ([]int, []int) {
	ys := soac.Map(xs, func(x int) int { return x * 2 })
	zs := soac.StreamMap(ys, func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, y := range chunk {
			out[i] = y + 1
		}
		return out
	})
	return ys, zs
}

// namedChunkSpec's chunk function is a declared function.
//
//soac:fuse NamedChunk backend=opencl
func namedChunkSpec(xs []int) []int {
	return soac.StreamMap(xs, incChunk)
}

// incChunk adds one to each element.
func incChunk(chunk []int) []int {
	out := make([]int, len(chunk))
	for i, x := range chunk {
		out[i] = x + 1
	}
	return out
}

// StreamMaps whose output the kernel's later members read (form
// chunked-then): the stream's output left on the device for them.

// chunkedSumsSpec is examples/prefixsum's ChunkedSums: a running sum of
// a stream's 3x+1.
//
//soac:fuse ChunkedSums backend=opencl
func chunkedSumsSpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, x := range chunk {
			out[i] = 3*x + 1
		}
		return out
	})
	return soac.Scan(ys, 0, func(a, b int) int { return a + b })
}

// thenFoldSpec maps before the stream (into its scratch buffer) and
// folds after it, in float32 (of quarters, summed exactly in any order);
// the stream's chunk function panics on a NaN element, the map after it
// divides by zero where a y is 15.
//
//soac:fuse ThenFold backend=opencl
func thenFoldSpec(xs []float32) (float32, []int32) {
	ys := soac.StreamMap(soac.Map(xs, func(x float32) float32 { return x * 0.5 }), func(chunk []float32) []float32 {
		out := make([]float32, len(chunk))
		for i, y := range chunk {
			if y != y {
				panic("NaN in a chunk")
			}
			out[i] = y*y - 1
		}
		return out
	})
	zs := soac.Map(ys, func(y float32) int32 { return 7 / (int32(y) - 15) })
	return soac.Reduce(ys, 0, func(a, b float32) float32 { return a + b }), zs
}

// thenFoldSpecArgs makes integers in [-4, 4], in one trial of four an
// 8 (a y of 15) and in another a NaN.
func thenFoldSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(r.IntN(9) - 4)
	}
	if n > 0 {
		switch r.IntN(4) {
		case 0:
			xs[r.IntN(n)] = 8
		case 1:
			xs[r.IntN(n)] = float32(math.NaN())
		}
	}
	return []any{xs}
}

// thenStoredSpec returns the stream's output beside its scan: the
// stream's output is downloaded, and the scan reads it from there.
//
//soac:fuse ThenStored backend=opencl
func thenStoredSpec(xs []int32) ([]int64, []int64) {
	ys := soac.StreamMap(xs, func(chunk []int32) []int64 {
		out := make([]int64, len(chunk))
		for i, x := range chunk {
			out[i] = int64(x) * int64(x)
		}
		return out
	})
	return ys, soac.Scan(ys, 0, func(a, b int64) int64 { return max(a, b) })
}

// funcValueRefusedSpec's chunk function is a function value: its body
// is not known where the kernel is generated.
//
//soac:fuse FuncValueRefused backend=opencl
func funcValueRefusedSpec(xs []int, f func(chunk []int) []int) []int {
	return soac.StreamMap(xs, f)
}

// funcValueRefusedSpecArgs passes incChunk as the function value.
func funcValueRefusedSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.Int()
	}
	return []any{xs, incChunk}
}

// autoSumsSpec is chunkedSumsSpec for backend=auto: the stream's launch
// asks the cost model (launch.StreamMap.Use), the scan runs on the
// device when the stream did (its input is there).
//
//soac:fuse AutoSums backend=auto
func autoSumsSpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, x := range chunk {
			out[i] = x*x - 3
		}
		return out
	})
	return soac.Scan(ys, 0, func(a, b int) int { return a + b })
}

// dropSpec's chunk function appends each element but those equal to
// bad, to a row made with a capacity: a chunk holding bad returns a
// short row, StreamMap's panic (the device flags it where the chunk
// function returns, the CPU code raises the spec's panic).
//
//soac:fuse Drop backend=opencl
func dropSpec(xs []int16, bad int16) []int32 {
	return soac.StreamMap(xs, func(chunk []int16) []int32 {
		out := make([]int32, 0, len(chunk))
		for _, x := range chunk {
			if x != bad {
				out = append(out, int32(x)*3)
			}
		}
		return out
	})
}

// dropSpecArgs makes int16s none of which is bad (1000) but, in one
// trial of three, one.
func dropSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]int16, n)
	for i := range xs {
		xs[i] = int16(r.IntN(999))
	}
	if n > 0 && r.IntN(3) == 0 {
		xs[r.IntN(n)] = 1000
	}
	return []any{xs, int16(1000)}
}

// thenLaterSpec's stream output and the kept elements of its filter are
// read by a later kernel (a Map2 of the two, which panics where their
// lengths differ): the members' kernel leaves nothing on the device for
// it (its code is in a block of its own), and the later kernel reads
// both from Go memory.
//
//soac:fuse ThenLater backend=opencl
func thenLaterSpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, x := range chunk {
			out[i] = 2*x + 1
		}
		return out
	})
	kept := soac.Filter(ys, func(y int) bool { return y > 0 })
	return soac.Map2(kept, ys, func(a, b int) int { return a - b })
}

// thenLaterSpecArgs makes non-negative values (every element kept),
// and in one trial of three a negative one.
func thenLaterSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.IntN(1 << 30)
	}
	if n > 0 && r.IntN(3) == 0 {
		xs[r.IntN(n)] = -9
	}
	return []any{xs}
}
