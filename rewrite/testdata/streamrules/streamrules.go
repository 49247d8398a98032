// Package streamrules holds scans and filters of a StreamMap's output,
// fused into its chunk loop (stream->scanomap, stream->filter): the
// consumers run over each chunk the chunk function returned, a scan
// carrying its accumulator from chunk to chunk.
package streamrules

import (
	"math/rand/v2"

	"github.com/soacgen/soacgen/runtime/soac"
)

// panicArgs makes inputs of n elements none of which makes a panic,
// except, by trial, a 60 (an element 0 mod 4, 5 and 6: the scan's
// operator or the predicate divides by zero), the trigger (the chunk
// function panics or returns a short chunk), both (the 60 in the first
// chunk and the trigger in a later one, or the other way round), or
// neither.
func panicArgs(trigger int) func(r *rand.Rand, n int) []any {
	return func(r *rand.Rand, n int) []any {
		xs := make([]int, n)
		for i := range xs {
			v := 1 + r.IntN(100)
			for v%4 == 0 || v%5 == 0 || v%6 == 0 || v == 13 || v == 77 {
				v = 1 + r.IntN(100)
			}
			xs[i] = v
		}
		if n == 0 {
			return []any{xs}
		}
		first := min(n, soac.ChunkSize)
		switch r.IntN(5) {
		case 1:
			xs[r.IntN(n)] = 60
		case 2:
			xs[r.IntN(n)] = trigger
		case 3:
			xs[r.IntN(first)] = 60
			xs[first-1+r.IntN(n-first+1)] = trigger
		case 4:
			xs[r.IntN(first)] = trigger
			xs[first-1+r.IntN(n-first+1)] = 60
		}
		return []any{xs}
	}
}

var (
	streamScanPanicsSpecArgs    = panicArgs(13)
	streamScanBadLengthSpecArgs = panicArgs(77)
	streamFilterPanicsSpecArgs  = panicArgs(77)
)

func doubleChunk(chunk []int) []int {
	out := make([]int, len(chunk))
	for i, c := range chunk {
		out[i] = 2*c + 1
	}
	return out
}

// StreamScan: a running sum of a StreamMap's output (int).
//
//soac:fuse StreamScan
func streamScanSpec(xs []int) []int {
	ys := soac.StreamMap(xs, doubleChunk)
	return soac.Scan(ys, 3, func(a, b int) int { return a + b })
}

// StreamScanFloat: floats, the maps before the stream and after the scan
// fused too (NaN, ±0 and ±Inf flow through unchanged).
//
//soac:fuse StreamScanFloat
func streamScanFloatSpec(xs []float64) []float64 {
	ys := soac.StreamMap(soac.Map(xs, func(x float64) float64 { return x * 0.5 }), func(chunk []float64) []float64 {
		out := make([]float64, len(chunk))
		for i, c := range chunk {
			out[i] = c - 1
		}
		return out
	})
	run := soac.Scan(ys, 0.25, func(a, b float64) float64 { return a + b })
	return soac.Map(run, func(r float64) float64 { return r * r })
}

// StreamFilter: the kept elements of a StreamMap's output, in order.
//
//soac:fuse StreamFilter
func streamFilterSpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, c := range chunk {
			out[i] = c*c - 7
		}
		return out
	})
	return soac.Filter(ys, func(y int) bool { return y%3 == 0 })
}

// StreamFilterFloat: a filter of a StreamMap's output, mapped and
// summed, with the stream's output also returned (written out).
//
//soac:fuse StreamFilterFloat
func streamFilterFloatSpec(xs []float64) ([]float64, float64) {
	ys := soac.StreamMap(xs, func(chunk []float64) []float64 {
		out := make([]float64, len(chunk))
		copy(out, chunk)
		for i := range out {
			out[i] /= 3
		}
		return out
	})
	big := soac.Filter(ys, func(y float64) bool { return y > 0.1 || y != y })
	return ys, soac.Reduce(soac.Map(big, func(b float64) float64 { return b + 1 }), 0, func(a, b float64) float64 { return a + b })
}

// StreamScanFilter: a scan of the stream's output, then a filter of the
// scanned elements, summed.
//
//soac:fuse StreamScanFilter
func streamScanFilterSpec(xs []int) ([]int, int) {
	ys := soac.StreamMap(xs, doubleChunk)
	run := soac.Scan(ys, 0, func(a, b int) int { return a ^ b })
	odd := soac.Filter(run, func(r int) bool { return r&1 != 0 })
	return odd, soac.Reduce(odd, 0, func(a, b int) int { return a + b })
}

// StreamScanPanics: the scan's operator divides by an element that may
// be zero, and the chunk function panics on an element of 13 (at any
// chunk): the spec runs the whole stream first, so its panic is the
// chunk function's whenever the chunk function panics anywhere.
//
//soac:fuse StreamScanPanics
func streamScanPanicsSpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, c := range chunk {
			if c%1000 == 13 {
				panic("chunk function: 13")
			}
			out[i] = c % 5
		}
		return out
	})
	return soac.Scan(ys, 1, func(a, b int) int { return a + 10/b })
}

// StreamScanBadLength: the chunk function returns a chunk of the wrong
// length when it sees 77 (at any chunk), and the scan's operator may
// panic: the spec's panic is the StreamMap's length message whenever a
// chunk is short, even if the scan would divide by zero at an earlier
// chunk.
//
//soac:fuse StreamScanBadLength
func streamScanBadLengthSpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, 0, len(chunk))
		for _, c := range chunk {
			if c%1000 == 77 {
				return out
			}
			out = append(out, c%4)
		}
		return out
	})
	return soac.Scan(ys, 1, func(a, b int) int { return a + 10/b })
}

// StreamFilterPanics: the predicate divides by an element that may be
// zero, the chunk function returns a short chunk when it sees 77.
//
//soac:fuse StreamFilterPanics
func streamFilterPanicsSpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, 0, len(chunk))
		for _, c := range chunk {
			if c%1000 == 77 {
				return out
			}
			out = append(out, c%6)
		}
		return out
	})
	return soac.Filter(ys, func(y int) bool { return 12/y > 2 })
}

// StreamScanWhole: the scan's operator reads the whole stream output
// (its last element), known only after the stream ran: not fused.
//
//soac:fuse StreamScanWhole
func streamScanWholeSpec(xs []int) []int {
	ys := soac.StreamMap(xs, doubleChunk)
	return soac.Scan(ys, 0, func(a, b int) int { return a + b*ys[len(ys)-1] })
}

// StreamFilterZip: the filtered stream output zipped with the unfiltered
// one: their lengths differ unless every element is kept, so the Map2
// runs unfused and panics as the spec's.
//
//soac:fuse StreamFilterZip
func streamFilterZipSpec(xs []int) []int {
	ys := soac.StreamMap(xs, doubleChunk)
	kept := soac.Filter(ys, func(y int) bool { return y > 0 })
	return soac.Map2(kept, ys, func(a, b int) int { return a - b })
}

// StreamMapReduce: a map of a StreamMap's output and its sum
// (stream->stream with a Map and a Reduce consumer: they run on each
// chunk too).
//
//soac:fuse StreamMapReduce
func streamMapReduceSpec(xs []int) int {
	ys := soac.StreamMap(xs, doubleChunk)
	return soac.Reduce(soac.Map(ys, func(y int) int { return y * y }), 0, func(a, b int) int { return a + b })
}

// StreamFilterScan: a scan of the kept elements of a StreamMap's output,
// with the stream's and the scan's outputs returned and the scan also
// reduced.
//
//soac:fuse StreamFilterScan
func streamFilterScanSpec(xs []float64) ([]float64, []float64, float64) {
	ys := soac.StreamMap(xs, func(chunk []float64) []float64 {
		out := make([]float64, len(chunk))
		for i, c := range chunk {
			out[i] = c * c
		}
		return out
	})
	kept := soac.Filter(ys, func(y float64) bool { return !(y < 4) })
	run := soac.Scan(kept, 0, func(a, b float64) float64 { return a + b })
	return ys, run, soac.Reduce(run, 0, func(a, b float64) float64 { return max(a, b) })
}

// StreamFilterPointers: the chunk function returns pointers into its
// chunk (the maps' chunk buffer cannot be reused); the filter keeps the
// pointers to positive values.
//
//soac:fuse StreamFilterPointers
func streamFilterPointersSpec(xs []float64) []*float64 {
	ys := soac.Map(xs, func(x float64) float64 { return x - 1 })
	ps := soac.StreamMap(ys, func(chunk []float64) []*float64 {
		out := make([]*float64, len(chunk))
		for i := range chunk {
			out[i] = &chunk[i]
		}
		return out
	})
	return soac.Filter(ps, func(p *float64) bool { return *p > 0 })
}

// StreamScanInt8: a scan of small integers that wraps around, of a
// stream fed by a map of an Iota (the index); the Iota stays a kernel of
// its own (a chunk loop runs only maps before its stream).
//
//soac:fuse StreamScanInt8
func streamScanInt8Spec(xs []int8) []int8 {
	ys := soac.Map2(xs, soac.Iota(len(xs)), func(x int8, i int) int8 { return x + int8(i) })
	zs := soac.StreamMap(ys, func(chunk []int8) []int8 {
		out := make([]int8, len(chunk))
		for i, c := range chunk {
			out[i] = c * 3
		}
		return out
	})
	return soac.Scan(zs, 0, func(a, b int8) int8 { return a + b })
}

// MapStreamBadLength: maps feeding a stream (no member after it): the
// map panics on a 60, the chunk function returns a short chunk
// on a 77. The spec maps every element before the stream sees a chunk,
// so its panic is the map's whenever there is a 60, even after a short
// chunk: the chunk loop runs again unfused on a panic.
//
//soac:fuse MapStreamBadLength
func mapStreamBadLengthSpec(xs []int) []int {
	ys := soac.Map(xs, func(x int) int {
		if x == 60 {
			panic("map: 60")
		}
		return x
	})
	return soac.StreamMap(ys, func(chunk []int) []int {
		out := make([]int, 0, len(chunk))
		for _, c := range chunk {
			if c%1000 == 77 {
				return out
			}
			out = append(out, c+1)
		}
		return out
	})
}

var mapStreamBadLengthSpecArgs = panicArgs(77)

// NestedStreams: the chunk function of a stream whose output is scanned
// runs maps fused into a stream of its own (a chunk loop nested in the
// chunk function, Chunked): only the outer chunk loop runs the scan.
//
//soac:fuse NestedStreams
func nestedStreamsSpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		return soac.StreamMap(soac.Map(chunk, func(c int) int { return c + 1 }), doubleChunk)
	})
	return soac.Scan(ys, 0, func(a, b int) int { return a ^ b })
}

// NestedStreamsThen: the same with a map after the inner stream (a
// ChunkedThen kernel nested in the chunk function of another), the
// outer stream's output filtered.
//
//soac:fuse NestedStreamsThen
func nestedStreamsThenSpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		return soac.Map(soac.StreamMap(chunk, doubleChunk), func(d int) int { return d * 3 })
	})
	return soac.Filter(ys, func(y int) bool { return y%9 != 0 })
}

// StreamScanPlaced: the stream's input is written between the stream
// and the scan: the kernel runs at the stream, the scan moved up past
// the write (it reads only the stream's output), its result assigned
// where the spec's statement is.
//
//soac:fuse StreamScanPlaced
func streamScanPlacedSpec(xs []int) ([]int, int) {
	ys := soac.StreamMap(xs, doubleChunk)
	first := 0
	if len(xs) > 0 {
		first = xs[0]
		xs[0] = 99
	}
	run := soac.Scan(ys, 0, func(a, b int) int { return a + b })
	return run, first
}
