// Package parstreams holds maps fused into the chunks of a StreamRed or
// StreamMap with backend=parallel: the chunks run over runtime/parallel's
// chunks, each computing the maps' elements of its range. Its tests
// (parstreams_test.go, run by the differential test) check the results
// against the specs under GOMAXPROCS 1, 2 and 8, the order in which the
// chunks' results combine, the panics and the workers.
package parstreams

import (
	"fmt"
	"math/rand/v2"

	"github.com/soacgen/soacgen/runtime/soac"
)

// hv is a polynomial hash of a sequence and 31 to the power of its
// length: combining two is associative but not commutative, so a
// StreamRed over it gives the spec's result only if the chunks combine in
// order.
type hv struct{ h, p uint64 }

// Hash: the map runs inside the chunk function's range loop.
//
//soac:fuse Hash backend=parallel
func hashSpec(xs []int) uint64 {
	ys := soac.Map(xs, func(x int) uint64 { return uint64(x*x + 1) })
	r := soac.StreamRed(ys, func(a, b hv) hv { return hv{a.h*b.p + b.h, a.p * b.p} }, func(c []uint64) hv {
		r := hv{0, 1}
		for _, y := range c {
			r.h = r.h*31 + y
			r.p *= 31
		}
		return r
	})
	return r.h
}

// HashTwice: the chunk is read twice, so the map fills a chunk buffer
// (one per goroutine, reused).
//
//soac:fuse HashTwice backend=parallel
func hashTwiceSpec(xs []int) uint64 {
	ys := soac.Map(xs, func(x int) uint64 { return uint64(x*x + 1) })
	r := soac.StreamRed(ys, func(a, b hv) hv { return hv{a.h*b.p + b.h, a.p * b.p} }, func(c []uint64) hv {
		r := hv{0, 1}
		for _, y := range c {
			r.h = r.h*31 + y
		}
		for range c {
			r.p *= 31
		}
		return r
	})
	return r.h
}

// SumSq sums squares: a float StreamRed, whose result must not depend on
// the number of cores.
//
//soac:fuse SumSq backend=parallel
func sumSqSpec(xs []float64) float64 {
	sq := soac.Map(xs, func(x float64) float64 { return x * x })
	return soac.StreamRed(sq, func(a, b float64) float64 { return a + b }, func(c []float64) float64 {
		s := 0.0
		for _, v := range c {
			s += v
		}
		return s
	})
}

// sumSqSpecArgs are small integers: their sums are exact in any order,
// so the differential test may compare SumSq with the spec bit for bit.
func sumSqSpecArgs(r *rand.Rand, n int) []any {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(r.IntN(201) - 100)
	}
	return []any{xs}
}

// check returns x/97, and panics naming x when 97 does not divide it.
func check(x int) int {
	if x%97 != 0 {
		panic(fmt.Sprint("bad element ", x))
	}
	return x / 97
}

// CheckedSum: the map may panic, so it fills a chunk buffer; the panic is
// the spec's, of the lowest index.
//
//soac:fuse CheckedSum backend=parallel
func checkedSumSpec(xs []int) int {
	ys := soac.Map(xs, check)
	return soac.StreamRed(ys, func(a, b int) int { return a + b }, func(c []int) int {
		s := 0
		for _, y := range c {
			s += y
		}
		return s
	})
}

// CheckedDouble: the map and the StreamMap may both panic.
//
//soac:fuse CheckedDouble backend=parallel
func checkedDoubleSpec(xs []int) []int {
	ys := soac.Map(xs, check)
	return soac.StreamMap(ys, func(c []int) []int {
		out := make([]int, len(c))
		for i, y := range c {
			out[i] = 2 * y
		}
		return out
	})
}

// DropSevens drops the 7s of its chunk: the StreamMap panics when there
// is one, naming the spec's chunk.
//
//soac:fuse DropSevens backend=parallel
func dropSevensSpec(xs []int) []int {
	ys := soac.Map(xs, func(x int) int { return x % 10 })
	return soac.StreamMap(ys, func(c []int) []int {
		out := make([]int, 0, len(c))
		for _, y := range c {
			if y != 7 {
				out = append(out, y+1)
			}
		}
		return out
	})
}

// MapOut: the map's result is returned too: the chunks write it.
//
//soac:fuse MapOut backend=parallel
func mapOutSpec(xs []int) ([]int, []int) {
	m := soac.Map(xs, func(x int) int { return 3*x - 1 })
	d := soac.StreamMap(m, func(c []int) []int {
		out := make([]int, len(c))
		for i, v := range c {
			out[i] = v * v
		}
		return out
	})
	return m, d
}

// addHv and hashChunk are the operator and chunk function of NamedHash,
// called through their names.
func addHv(a, b hv) hv { return hv{a.h*b.p + b.h, a.p * b.p} }

func hashChunk(c []int) hv {
	r := hv{0, 1}
	for _, y := range c {
		r.h = r.h*31 + uint64(y)
		r.p *= 31
	}
	return r
}

// NamedHash: two maps (one of two inputs) feed a StreamRed whose
// functions are declared functions.
//
//soac:fuse NamedHash backend=parallel
func namedHashSpec(xs []int, k int) uint64 {
	a := soac.Map(xs, func(x int) int { return x + k })
	b := soac.Map2(xs, a, func(x, y int) int { return x*y - 3 })
	return soac.StreamRed(b, addHv, hashChunk).h
}

// Total sums the squares of any integer type.
//
//soac:fuse Total backend=parallel
func totalSpec[T ~int | ~int32 | ~uint64](xs []T) T {
	sq := soac.Map(xs, func(x T) T { return x * x })
	return soac.StreamRed(sq, func(a, b T) T { return a + b }, func(c []T) T {
		var s T
		for _, v := range c {
			s += v
		}
		return s
	})
}
