// Package gathers holds pipelines whose consumer reads a producer's
// output only at the iteration index of an Iota of its length (Futhark's
// "ys[i] over iota", the engine's index-read tag): the producer fuses and
// its element stands for each read. The negatives read ys elsewhere and
// keep two kernels. Panicking producers exercise the rerun path.
package gathers

import "github.com/soacgen/soacgen/runtime/soac"

// Tabulate is Futhark's tabulate0: one pass.
//
//soac:fuse Tabulate
func tabulateSpec(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(soac.Iota(n), func(i int) int32 { return xs[i] })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] * xs[i] })
}

// TabulateN takes n apart from xs (tabulate1): both maps panic when n
// exceeds len(xs), Iota when n is negative; the first panic is the spec's.
//
//soac:fuse TabulateN
func tabulateNSpec(n int, xs []int32) []int32 {
	ys := soac.Map(soac.Iota(n), func(i int) int32 { return xs[i] + 1 })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] * xs[len(xs)-1-i] })
}

// DivMap reads ys twice at the index of a map over xs of the same length;
// the producer divides by the element and may panic.
//
//soac:fuse DivMap
func divMapSpec(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return 1000 / x })
	return soac.Map(soac.Iota(n), func(i int) int32 {
		if ys[i] > 10 {
			return ys[i] - 10
		}
		return ys[i] + int32(i)
	})
}

// MapOut also returns ys: it is written out by the fused loop.
//
//soac:fuse MapOut
func mapOutSpec(xs []int64) ([]int64, []int64) {
	n := len(xs)
	ys := soac.Map(xs, func(x int64) int64 { return x * 3 })
	zs := soac.Map(soac.Iota(n), func(i int) int64 { return ys[i] - int64(i) })
	return ys, zs
}

// FilterSum keeps the indices whose ys element is odd and sums them.
//
//soac:fuse FilterSum
func filterSumSpec(xs []int32) int {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return x*x + x/3 })
	kept := soac.Filter(soac.Iota(n), func(i int) bool { return ys[i]%2 != 0 })
	return soac.Reduce(kept, 0, func(a, b int) int { return a + b })
}

// SumReads folds the index reads of two producers.
//
//soac:fuse SumReads
func sumReadsSpec(xs []float64) float64 {
	n := len(xs)
	ys := soac.Map(xs, func(x float64) float64 { return x + 1 })
	zs := soac.Map(xs, func(x float64) float64 { return x * 2 })
	ws := soac.Map(soac.Iota(n), func(i int) float64 { return ys[i] - zs[i] })
	return soac.Reduce(ws, 0, func(a, b float64) float64 { return a + b })
}

// Fma multiplies and adds in its literal: it is called through a function
// value (its own compiled body), so the loop cannot put the element in
// the reads; the kernel runs its members as the spec does and still
// computes ys.
//
//soac:fuse Fma
func fmaSpec(xs []float64, a, b float64) []float64 {
	n := len(xs)
	ys := soac.Map(xs, func(x float64) float64 { return x / 3 })
	return soac.Map(soac.Iota(n), func(i int) float64 { return ys[i]*a + b })
}

// Shifted reads ys[i+1]: not the element at the index; two kernels and
// the spec's index panic at the last element.
//
//soac:fuse Shifted
func shiftedSpec(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return x + 1 })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i+1] })
}

// Longer reads ys of another length (n+1 elements): two kernels.
//
//soac:fuse Longer
func longerSpec(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(soac.Iota(n+1), func(i int) int32 { return int32(i) * 2 })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] + xs[i] })
}

// TabulatePar is Tabulate on the parallel backend.
//
//soac:fuse TabulatePar backend=parallel
func tabulateParSpec(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(soac.Iota(n), func(i int) int32 { return xs[i] * 7 })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] * xs[i] })
}

// DivMapPar is DivMap on the parallel backend: a panic in a chunk runs
// the members again as the spec does.
//
//soac:fuse DivMapPar backend=parallel
func divMapParSpec(xs []int32) []int32 {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return 1000 / x })
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] + xs[i]/2 })
}

// SumReadsPar folds index reads on the parallel backend.
//
//soac:fuse SumReadsPar backend=parallel
func sumReadsParSpec(xs []int64) int64 {
	n := len(xs)
	ys := soac.Map(xs, func(x int64) int64 { return x * x })
	ws := soac.Map(soac.Iota(n), func(i int) int64 { return ys[i] + int64(i) })
	return soac.Reduce(ws, 0, func(a, b int64) int64 { return a + b })
}

// ScanReadPar reads a scan's elements at the index on the parallel
// backend: each is the running value of every element before it, which a
// chunk has only once the chunks before it are known, so the kernel runs
// as two passes from carries (parallel.Carried), as for a member reading
// the scan as its input.
//
//soac:fuse ScanReadPar backend=parallel
func scanReadParSpec(xs []int64) []int64 {
	n := len(xs)
	ys := soac.Scan(xs, 0, func(a, b int64) int64 { return a + b })
	return soac.Map(soac.Iota(n), func(i int) int64 { return ys[i] * 2 })
}

// ScanReadFloatPar is ScanReadPar over float64: a chunk that read its
// scan's elements without the carry would miss the running value, which
// the differential test catches above the grain.
//
//soac:fuse ScanReadFloatPar backend=parallel
func scanReadFloatParSpec(xs []float64) []float64 {
	n := len(xs)
	ys := soac.Scan(xs, 0, func(a, b float64) float64 { return a + b })
	return soac.Map(soac.Iota(n), func(i int) float64 { return ys[i] * 2 })
}

// WriteBetween writes xs between the maps: ys's map cannot move past the
// write (write-between) and the index read is not placed, so two kernels;
// the consumer reads ys materialised.
//
//soac:fuse WriteBetween
func writeBetweenSpec(xs []int32) ([]int32, []int32) {
	n := len(xs)
	ys := soac.Map(xs, func(x int32) int32 { return 100 / x })
	if n > 0 {
		xs[0] = 7
	}
	return soac.Map(soac.Iota(n), func(i int) int32 { return ys[i] * 3 }), xs
}

// Zipped reads ys at the index of the second input of a Map2 whose first
// input is a map over xs too.
//
//soac:fuse Zipped
func zippedSpec(xs []float64) []float64 {
	n := len(xs)
	ys := soac.Map(xs, func(x float64) float64 { return x - 1 })
	zs := soac.Map(xs, func(x float64) float64 { return x * x })
	return soac.Map2(zs, soac.Iota(n), func(z float64, i int) float64 { return z / ys[i] })
}
