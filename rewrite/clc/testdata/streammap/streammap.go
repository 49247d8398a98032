// Package streammap holds StreamMap chunk functions for the OpenCL C
// translator (Unit.ChunkMap): rows made of the chunk's length, written
// through the out view that is the chunk's part of the output, and the
// chunk functions it refuses.
package streammap

import "github.com/soacgen/soacgen/runtime/soac"

// affine makes each element 3x+1: the row's make checks its length
// against the room, zeroes it, and every write is checked against it.
func affine(xs []int) []int {
	return soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, x := range chunk {
			out[i] = 3*x + 1
		}
		return out
	})
}

// point is a struct element.
type point struct {
	X, Y float32
}

// scaled captures k and makes structs, a row of a length computed in
// the chunk function (checked on the device alike).
func scaled(xs []float32, k float32) []point {
	return soac.StreamMap(xs, func(chunk []float32) []point {
		n := len(chunk)
		row := make([]point, n)
		for i := 0; i < n; i++ {
			row[i].X = chunk[i] * k
			row[i].Y = row[i].X - chunk[i]
		}
		return row
	})
}

// panics panics on a negative element.
func panics(xs []int64) []int64 {
	return soac.StreamMap(xs, func(chunk []int64) []int64 {
		out := make([]int64, len(chunk))
		for i, x := range chunk {
			if x < 0 {
				panic("negative")
			}
			out[i] = x / 2
		}
		return out
	})
}

// appended appends: no row is made.
func appended(xs []int) []int {
	return soac.StreamMap(xs, func(chunk []int) []int {
		return append([]int(nil), chunk...)
	})
}

// twoRows makes a second row.
func twoRows(xs []int) []int {
	return soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		tmp := make([]int, len(chunk))
		copy(out, tmp)
		return out
	})
}

// returnsChunk returns another slice than its row.
func returnsChunk(xs []int) []int {
	return soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		if len(chunk) > 3 {
			return chunk
		}
		return out
	})
}

// declared's chunk function is a declared function (ChunkMapDeclared).
func declared(xs []uint16) []uint16 {
	return soac.StreamMap(xs, halves)
}

// halves halves each element.
func halves(chunk []uint16) []uint16 {
	out := make([]uint16, len(chunk))
	for i, x := range chunk {
		out[i] = x >> 1
	}
	return out
}

// appends grows its row by appends within the chunk's room; a row that
// ends shorter or longer than the chunk is flagged.
func appends(xs []int32) []int32 {
	return soac.StreamMap(xs, func(chunk []int32) []int32 {
		out := make([]int32, 0, len(chunk))
		for _, x := range chunk {
			out = append(out, x+1)
		}
		return out
	})
}

// appendsMany appends several values at once: refused.
func appendsMany(xs []int32) []int32 {
	return soac.StreamMap(xs, func(chunk []int32) []int32 {
		out := make([]int32, 0, len(chunk))
		return append(out, chunk...)
	})
}
