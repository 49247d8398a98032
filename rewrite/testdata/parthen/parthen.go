// Package parthen holds StreamMaps whose outputs are scanned, filtered,
// mapped and reduced in their chunk loops (lower.ChunkedThen) with
// backend=parallel: the cpu backend's chunk loop below the stream's
// grain, above it the stream's output computed over runtime/parallel's
// chunks and then the members' loop over it in parallel
// (rewrite/backend/parallel parthen.go). The differential test runs
// them against their specs; rewrite's TestParallelStreamThen runs
// testdata/streamrules the same way on larger inputs.
package parthen

import (
	"math/rand/v2"

	"github.com/soacgen/soacgen/runtime/soac"
)

func doubleChunk(chunk []int) []int {
	out := make([]int, len(chunk))
	for i, c := range chunk {
		out[i] = 2*c + 1
	}
	return out
}

// Scan: a running sum, from a start that is not the operator's neutral
// element, of a stream reading the kernel's input.
//
//soac:fuse Scan backend=parallel
func scanSpec(xs []int) []int {
	ys := soac.StreamMap(xs, doubleChunk)
	return soac.Scan(ys, 3, func(a, b int) int { return a + b })
}

// ScanFloat: maps before the stream (its chunks computed by the
// runtime's chunk function) and after the scan.
//
//soac:fuse ScanFloat backend=parallel
func scanFloatSpec(xs []float64) []float64 {
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

// FilterSum: the stream's output returned, its kept elements mapped and
// summed.
//
//soac:fuse FilterSum backend=parallel
func filterSumSpec(xs []float64) ([]float64, float64) {
	ys := soac.StreamMap(xs, func(chunk []float64) []float64 {
		out := make([]float64, len(chunk))
		for i, c := range chunk {
			out[i] = c / 3
		}
		return out
	})
	big := soac.Filter(ys, func(y float64) bool { return y > 0.1 || y != y })
	return ys, soac.Reduce(soac.Map(big, func(b float64) float64 { return b + 1 }), 0, func(a, b float64) float64 { return a + b })
}

// FilterScan: a scan of the kept elements (parallel.Carried), also
// reduced.
//
//soac:fuse FilterScan backend=parallel
func filterScanSpec(xs []int) ([]int, int) {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, c := range chunk {
			out[i] = c*c - 7
		}
		return out
	})
	kept := soac.Filter(ys, func(y int) bool { return y%3 == 0 })
	run := soac.Scan(kept, 0, func(a, b int) int { return a ^ b })
	return run, soac.Reduce(run, 0, func(a, b int) int { return max(a, b) })
}

// BadLength: the chunk function returns a short chunk when it sees a
// 77, the map after the scan divides by an element that may be zero:
// the spec's panic is the stream's whenever a chunk is short.
//
//soac:fuse BadLength backend=parallel
func badLengthSpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, 0, len(chunk))
		for _, c := range chunk {
			if c == 77 {
				return out
			}
			out = append(out, c%4)
		}
		return out
	})
	run := soac.Scan(ys, 0, func(a, b int) int { return a + b })
	return soac.Map2(run, ys, func(r, y int) int { return r / y })
}

// badLengthSpecArgs makes inputs of n elements none of which is 0 mod 4
// or 77, except, by trial, a 60 (the map divides by zero), a 77 (a
// short chunk), both, or neither.
func badLengthSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = 1 + 4*r.IntN(25) + r.IntN(3)
		if xs[i] == 77 {
			xs[i] = 78
		}
	}
	if n > 0 {
		switch r.IntN(4) {
		case 1:
			xs[r.IntN(n)] = 60
		case 2:
			xs[r.IntN(n)] = 77
		case 3:
			xs[r.IntN(n)] = 60
			xs[r.IntN(n)] = 77
		}
	}
	return []any{xs}
}

// BufferScan: a map feeding a stream whose chunk function is a named
// function (the map's elements computed into the runtime's buffer of
// the goroutine, parallel.StreamCarried's scratch), then a scan beside
// a sum.
//
//soac:fuse BufferScan backend=parallel
func bufferScanSpec(xs []int) ([]int, int) {
	ys := soac.StreamMap(soac.Map(xs, func(x int) int { return x - 5 }), doubleChunk)
	run := soac.Scan(ys, 0, func(a, b int) int { return a + b })
	return run, soac.Reduce(ys, 0, func(a, b int) int { return a ^ b })
}

// AliasScan: a stream whose chunk function returns its chunk, the
// runtime's buffer of the goroutine, which the members read before the
// buffer serves another chunk; a float scan of it.
//
//soac:fuse AliasScan backend=parallel
func aliasScanSpec(xs []float64) []float64 {
	ys := soac.StreamMap(soac.Map(xs, func(x float64) float64 { return x * 3 }), func(chunk []float64) []float64 {
		return chunk
	})
	return soac.Scan(ys, 1, func(a, b float64) float64 { return a + b })
}

// ScanThenFilter: a filter of a scan's elements, whose kept counts need
// the scan's carry first (carries in levels): the stream's output is
// computed first, then the members' loop over it (parThenTwo).
//
//soac:fuse ScanThenFilter backend=parallel
func scanThenFilterSpec(xs []int) []int {
	ys := soac.StreamMap(xs, doubleChunk)
	run := soac.Scan(ys, 0, func(a, b int) int { return a + b })
	return soac.Filter(run, func(r int) bool { return r%3 == 0 })
}

// ShortChunk: the chunk function returns a short chunk when it sees a
// 77 and a long one when it sees a 78, and no member may panic (no
// rerun guard around the kernel): the one-step form's chunk of the
// wrong length runs the spec's calls, whose panic names the spec's
// chunk.
//
//soac:fuse ShortChunk backend=parallel
func shortChunkSpec(xs []int) ([]int, int) {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, 0, len(chunk)+1)
		for _, c := range chunk {
			if c == 77 {
				return out
			}
			if c == 78 {
				out = append(out, 0)
			}
			out = append(out, c+1)
		}
		return out
	})
	kept := soac.Filter(ys, func(y int) bool { return y%2 == 0 })
	return kept, soac.Reduce(ys, 0, func(a, b int) int { return a + b })
}

// shortChunkSpecArgs makes inputs of n elements in [0, 70), with a 77
// or a 78 at a random index, each a third of the time.
func shortChunkSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.IntN(70)
	}
	if k := r.IntN(3); n > 0 && k > 0 {
		xs[r.IntN(n)] = 76 + k
	}
	return []any{xs}
}

// DirtyBuffer: the chunk function adds into the array it makes, reading
// make's zeros; in the one-step form that array is the chunk's reused
// buffer (parallel.Reuse), cleared as make's would be.
//
//soac:fuse DirtyBuffer backend=parallel
func dirtyBufferSpec(xs []int) []int {
	ys := soac.StreamMap(xs, func(chunk []int) []int {
		out := make([]int, len(chunk))
		for i, c := range chunk {
			out[i] += c * 2
		}
		return out
	})
	return soac.Scan(ys, 0, func(a, b int) int { return a + b })
}
