// Package opencl holds specs for backend=opencl: kernels the opencl
// backend renders (their OpenCL C is in the golden file, and the
// differential test runs them on the device when there is one), and one
// spec per reason it refuses a kernel, which then falls back to the CPU.
package opencl

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/soacgen/soacgen/runtime/soac"
)

// Rendered kernels.

//soac:fuse Scaled backend=opencl
func scaledSpec(xs []float64, k float64) []float64 {
	return soac.Map(soac.Map(xs, func(x float64) float64 { return x * k }), func(x float64) float64 { return x + 1 })
}

// Quotients divides by zero for some elements: the device records it and
// the CPU code raises the spec's panic.
//
//soac:fuse Quotients backend=opencl
func quotientsSpec(xs, ys []int32) []int32 {
	return soac.Map2(xs, ys, func(x, y int32) int32 { return x / (y % 5) })
}

type weights struct {
	A, B int64
	Neg  bool
}

//soac:fuse Weighted backend=opencl
func weightedSpec(xs []int64, w weights, on bool) int64 {
	ys := soac.Map2(xs, soac.Iota(len(xs)), func(x int64, i int) int64 {
		if on != w.Neg {
			return x*w.A + int64(i)*w.B
		}
		return x
	})
	return soac.Reduce(ys, 0, func(a, b int64) int64 { return a + b })
}

//soac:fuse Extremes backend=opencl
func extremesSpec(xs []uint32) (uint32, uint32) {
	hi := soac.Reduce(xs, 0, func(a, b uint32) uint32 { return max(a, b) })
	lo := soac.Reduce(xs, math.MaxUint32, func(a, b uint32) uint32 { return min(a, b) })
	return lo, hi
}

//soac:fuse Ratios32 backend=opencl
func ratios32Spec(xs, ys []float32) []float32 {
	return soac.Map2(xs, ys, func(x, y float32) float32 { return x / y })
}

// Refused kernels, one per reason (KeptPositive and ScanCaptured were).

//soac:fuse KeptPositive backend=opencl
func keptPositiveSpec(xs []int) []int {
	return soac.Filter(xs, func(x int) bool { return x > 0 })
}

//soac:fuse ScanCaptured backend=opencl
func scanCapturedSpec(xs []int, k int) []int {
	return soac.Scan(soac.Map(xs, func(x int) int { return x * k }), 0, func(a, b int) int { return a + b })
}

//soac:fuse StringRefused backend=opencl
func stringRefusedSpec(xs []string) []int {
	return soac.Map(xs, func(s string) int { return len(s) })
}

//soac:fuse Int8Plus backend=opencl
func int8PlusSpec(xs []int8) []int8 {
	return soac.Map(xs, func(x int8) int8 { return x + 1 })
}

//soac:fuse TableLookup backend=opencl
func tableLookupSpec(xs []int, table []int) []int {
	return soac.Map(xs, func(x int) int { return table[x&7] })
}

//soac:fuse NeutralMax backend=opencl
func neutralMaxSpec(xs []int, start int) int {
	return soac.Reduce(xs, start, func(a, b int) int { return max(a, b) }) // any start: max is idempotent (parallel starts each chunk from it)
}

//soac:fuse FuncValueRefused backend=opencl
func funcValueRefusedSpec(xs []float64, f func(float64) float64) []float64 {
	return soac.Map(xs, f)
}

//soac:fuse PanickyOpRefused backend=opencl
func panickyOpRefusedSpec(xs []int) int {
	return soac.Reduce(xs, 0, func(a, b int) int { return a + 60/(b|1) - 60/b })
}

//soac:fuse CallRefused backend=opencl
func callRefusedSpec(xs []float64) []int {
	return soac.Map(xs, func(x float64) int { return len(fmt.Sprint(x)) })
}

//soac:fuse RowSquares backend=opencl
func rowSquaresSpec(rows [][]int64) []int64 {
	return soac.Map(rows, func(row []int64) int64 {
		return soac.Reduce(soac.Map(row, func(x int64) int64 { return x * x }), 0, func(a, b int64) int64 { return a + b })
	})
}

// AutoScaled runs on a GPU when the cost model says so (never on PoCL's
// CPU device): the generated code asks launch's Use first.
//
//soac:fuse AutoScaled backend=auto
func autoScaledSpec(xs []float64, k float64) []float64 {
	return soac.Map(xs, func(x float64) float64 { return math.Sqrt(x) * k })
}

// Sums is a map-scan over integers.
//
//soac:fuse Sums backend=opencl
func sumsSpec(xs []int32) []int32 {
	return soac.Scan(soac.Map(xs, func(x int32) int32 { return 3*x + 1 }), 0, func(a, b int32) int32 { return a + b })
}

//soac:fuse OpCaptureRefused backend=opencl
func opCaptureRefusedSpec(xs []int, k int) int {
	return soac.Reduce(xs, 0, func(a, b int) int { return max(a, b, k) })
}

// Filters: selects in a map-reduce kernel, and the filter skeleton when
// the kept elements are stored.

// PosSquares folds the squares of the kept elements as selects; the map
// divides by the kept element, which only kept (non-zero) ones reach.
//
//soac:fuse PosSquares backend=opencl
func posSquaresSpec(xs []int64) (int64, int64) {
	all := soac.Reduce(xs, 0, func(a, b int64) int64 { return a + b })
	nz := soac.Filter(xs, func(x int64) bool { return x != 0 })
	s := soac.Reduce(soac.Map(nz, func(x int64) int64 { return 1000 / x * x }), 0, func(a, b int64) int64 { return a + b })
	return all, s
}

// Evens stores the kept elements of a filter of a map.
//
//soac:fuse Evens backend=opencl
func evensSpec(xs []int32) []int32 {
	return soac.Filter(soac.Map(xs, func(x int32) int32 { return x * 3 }), func(x int32) bool { return x%2 == 0 })
}

// KeptHalves stores a map of a chain of two filters and folds it; the
// predicate of the second divides, so a dropped element must not reach
// it (x > 0 guards it).
//
//soac:fuse KeptHalves backend=opencl
func keptHalvesSpec(xs []int64) ([]float64, int64) {
	pos := soac.Filter(xs, func(x int64) bool { return x > 0 })
	odd := soac.Filter(pos, func(x int64) bool { return 100/x%2 == 1 })
	hs := soac.Map(odd, func(x int64) float64 { return float64(x) / 2 })
	return hs, soac.Reduce(odd, 0, func(a, b int64) int64 { return a + b })
}

// PanickyPred's predicate divides by zero for some elements: the device
// records it and the CPU code raises the spec's panic.
//
//soac:fuse PanickyPred backend=opencl
func panickyPredSpec(xs []int32) []int32 {
	return soac.Filter(xs, func(x int32) bool { return 10/(x%7) > 1 })
}

// KeptPoints stores struct elements.
//
//soac:fuse KeptPoints backend=opencl
func keptPointsSpec(ps []weights2) []weights2 {
	return soac.Filter(ps, func(p weights2) bool { return p.A > p.B })
}

type weights2 struct {
	A, B int64
}

//soac:fuse FilterCaptured backend=opencl
func filterCapturedSpec(xs []int, k int) []int {
	return soac.Filter(xs, func(x int) bool { return x > k })
}

//soac:fuse FilterBesideFold backend=opencl
func filterBesideFoldSpec(xs []int) ([]int, int) {
	s := soac.Reduce(xs, 0, func(a, b int) int { return a + b })
	return soac.Filter(xs, func(x int) bool { return x > 0 }), s
}

//soac:fuse StartAdded backend=opencl
func startAddedSpec(xs []int) int {
	return soac.Reduce(xs, 10, func(a, b int) int { return a + b })
}

// Captured slices: read-only device buffers.

// RowSums folds, for each element, the row of a captured [][]int32 it
// names (an index out of range is the spec's panic).
//
//soac:fuse RowSums backend=opencl
func rowSumsSpec(xs []int64, rows [][]int32) int64 {
	return soac.Reduce(soac.Map(xs, func(x int64) int64 {
		s := int64(0)
		for _, v := range rows[x&3] {
			s += int64(v)
		}
		return s
	}), 0, func(a, b int64) int64 { return a + b })
}

// Nearest maps each element to the index of the nearest of the first
// six captured centres (structs), a loop over the captured slice per
// work-item (six: the differential test's slices are as long as xs).
//
//soac:fuse Nearest backend=opencl
func nearestSpec(xs []float64, cs []weights3) []int32 {
	return soac.Map(xs, func(x float64) int32 {
		best, bd := int32(-1), math.Inf(1)
		for i := 0; i < len(cs) && i < 6; i++ {
			if d := math.Abs(x-cs[i].At) * cs[i].W; d < bd {
				best, bd = int32(i), d
			}
		}
		return best
	})
}

type weights3 struct {
	At, W float64
}

// Slices of slices: one work-item per row, the nested SOACs as its loops.

// MatMul32 is the matmul example over int32 (exact on the device): the
// rows of a times the columns of bt, a row's length is len(bt); ragged
// rows make Map2 panic.
//
//soac:fuse MatMul32 backend=opencl
func matMul32Spec(a, bt [][]int32) [][]int32 {
	return soac.Map(a, func(row []int32) []int32 {
		return soac.Map(bt, func(col []int32) int32 {
			return soac.Reduce(soac.Map2(row, col, func(x, y int32) int32 { return x * y }), 0, func(s, t int32) int32 { return s + t })
		})
	})
}

// matMul32SpecArgs makes m×k and p×k matrices (m, p up to 60), a row of
// bt one longer in one trial of four (Map2 then panics).
func matMul32SpecArgs(r *rand.Rand, n int) []any {
	m := 1
	for m*m < n {
		m++
	}
	m = min(m, 60)
	k := r.IntN(5) + m/2
	mk := func(rows, cols int) [][]int32 {
		out := make([][]int32, rows)
		for i := range out {
			out[i] = make([]int32, cols)
			for j := range out[i] {
				out[i][j] = r.Int32N(2001) - 1000
			}
		}
		return out
	}
	a, bt := mk(m, k), mk(m+r.IntN(3), k)
	if r.IntN(4) == 0 {
		bt[len(bt)-1] = append(bt[len(bt)-1], 1)
	}
	return []any{a, bt}
}

// RowPrefixes scans each row: a row's room is the longest row.
//
//soac:fuse RowPrefixes backend=opencl
func rowPrefixesSpec(xss [][]int64, k int64) [][]int64 {
	return soac.Map(xss, func(row []int64) []int64 {
		return soac.Scan(soac.Map(row, func(x int64) int64 { return x * k }), 0, func(a, b int64) int64 { return a + b })
	})
}

//soac:fuse RoomRefused backend=opencl
func roomRefusedSpec(xs []int64, ys []int64) [][]int64 {
	return soac.Map(xs, func(x int64) []int64 { return soac.Map(ys[:x&3], func(y int64) int64 { return x * y }) })
}

//soac:fuse TwoFiltersRefused backend=opencl
func twoFiltersRefusedSpec(xs []int) ([]int, []int) {
	pos := soac.Filter(xs, func(x int) bool { return x > 0 })
	return pos, soac.Filter(pos, func(x int) bool { return x%2 == 0 })
}

//soac:fuse IndexedBesideRefused backend=opencl
func indexedBesideRefusedSpec(xs []int) ([]int, []int) {
	return soac.Map(xs, func(x int) int { return x + 1 }), soac.Filter(xs, func(x int) bool { return x > 0 })
}

// LastNonZero folds with an operator that is associative but not
// commutative (the last non-zero element): the kernel must not declare it
// commutative, so the skeleton keeps each work-item's elements in order.
// Its sum beside it is declared commutative.
//
//soac:fuse LastNonZero backend=opencl
func lastNonZeroSpec(xs []int64) (int64, int64) {
	ys := soac.Map(xs, func(x int64) int64 { return x % 3 })
	last := soac.Reduce(ys, 0, func(a, b int64) int64 {
		if b != 0 {
			return b
		}
		return a
	})
	return last, soac.Reduce(ys, 0, func(a, b int64) int64 { return a + b })
}

// Small integer and bool element types: fields of uint8, int8,
// int16, uint16 and bool in a struct input, arithmetic that wraps at the
// type's width (Go's semantics, not C's promotion to int), a uint8 map
// output and a uint8 fold.

type reading struct {
	Sensor uint8
	OK     bool
	Delta  int16
	Count  uint16
	Level  int8
}

//soac:fuse OkDeltas backend=opencl
func okDeltasSpec(rs []reading) int16 {
	return soac.Reduce(soac.Map(rs, func(r reading) int16 {
		if r.OK && r.Sensor != 3 {
			return r.Delta*int16(r.Level) + int16(r.Count>>4)
		}
		return 0
	}), 0, func(a, b int16) int16 { return a + b })
}

//soac:fuse ByteSums backend=opencl
func byteSumsSpec(xs []uint8, k uint8) ([]uint8, uint8) {
	ys := soac.Map(xs, func(x uint8) uint8 { return x*k + 200 })
	return ys, soac.Reduce(ys, 0, func(a, b uint8) uint8 { return a + b })
}

//soac:fuse Flags backend=opencl
func flagsSpec(xs []int8) []bool {
	return soac.Map(xs, func(x int8) bool { return x+100 < 0 })
}

// copyReadSpec: the producer reads a copy of k taken where it is
// written (k is reassigned before the consumer, which reads the new k);
// the kernel takes the copy as an argument of its own beside k, and the
// parallel backend's code (the fallback) reads the copy too.
//
//soac:fuse CopyRead backend=opencl
func copyReadSpec(xs []float64) []float64 {
	k := 2.0
	x := soac.Map(xs, func(v float64) float64 { return v * k })
	k = 3
	return soac.Map(x, func(v float64) float64 { return v + k })
}

// Grids (openclgrid.go): a Map over the rows of a [][]T returning a Map
// over a captured slice runs one work-item per element of the result.

// MatMulSwapped is a dot product whose Map2 takes the column first, with
// a named product that does not commute and a start that is a constant
// of its own (the fold's largest element, from the smallest int64).
//
//soac:fuse MatMulSwapped backend=opencl
func matMulSwappedSpec(a, bt [][]int64) [][]int64 {
	return soac.Map(a, func(row []int64) []int64 {
		return soac.Map(bt, func(col []int64) int64 {
			return soac.Reduce(soac.Map2(col, row, skew), -1<<63, func(s, t int64) int64 {
				if t > s {
					return t
				}
				return s
			})
		})
	})
}

// skew is a product that does not commute.
func skew(x, y int64) int64 { return x - 2*y }

// matMulSwappedSpecArgs makes m×k and p×k matrices, a row of a one
// shorter in one trial of four (Map2 then panics).
func matMulSwappedSpecArgs(r *rand.Rand, n int) []any {
	m := min(n, 40)
	k := r.IntN(20)
	mk := func(rows int) [][]int64 {
		out := make([][]int64, rows)
		for i := range out {
			out[i] = make([]int64, k)
			for j := range out[i] {
				out[i][j] = r.Int64N(1<<40) - 1<<39
			}
		}
		return out
	}
	a, bt := mk(m), mk(m/2+r.IntN(5))
	if len(a) > 0 && k > 0 && r.IntN(4) == 0 {
		a[len(a)/2] = a[len(a)/2][1:]
	}
	return []any{a, bt}
}

// MatMulStart is a dot product whose start is not a constant: the grid's
// general form (each work-item runs the inner lambda), not the tiled dot.
//
//soac:fuse MatMulStart backend=opencl
func matMulStartSpec(a, bt [][]float32, start float32) [][]float32 {
	return soac.Map(a, func(row []float32) []float32 {
		return soac.Map(bt, func(col []float32) float32 {
			return soac.Reduce(soac.Map2(row, col, func(x, y float32) float32 { return x * y }), start, func(s, t float32) float32 { return s + t })
		})
	})
}

// matMulStartSpecArgs makes m×k and p×k float32 matrices, a row of bt
// one longer in one trial of four, and a start.
func matMulStartSpecArgs(r *rand.Rand, n int) []any {
	m, k := min(n, 40), r.IntN(40)
	elem := func() float32 { return float32(r.NormFloat64()) }
	a, bt := gridRows(r, m, k, elem), gridRows(r, m/2+r.IntN(3), k, elem)
	if len(bt) > 0 && r.IntN(4) == 0 {
		bt[0] = append(bt[0], 1)
	}
	return []any{a, bt, elem()}
}

// Distances is a grid whose inner lambda is a loop over the row with a
// captured weight; a row of cs shorter than its p is the spec's index
// panic.
//
//soac:fuse Distances backend=opencl
func distancesSpec(ps, cs [][]float64, w float64) [][]float64 {
	return soac.Map(ps, func(p []float64) []float64 {
		return soac.Map(cs, func(c []float64) float64 {
			s := 0.0
			for i := range p {
				d := p[i] - c[i]
				s += float64(d * d * w) // rounded: no multiply-add, on the host either
			}
			return s
		})
	})
}

// distancesSpecArgs makes m×k and p×k matrices, a row of cs one shorter
// in one trial of four.
func distancesSpecArgs(r *rand.Rand, n int) []any {
	m := min(n, 40)
	k := r.IntN(20)
	mk := func(rows int) [][]float64 {
		out := make([][]float64, rows)
		for i := range out {
			out[i] = make([]float64, k)
			for j := range out[i] {
				out[i][j] = r.NormFloat64()
			}
		}
		return out
	}
	ps, cs := mk(m), mk(m/3+r.IntN(4))
	if len(cs) > 0 && k > 0 && r.IntN(4) == 0 {
		cs[0] = cs[0][1:]
	}
	return []any{ps, cs, r.Float64()}
}

// GridOffsets is a grid over a captured []int64: each element is its row's
// sum divided by x (x = 0 is the spec's divide panic).
//
//soac:fuse GridOffsets backend=opencl
func gridOffsetsSpec(a [][]int64, xs []int64) [][]int64 {
	return soac.Map(a, func(row []int64) []int64 {
		return soac.Map(xs, func(x int64) int64 {
			return soac.Reduce(row, 0, func(s, t int64) int64 { return s + t }) / x
		})
	})
}

// gridOffsetsSpecArgs makes an m×k matrix and p divisors in [-3, 3] (a zero
// is the spec's panic).
func gridOffsetsSpecArgs(r *rand.Rand, n int) []any {
	a := gridRows(r, min(n, 40), r.IntN(20), func() int64 { return r.Int64N(2001) - 1000 })
	xs := make([]int64, r.IntN(min(n, 40)+1))
	for i := range xs {
		xs[i] = r.Int64N(7) - 3
	}
	return []any{a, xs}
}

// gridRows returns a rows×k matrix of elem's values.
func gridRows[T any](r *rand.Rand, rows, k int, elem func() T) [][]T {
	out := make([][]T, rows)
	for i := range out {
		out[i] = make([]T, k)
		for j := range out[i] {
			out[i][j] = elem()
		}
	}
	return out
}

// RowScaled is not a grid (its lambda computes k before the returned
// Map, which every element would need): one work-item per row.
//
//soac:fuse RowScaled backend=opencl
func rowScaledSpec(a, bt [][]int32) [][]int32 {
	return soac.Map(a, func(row []int32) []int32 {
		k := int32(len(row))
		return soac.Map(bt, func(col []int32) int32 {
			return soac.Reduce(soac.Map2(row, col, func(x, y int32) int32 { return x * y }), 0, func(s, t int32) int32 { return s + t }) * k
		})
	})
}

// rowScaledSpecArgs makes m×k and p×k matrices (the default arguments'
// n×n products would be too many).
func rowScaledSpecArgs(r *rand.Rand, n int) []any {
	m, k := min(n, 40), r.IntN(20)
	elem := func() int32 { return r.Int32N(2001) - 1000 }
	return []any{gridRows(r, m, k, elem), gridRows(r, m/2+r.IntN(3), k, elem)}
}

// GridCallRefused has the grid's shape but an inner lambda that does not
// translate: neither the grid nor the row form renders it.
//
//soac:fuse GridCallRefused backend=opencl
func gridCallRefusedSpec(a [][]float64, xs []float64) [][]int {
	return soac.Map(a, func(row []float64) []int {
		return soac.Map(xs, func(x float64) int { return len(fmt.Sprint(x, len(row))) })
	})
}

// gridCallRefusedSpecArgs makes an m×k matrix and p values.
func gridCallRefusedSpecArgs(r *rand.Rand, n int) []any {
	m := min(n, 20)
	return []any{gridRows(r, m, r.IntN(5), r.Float64), gridRows(r, 1, m, r.Float64)[0]}
}

// The squares stay on the device after the first kernel; the second,
// which the opencl backend refuses (string elements), downloads them
// before its code runs. (Integers: the sums are exact on the device.)
//
//soac:fuse KeptThenRefused backend=opencl
func keptThenRefusedSpec(xs []int64) ([]string, int64) {
	sq := soac.Map(xs, func(x int64) int64 { return x * x })
	s := soac.Reduce(sq, 0, func(a, b int64) int64 { return a + b })
	big := soac.Map(sq, func(y int64) string {
		if y > s/4 {
			return "big"
		}
		return "small"
	})
	return big, s
}

// The squares stay on the device through two kernels; xs is uploaded
// once for the first and the third.
//
//soac:fuse KeptTwice backend=opencl
func keptTwiceSpec(xs []int64) ([]int64, []int64) {
	sq := soac.Map(xs, func(x int64) int64 { return x * x })
	s := soac.Reduce(sq, 0, func(a, b int64) int64 { return a + b })
	ys := soac.Map(sq, func(y int64) int64 { return y - s })
	m := soac.Reduce(ys, 0, func(a, b int64) int64 { return a ^ b })
	zs := soac.Map2(sq, xs, func(y, x int64) int64 { return (y + x) * m })
	return ys, zs
}

// BareReturn returns the squares through a named result and a bare
// return: they are read there, so they are not kept on the device.
//
//soac:fuse BareReturn backend=opencl
func bareReturnSpec(xs []int64) (sq, zs []int64) {
	sq = soac.Map(xs, func(x int64) int64 { return x * x })
	s := soac.Reduce(sq, 0, func(a, b int64) int64 { return a + b })
	zs = soac.Map(sq, func(y int64) int64 { return y - s })
	return
}

// KeptInLoop keeps the squares on the device in each round of a loop,
// releasing them after the round's last kernel.
//
//soac:fuse KeptInLoop backend=opencl
func keptInLoopSpec(xs []int64, rounds int) int64 {
	var t int64
	for rnd := 0; rnd < rounds; rnd++ {
		sq := soac.Map(xs, func(x int64) int64 { return x*x + int64(rnd) })
		s := soac.Reduce(sq, 0, func(a, b int64) int64 { return a + b })
		t += soac.Reduce(soac.Map(sq, func(y int64) int64 { return y ^ s }), 0, func(a, b int64) int64 { return a + b })
	}
	return t
}

// QuotientsKept divides the sum of the x+1 by each x+1: the x+1 stay on
// the device, and the second kernel panics (integer divide by zero)
// where some x is -1; its CPU code raises the spec's panic.
//
//soac:fuse QuotientsKept backend=opencl
func quotientsKeptSpec(xs []int64) []int64 {
	ys := soac.Map(xs, func(x int64) int64 { return x + 1 })
	s := soac.Reduce(ys, 0, func(a, b int64) int64 { return a + b })
	return soac.Map(ys, func(y int64) int64 { return s / y })
}

// indexReadSpec: the second map reads ys at the index (the engine's
// index-read): the producer fuses, and each work-item passes the
// element of ys it computed to the lambda as the value of ys[i], so ys
// is never materialised nor uploaded.
//
//soac:fuse IndexRead backend=opencl
func indexReadSpec(xs []float64) []float64 {
	n := len(xs)
	ys := soac.Map(xs, func(x float64) float64 { return x * 2 })
	return soac.Map(soac.Iota(n), func(i int) float64 { return ys[i] - 1 })
}

// capturedNamesSpec captures variables named like the skeletons' own
// variables (i, r, n, lid, chunk) and an OpenCL built-in (round): each is
// a kernel parameter that must keep its value.
//
//soac:fuse CapturedNames backend=opencl
func capturedNamesSpec(xs []int64) int64 {
	i, r, n, lid, chunk := int64(len(xs)%7), int64(3), int64(-2), int64(5), int64(11)
	round := int64(len(xs) % 5)
	return soac.Reduce(soac.Map(xs, func(x int64) int64 { return x*i + r*n + lid - chunk + round }), 0, func(a, b int64) int64 { return a + b })
}

// Captured values of scan and filter kernels are their kernel arguments,
// in the order of their Args: two of one type each, so that values passed
// in another order give another result; named like the skeletons' own
// variables (i, lid, n); a struct; a slice as a buffer and its length.

// scanCapturedNamesSpec scans a map capturing i, lid, n, a struct and
// the length of a slice.
//
//soac:fuse ScanCapturedNames backend=opencl
func scanCapturedNamesSpec(xs []int64, i, lid int64, p weights2, ws []int32) []int64 {
	n := int64(len(xs) % 7)
	return soac.Scan(soac.Map(xs, func(x int64) int64 { return x*i - lid + n + p.A - 2*p.B + int64(len(ws)) }), 0, func(a, b int64) int64 { return a + b })
}

// filterCapturedRangeSpec keeps lo < x < hi and maps the kept elements
// with m: captures in the predicate and in the kept elements' map.
//
//soac:fuse FilterCapturedRange backend=opencl
func filterCapturedRangeSpec(xs []int32, lo, hi, m int32) []int32 {
	return soac.Map(soac.Filter(xs, func(x int32) bool { return x > lo && x < hi }), func(y int32) int32 { return y*m - lo })
}

// filterCapturedTableSpec keeps the x whose entry of a captured table is
// above k: a slice read in the predicate, which panics (index out of
// range) where x is not an index of the table; the CPU code raises it.
//
//soac:fuse FilterCapturedTable backend=opencl
func filterCapturedTableSpec(xs []int, table []int, k int) []int {
	return soac.Filter(xs, func(x int) bool { return table[x&15] > k })
}

// scanRowLensSpec scans the lengths of the rows of a [][]T input: the
// rows' elements are a buffer argument of the scan kernel.
//
//soac:fuse ScanRowLens backend=opencl
func scanRowLensSpec(xss [][]int32) []int64 {
	return soac.Scan(soac.Map(xss, func(r []int32) int64 {
		s := int64(len(r))
		for _, x := range r {
			s += int64(x)
		}
		return s
	}), 0, func(a, b int64) int64 { return a + b })
}

// filterRowSumsSpec keeps the rows of a [][]T input longer than k and
// sums each: the rows' elements are a buffer argument of the filter
// kernel, beside the captured k.
//
//soac:fuse FilterRowSums backend=opencl
func filterRowSumsSpec(xss [][]int32, k int) []int64 {
	return soac.Map(soac.Filter(xss, func(r []int32) bool { return len(r) > k }), func(r []int32) int64 {
		s := int64(0)
		for _, x := range r {
			s += int64(x)
		}
		return s
	})
}

// The index reads below run on the device too (the engine's index-read,
// testdata/gathers): the consumer's lambda takes the element of each
// array it reads at the index from the work-item.

// indexReadDivSpec: the producer divides by the element (a panic flag
// where some x is 0: the CPU code raises the spec's panic), and the
// consumer reads its element twice, beside the index and a capture.
//
//soac:fuse IndexReadDiv backend=opencl
func indexReadDivSpec(xs []int32, k int32) []int32 {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return 1000 / x })
	return soac.Map(soac.Iota(n), func(i int) int32 {
		if ys[i] > k {
			return ys[i] - k
		}
		return ys[i] + int32(i)
	})
}

// indexReadTwoSpec reads two producers' elements, ys before zs in the
// body and zs first in the source of the second read, and folds them: a
// swap of the two elements changes every result.
//
//soac:fuse IndexReadTwo backend=opencl
func indexReadTwoSpec(xs []int64) int64 {
	n := len(xs)
	ys := soac.Map(xs, func(x int64) int64 { return x*3 + 1 })
	zs := soac.Map(xs, func(x int64) int64 { return x - 7 })
	ws := soac.Map(soac.Iota(n), func(i int) int64 { return ys[i]*2 - zs[i] + ys[i]/5 })
	return soac.Reduce(ws, 0, func(a, b int64) int64 { return a + b })
}

// indexReadFilterSpec keeps the indices whose ys element is odd (the
// filter skeleton: kept indices compacted).
//
//soac:fuse IndexReadFilter backend=opencl
func indexReadFilterSpec(xs []int32) []int {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return x*x + x/3 })
	return soac.Filter(soac.Iota(n), func(i int) bool { return ys[i]%2 != 0 })
}

// indexReadZippedSpec reads ys at the index of the second input of a
// Map2 whose first input is another map over xs; float32, so that every
// device runs it.
//
//soac:fuse IndexReadZipped backend=opencl
func indexReadZippedSpec(xs []float32) []float32 {
	n := len(xs)
	ys := soac.Map(xs, func(x float32) float32 { return x - 1 })
	zs := soac.Map(xs, func(x float32) float32 { return x * x })
	return soac.Map2(zs, soac.Iota(n), func(z float32, i int) float32 { return z / ys[i] })
}

// indexReadStructSpec reads a struct element at the index, and a field
// of it.
//
//soac:fuse IndexReadStruct backend=opencl
func indexReadStructSpec(xs []int16) []int64 {
	n := len(xs)
	ps := soac.Map(xs, func(x int16) reading { return reading{Delta: x, Level: int8(x), OK: x > 0} })
	return soac.Map(soac.Iota(n), func(i int) int64 {
		if ps[i].OK {
			return int64(ps[i].Delta) * 2
		}
		return int64(ps[i].Level) - int64(i)
	})
}

// A fold of nested structs: the skeleton's struct holds their fields
// flattened (the same layout), and its start, a literal of constants
// and infinities, is built into the program.

type at struct {
	V int64
	I int32
}

type ends struct {
	Lo, Hi at
}

// minAt and maxAt keep the first of equal values.
func minAt(p, q at) at {
	if q.V < p.V {
		return q
	}
	return p
}

func maxAt(p, q at) at {
	if q.V > p.V {
		return q
	}
	return p
}

// nestedEndsSpec returns the least and greatest x with their positions
// modulo 1000, from a start that is not the zero value.
//
//soac:fuse NestedEnds backend=opencl
func nestedEndsSpec(xs []int64) ends {
	es := soac.Map2(xs, soac.Iota(len(xs)), func(x int64, i int) ends {
		return ends{at{x, int32(i % 1000)}, at{x, int32(i % 1000)}}
	})
	return soac.Reduce(es, ends{Lo: at{V: math.MaxInt64}, Hi: at{math.MinInt64, -1}}, func(a, b ends) ends {
		return ends{minAt(a.Lo, b.Lo), maxAt(a.Hi, b.Hi)}
	})
}

// nestedEndsSpecArgs gives nestedEndsSpec inputs all positive, all
// negative or mixed, some holding the extremes that tie with the start.
func nestedEndsSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]int64, n)
	m := r.IntN(3)
	lo, hi := []int64{1, -1000, -1000}[m], []int64{1000, -1, 1000}[m]
	for i := range xs {
		xs[i] = lo + r.Int64N(hi-lo+1)
		if r.IntN(50) == 0 {
			xs[i] = []int64{math.MaxInt64, math.MinInt64}[r.IntN(2)]
		}
	}
	return []any{xs}
}

type scored struct {
	P pt2
	S float32
}

type pt2 struct{ X, Y float32 }

// nestedBestSpec folds float32 structs holding a struct from a start of
// -Inf, beside the kept elements (the filter skeleton's fold of every
// element), as quickhull does.
//
//soac:fuse NestedBest backend=opencl
func nestedBestSpec(ps []pt2) (scored, []pt2) {
	ss := soac.Map(ps, func(p pt2) scored { return scored{p, p.X - 2*p.Y} })
	best := soac.Reduce(ss, scored{S: float32(math.Inf(-1))}, func(a, b scored) scored {
		if b.S > a.S {
			return b
		}
		return a
	})
	return best, soac.Map(soac.Filter(ss, func(s scored) bool { return s.S < 0 }), func(s scored) pt2 { return s.P })
}

type inner struct {
	A int64
	B int8
}

type lopsided struct {
	In inner
	C  int8
}

// layoutRefusedSpec folds a struct whose fields, flattened, would not
// keep its layout (C sits after In's padding): refused.
//
//soac:fuse LayoutRefused backend=opencl
func layoutRefusedSpec(xs []int64) lopsided {
	return soac.Reduce(soac.Map(xs, func(x int64) lopsided { return lopsided{inner{x, int8(x)}, int8(x >> 8)} }), lopsided{}, func(a, b lopsided) lopsided {
		return lopsided{inner{a.In.A + b.In.A, a.In.B ^ b.In.B}, a.C | b.C}
	})
}

// structNeutralRefusedSpec folds from a start that reads a variable: the
// skeleton cannot build it into the program.
//
//soac:fuse StructNeutralRefused backend=opencl
func structNeutralRefusedSpec(xs []int64, k int64) at {
	return soac.Reduce(soac.Map(xs, func(x int64) at { return at{x, 1} }), at{V: k}, func(a, b at) at {
		return minAt(a, b)
	})
}

// Kernels that read no array: the work-items compute their elements
// from the index of the Iota that generates the space, over its length.

// tabulateCLSpec is Futhark's tabulate0: ys read at the index.
//
//soac:fuse TabulateCL backend=opencl
func tabulateCLSpec(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(soac.Iota(n), func(i int) int32 { return xs[i] * 3 })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] - int32(i) })
}

// sumSquaresToSpec returns the squares below n modulo 1000, each plus an
// element of xs, and their sum; n negative is Iota's panic, raised by
// the CPU code, and n beyond len(xs) reads past xs (a panic flag: the
// CPU code raises the index panic).
//
//soac:fuse SumSquaresTo backend=opencl
func sumSquaresToSpec(n int, xs []int64) (int64, []int64) {
	sq := soac.Map(soac.Iota(n), func(i int) int64 { return int64(i*i%1000) + xs[i%(len(xs)+1)] })
	return soac.Reduce(sq, 0, func(a, b int64) int64 { return a + b }), sq
}

// sumSquaresToSpecArgs gives sumSquaresToSpec lengths from -2 to len(xs)+2.
func sumSquaresToSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = r.Int64N(100)
	}
	return []any{r.IntN(n+5) - 2, xs}
}

// iotaFilterRefusedSpec keeps the even indices below 2n: the filter
// skeleton needs an input.
//
//soac:fuse IotaFilterRefused backend=opencl
func iotaFilterRefusedSpec(n int) []int {
	return soac.Filter(soac.Iota(2*n), func(i int) bool { return i%2 == 0 })
}

// iotaCallRefusedSpec's length is a call: the host would evaluate it
// twice, once in the CPU code.
//
//soac:fuse IotaCallRefused backend=opencl
func iotaCallRefusedSpec(xs []int) int {
	return soac.Reduce(soac.Iota(maxLen(xs)), 0, func(a, b int) int { return a + b })
}

func maxLen(xs []int) int { return len(xs) * 2 }

// Starts that are not their operator's neutral element: an integer
// Reduce folds from the operator's own on the device, and the host
// combines the start once; a float fold is refused.

// startProductSpec multiplies from a captured start, beside a sum from
// 3 and a xor from a constant: each start counts once.
//
//soac:fuse StartProduct backend=opencl
func startProductSpec(xs []int32, k int32) (int32, int64, uint16) {
	p := soac.Reduce(soac.Map(xs, func(x int32) int32 { return x%5 + 1 }), k, func(a, b int32) int32 { return a * b })
	s := soac.Reduce(soac.Map(xs, func(x int32) int64 { return int64(x) }), 3, func(a, b int64) int64 { return a + b })
	x := soac.Reduce(soac.Map(xs, func(x int32) uint16 { return uint16(x) }), 0x5a5a, func(a, b uint16) uint16 { return a ^ b })
	return p, s, x
}

// startFloatSpec sums floats from 1: element 0 adds the start.
//
//soac:fuse StartFloat backend=opencl
func startFloatSpec(xs []float64) float64 {
	return soac.Reduce(xs, 1.0, func(a, b float64) float64 { return a + b })
}

// Replicate: its value is a kernel argument.

// replicateScaledSpec zips xs with copies of k and of a struct: an input
// beside generated elements.
//
//soac:fuse ReplicateScaled backend=opencl
func replicateScaledSpec(xs []int64, k int64) int64 {
	ks := soac.Replicate(len(xs), k*2+1)
	ws := soac.Replicate(len(xs), at{V: k, I: 3})
	return soac.Reduce(soac.Map3(xs, ks, ws, func(x, c int64, w at) int64 { return x*c + w.V - int64(w.I) }), 0, func(a, b int64) int64 { return a + b })
}

// replicateOnlySpec maps copies of v over n: a space that Replicate
// generates (n negative is its panic, raised by the CPU code).
//
//soac:fuse ReplicateOnly backend=opencl
func replicateOnlySpec(n int, v float32) []float32 {
	return soac.Map(soac.Replicate(n, v), func(x float32) float32 { return x * 3 })
}

// replicateCallRefusedSpec replicates a call's value: the host would
// evaluate it twice.
//
//soac:fuse ReplicateCallRefused backend=opencl
func replicateCallRefusedSpec(xs []int) int {
	return soac.Reduce(soac.Map2(xs, soac.Replicate(len(xs), maxLen(xs)), func(x, m int) int { return x * m }), 0, func(a, b int) int { return a + b })
}

// Kernels the opencl backend once refused and now translates.

// Reads of a copy of a capture (fusion.Kernel.Copies): the kernel takes
// the copy, taken where the producer is written, as an argument of its
// own beside the reassigned variable.

// CopyPanics divides by a copy of d, zero for some lengths (the spec's
// panic then, raised by the CPU code after the device's panic flag); the
// consumer adds the new d.
//
//soac:fuse CopyPanics backend=opencl
func copyPanicsSpec(xs []int) []int {
	d := len(xs) % 3
	x := soac.Map(xs, func(v int) int { return v / d })
	d = 7
	return soac.Map(x, func(v int) int { return v + d })
}

type gapPair struct{ a, b float64 }

// CopyStruct reads a copy of a struct reassigned whole, beside a sum of
// the new one's field.
//
//soac:fuse CopyStruct backend=opencl
func copyStructSpec(xs []float64) (float64, float64) {
	p := gapPair{a: 2, b: -1}
	x := soac.Map(xs, func(v float64) float64 { return v*p.a + p.b })
	p = gapPair{a: p.b, b: p.a}
	return soac.Reduce(soac.Map(x, func(v float64) float64 { return v * p.a }), 0, func(a, b float64) float64 { return a + b }), p.b
}

// CopyTwice: a Map2 reads the copy of k beside its two inputs, the
// consumer the new k.
//
//soac:fuse CopyTwice backend=opencl
func copyTwiceSpec(xs, ys []int32) []int32 {
	k := int32(3)
	x := soac.Map2(xs, ys, func(a, b int32) int32 { return a*k - b })
	k = -k
	return soac.Map(x, func(v int32) int32 { return v<<2 + k })
}

// CopySliceRefused reads a copy of a captured slice: a slice's copy is
// not passed (a number or struct only).
//
//soac:fuse CopySliceRefused backend=opencl
func copySliceRefusedSpec(xs []int, table []int) []int {
	t := table
	x := soac.Map(xs, func(v int) int { return v + len(t) })
	t = xs
	return soac.Map(x, func(v int) int { return v * len(t) })
}

// A scan followed by other members, or beside a stored map: the scan
// skeleton writes the scan on the device, then a map-reduce or filter
// skeleton computes the rest reading it there (openclsplit.go).

// ScanThenMap halves the square roots of a running maximum (as
// prefixsum's HalfSqrts does of a running sum, which the device
// reassociates: max is exact in any order) and zips them with the input;
// the scan is not stored.
//
//soac:fuse ScanThenMap backend=opencl
func scanThenMapSpec(xs []float64) []float64 {
	s := soac.Scan(soac.Map(xs, func(x float64) float64 { return x * x }), -1e308, func(a, b float64) float64 { return max(a, b) })
	return soac.Map2(s, xs, func(p, x float64) float64 { return math.Sqrt(p)/2 - x })
}

// ScanThenSum sums a running sum, beside the sum of the elements folded
// before the scan; both stored with the scan.
//
//soac:fuse ScanThenSum backend=opencl
func scanThenSumSpec(xs []int64) ([]int64, int64, int64) {
	t := soac.Reduce(xs, 0, func(a, b int64) int64 { return a + b })
	s := soac.Scan(xs, 0, func(a, b int64) int64 { return a + b })
	return s, soac.Reduce(s, 0, func(a, b int64) int64 { return a ^ b }), t
}

// ScanBesideMap stores the map the scan reads (the scan is the kernel's
// last member).
//
//soac:fuse ScanBesideMap backend=opencl
func scanBesideMapSpec(xs []int32, k int32) ([]int32, []int32) {
	m := soac.Map(xs, func(x int32) int32 { return x*k + 1 })
	return m, soac.Scan(m, 0, func(a, b int32) int32 { return max(a, b) })
}

// ScanThenFilter keeps the positive running sums (a filter skeleton
// after the scan's).
//
//soac:fuse ScanThenFilter backend=opencl
func scanThenFilterSpec(xs []int) []int {
	s := soac.Scan(xs, 0, func(a, b int) int { return a + b })
	return soac.Filter(s, func(v int) bool { return v > 0 })
}

// ScanThenPanics divides by the running sum, zero for some prefixes: the
// second launch's panic flag makes the CPU code raise the spec's panic.
//
//soac:fuse ScanThenPanics backend=opencl
func scanThenPanicsSpec(xs []int) []int {
	s := soac.Scan(soac.Map(xs, func(x int) int { return x%5 + 1 }), 0, func(a, b int) int { return a + b })
	return soac.Map2(xs, s, func(x, p int) int { return x / (p % 97) })
}

// ScanTwice scans a scan: a second scan kernel reads the first's.
//
//soac:fuse ScanTwice backend=opencl
func scanTwiceSpec(xs []int) []int {
	return soac.Scan(soac.Scan(xs, 0, func(a, b int) int { return a + b }), 0, func(a, b int) int { return a + b })
}

// Folds from a start that is not their operator's neutral element, or
// not a constant.

// StartFloatSum sums halves from a start, and float32s from another.
//
//soac:fuse StartFloatSum backend=opencl
func startFloatSumSpec(xs []float64, start float64, k float32) (float64, float32) {
	s := soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * 0.5 }), start, func(a, b float64) float64 { return a + b })
	p := soac.Reduce(soac.Map(xs, func(x float64) float32 { return float32(x) }), k, func(a, b float32) float32 { return a + b })
	return s, p
}

func startFloatSumSpecArgs(r *rand.Rand, n int) []any {
	return []any{quarters(r, n), float64(r.IntN(9)) - 4.5, float32(r.IntN(9)) + 0.25}
}

// IdemStarts folds with max, min, | and & from variables: the device
// folds from the operators' identities, the host combines each start.
//
//soac:fuse IdemStarts backend=opencl
func idemStartsSpec(xs []int32, lo int32, hi uint64, m int64) (int32, int32, uint64, int64) {
	a := soac.Reduce(xs, lo, func(a, b int32) int32 { return max(a, b) })
	b := soac.Reduce(xs, lo-3, func(a, b int32) int32 { return min(a, b) })
	c := soac.Reduce(soac.Map(xs, func(x int32) uint64 { return uint64(x) & 0xff }), hi, func(a, b uint64) uint64 { return a | b })
	d := soac.Reduce(soac.Map(xs, func(x int32) int64 { return int64(x) | 0x10 }), m, func(a, b int64) int64 { return a & b })
	return a, b, c, d
}

// IdemFilter folds the kept elements with max from a variable (a select
// keeps the identity for a dropped element).
//
//soac:fuse IdemFilter backend=opencl
func idemFilterSpec(xs []int64, lo int64) int64 {
	return soac.Reduce(soac.Filter(xs, func(x int64) bool { return x%3 != 0 }), lo, func(a, b int64) int64 { return max(a, b) })
}

// NeutralOp folds with a named operator from a variable: not an
// operator the generator knows, so its start is taken as its neutral
// element (docs/contract.md; any start of this idempotent one), which the
// kernel takes as an argument (skel.Reduction.NeutralArg).
//
//soac:fuse NeutralOp backend=opencl
func neutralOpSpec(xs []int, start int) int {
	return soac.Reduce(xs, start, maxInts)
}

func maxInts(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// ScanStart scans from a start that is not neutral: element 0 combines
// it, every element holds it.
//
//soac:fuse ScanStart backend=opencl
func scanStartSpec(xs []int) []int {
	return soac.Scan(xs, 5, func(a, b int) int { return a + b })
}

// FilterStartRefused sums the kept floats from a start that is not
// neutral: the filter skeleton folds kept elements only, so element 0
// cannot hold the start.
//
//soac:fuse FilterStartRefused backend=opencl
func filterStartRefusedSpec(xs []float64) ([]float64, float64) {
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	return pos, soac.Reduce(pos, 1.5, func(a, b float64) float64 { return a + b })
}

// startFloatSpecArgs: quarters, whose sums are exact in any order (the
// device reassociates a float fold), and the values that stay exact:
// signed zeros, infinities, NaN.
func startFloatSpecArgs(r *rand.Rand, n int) []any { return []any{quarters(r, n)} }

func quarters(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(r.IntN(65)-32) / 4
		if r.IntN(16) == 0 {
			xs[i] = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN()}[r.IntN(5)]
		}
	}
	return xs
}

// Method values as lambdas: the method is translated and its receiver,
// evaluated where the kernel runs, is a kernel argument.

type gapScaler struct {
	Factor, Offset float64
	Shift          int32
}

func (s gapScaler) Apply(x float64) float64 { return x*s.Factor + s.Offset }

func (s gapScaler) Count(x int64) int64 { return x/int64(s.Shift|1) + x%3 }

// Both calls Apply, another method.
func (s gapScaler) Both(x float64) float64 { return s.Apply(x) - x*s.Offset }

// MethodMap maps by a method value of a struct parameter.
//
//soac:fuse MethodMap backend=opencl
func methodMapSpec(s gapScaler, xs []float64) []float64 {
	return soac.Map(xs, s.Apply)
}

// MethodPtrSum sums by a method value of a pointer (its value is the
// receiver) and maps by one of a local.
//
//soac:fuse MethodPtrSum backend=opencl
func methodPtrSumSpec(p *gapScaler, xs []int64) (int64, []float64) {
	t := gapScaler{Factor: 2, Offset: -1, Shift: 6}
	ys := soac.Map(xs, func(x int64) float64 { return float64(x) })
	return soac.Reduce(soac.Map(xs, p.Count), 0, func(a, b int64) int64 { return a + b }), soac.Map(ys, t.Both)
}

// MethodRecvRefused maps by a method value of an element of a slice: the
// receiver is not a variable.
//
//soac:fuse MethodRecvRefused backend=opencl
func methodRecvRefusedSpec(ss []gapScaler, xs []float64) []float64 {
	if len(ss) == 0 {
		return nil
	}
	return soac.Map(xs, ss[0].Apply)
}

// Scans from a start that is not neutral (element 0 combines it).

// ScanStartThen scans from a variable and maps the running values (two
// launches: openclsplit.go).
//
//soac:fuse ScanStartThen backend=opencl
func scanStartThenSpec(xs []int32, k int32) []int32 {
	s := soac.Scan(xs, k, func(a, b int32) int32 { return a * b })
	return soac.Map(s, func(v int32) int32 { return v ^ 0x55 })
}

// ScanStartMax scans max from a variable.
//
//soac:fuse ScanStartMax backend=opencl
func scanStartMaxSpec(xs []int64, lo int64) []int64 {
	return soac.Scan(xs, lo, func(a, b int64) int64 { return max(a, b) })
}

// ScanStartFloat scans float sums from a variable.
//
//soac:fuse ScanStartFloat backend=opencl
func scanStartFloatSpec(xs []float64, start float64) []float64 {
	return soac.Scan(xs, start, func(a, b float64) float64 { return a + b })
}

func scanStartFloatSpecArgs(r *rand.Rand, n int) []any {
	return []any{quarters(r, n), float64(r.IntN(9)) - 4.5}
}

// StartCallRefused scans from a call's result: the host would evaluate
// it again for the kernel.
//
//soac:fuse StartCallRefused backend=opencl
func startCallRefusedSpec(xs []int) []int {
	return soac.Scan(xs, maxLen(xs), func(a, b int) int { return a + b })
}

// ScanRowsRefused scans the sums of a [][]int32's rows and maps them:
// the two launches take flat arrays only.
//
//soac:fuse ScanRowsRefused backend=opencl
func scanRowsRefusedSpec(rows [][]int32) []int32 {
	s := soac.Scan(soac.Map(rows, func(r []int32) int32 {
		return soac.Reduce(r, 0, func(a, b int32) int32 { return a + b })
	}), 0, func(a, b int32) int32 { return a + b })
	return soac.Map(s, func(v int32) int32 { return v * 3 })
}

// ScanAuto is ScanThenMap for backend=auto: two launches in one
// session, priced together (launch.Cost.Launches), the model asked once.
//
//soac:fuse ScanAuto backend=auto
func scanAutoSpec(xs []int64) []int64 {
	s := soac.Scan(xs, 0, func(a, b int64) int64 { return a + b })
	return soac.Map(s, func(v int64) int64 { return v - 1 })
}

// ScanChain: a scan, a map of it, a scan of the map, a map of that and a
// fold of the first map: three launches (two scans kept on the device,
// then a map-reduce kernel reading both).
//
//soac:fuse ScanChain backend=opencl
func scanChainSpec(xs []int64) ([]int64, []int64, int64) {
	a := soac.Scan(xs, 0, func(p, q int64) int64 { return p + q })
	b := soac.Map(a, func(v int64) int64 { return v*2 - 7 })
	c := soac.Scan(b, 0, func(p, q int64) int64 { return max(p, q) })
	d := soac.Map2(c, a, func(v, w int64) int64 { return v - w })
	return a, d, soac.Reduce(b, 0, func(p, q int64) int64 { return p ^ q })
}

// FilterScanRefused scans a filter's kept elements: the scan skeleton
// scans every element of its input.
//
//soac:fuse FilterScanRefused backend=opencl
func filterScanRefusedSpec(xs []int) []int {
	return soac.Scan(soac.Filter(xs, func(x int) bool { return x > 0 }), 0, func(a, b int) int { return a + b })
}

// ScanPanicsRefused scans a map that may panic: the scan skeleton has
// no panic flag (a map after the scan may panic: ScanThenPanics).
//
//soac:fuse ScanPanicsRefused backend=opencl
func scanPanicsRefusedSpec(xs []int) []int {
	return soac.Scan(soac.Map(xs, func(x int) int { return 100 / x }), 0, func(a, b int) int { return a + b })
}

// TempInputRefused's input is an expression the generator binds to a
// temporary: its refusal names the expression and where it is, not the
// temporary.
//
//soac:fuse TempInputRefused backend=opencl
func tempInputRefusedSpec(xs []string, k int) int {
	return soac.Reduce(soac.Map(xs[k:], func(s string) int { return len(s) }), 0, func(a, b int) int { return a + b })
}

// ZipGenerated zips an Iota of ys's length with xs: where the lengths
// differ the spec's Map2 panics, so the kernel, which runs over xs and
// computes the Iota's elements from the index, does not launch.
//
//soac:fuse ZipGenerated backend=opencl
func zipGeneratedSpec(xs, ys []int64) int64 {
	is := soac.Map(soac.Iota(len(ys)), func(i int) int64 { return int64(i) * 3 })
	return soac.Reduce(soac.Map2(is, xs, func(i, x int64) int64 { return i ^ x }), 0, func(a, b int64) int64 { return a + b })
}

// ZipGenerators zips an Iota and a Replicate: the kernel runs over the
// Iota's length only when the Replicate's is the same.
//
//soac:fuse ZipGenerators backend=opencl
func zipGeneratorsSpec(n, m int) int64 {
	return soac.Reduce(soac.Map2(soac.Iota(n), soac.Replicate(m, int64(5)), func(i int, r int64) int64 { return int64(i) * r }), 0,
		func(a, b int64) int64 { return a + b })
}

// ZipGeneratedScan zips an Iota of ys's length with xs before a scan and
// a reduction of its prefix sums (two launches: the scan, then the
// rest).
//
//soac:fuse ZipGeneratedScan backend=opencl
func zipGeneratedScanSpec(xs, ys []int64) ([]int64, int64) {
	ps := soac.Scan(soac.Map2(xs, soac.Iota(len(ys)), func(x int64, i int) int64 { return x - int64(i) }), 0, func(a, b int64) int64 { return a + b })
	return ps, soac.Reduce(soac.Map(ps, func(p int64) int64 { return p ^ 7 }), 0, func(a, b int64) int64 { return max(a, b) })
}
