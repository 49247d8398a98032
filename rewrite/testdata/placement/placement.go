// Package placement holds pipelines whose kernel runs at its producer's
// position, its consumers moved up past statements they commute with
// (placement), and pipelines where the move would change the result
// or the panic, so the engine must not make it.
package placement

import "github.com/soacgen/soacgen/runtime/soac"

func inc(v float64) float64 { return v + 1 }
func ten(v float64) float64 { return v * 10 }

// WriteBetween: xs[0] is written between x and y; y reads only x, so it
// moves up to x and the kernel reads xs before the write.
//
//soac:fuse WriteBetween
func writeBetweenSpec(xs []float64) ([]float64, []float64) {
	x := soac.Map(xs, inc)
	if len(xs) > 0 {
		xs[0] = 100
	}
	y := soac.Map(x, ten)
	return y, xs
}

// WriteBetweenRead: y also reads xs, which is written between: no kernel
// position sees the right xs for both, so x and y stay apart.
//
//soac:fuse WriteBetweenRead
func writeBetweenReadSpec(xs []float64) []float64 {
	x := soac.Map(xs, inc)
	if len(xs) > 0 {
		xs[0] = 100
	}
	return soac.Map2(x, xs, func(a, b float64) float64 { return a + b })
}

// IndexBetween (Futhark's fusion7): the first map's result is indexed
// before the second map; the second cannot panic and moves up: one pass.
// The indexing panics on empty input, after both maps as in the spec.
//
//soac:fuse IndexBetween
func indexBetweenSpec(xs []int32) (int32, int32) {
	foo := soac.Map(xs, func(x int32) int32 { return x + 1 })[0]
	bar := soac.Map(xs, func(x int32) int32 { return x + 2 })[0]
	return foo, bar
}

// IndexBetweenPanics: the second map may panic (division), the indexing
// between may panic too: the spec panics on the index first, so the map
// does not move up past it.
//
//soac:fuse IndexBetweenPanics
func indexBetweenPanicsSpec(xs []int32) (int32, int32) {
	foo := soac.Map(xs, func(x int32) int32 { return x + 1 })[0]
	bar := soac.Map(xs, func(x int32) int32 { return 100 / x })[0]
	return foo, bar
}

// UsedBetween: x is read between x and the reduction: the kernel runs at
// x and writes x out (map-out) for the read.
//
//soac:fuse UsedBetween
func usedBetweenSpec(xs []float64) (float64, float64) {
	x := soac.Map(xs, inc)
	first := -1.0
	if len(x) > 0 {
		first = x[0]
	}
	s := soac.Reduce(x, 0, func(a, b float64) float64 { return a + b })
	return s, first
}

// ReturnBetween: an early return between x and y; y cannot panic, so
// computing it before the return changes nothing a caller sees.
//
//soac:fuse ReturnBetween
func returnBetweenSpec(xs []float64, stop bool) []float64 {
	x := soac.Map(xs, inc)
	if stop {
		return nil
	}
	return soac.Map(x, ten)
}

// ReturnBetweenPanics: y may panic: moved up before the return, it would
// panic on the returning path too.
//
//soac:fuse ReturnBetweenPanics
func returnBetweenPanicsSpec(xs []int, stop bool) []int {
	x := soac.Map(xs, func(v int) int { return v - 3 })
	if stop {
		return nil
	}
	return soac.Map(x, func(v int) int { return 100 / v })
}

// CaptureReassigned: k is reassigned after x, whose lambda captures it;
// the kernel runs at x, where k is still 2.
//
//soac:fuse CaptureReassigned
func captureReassignedSpec(xs []float64) ([]float64, float64) {
	k := 2.0
	x := soac.Map(xs, func(v float64) float64 { return v * k })
	k = 3
	y := soac.Map(x, ten)
	return y, k
}

// CaptureReassignedRead: y captures the new k, so it cannot move up; x
// moves down reading a copy of k taken where it is written (capture-copy).
//
//soac:fuse CaptureReassignedRead
func captureReassignedReadSpec(xs []float64) []float64 {
	k := 2.0
	x := soac.Map(xs, func(v float64) float64 { return v * k })
	k = 3
	return soac.Map(x, func(v float64) float64 { return v + k })
}

// DeclaredInStatement: the moved-up reduction is part of a statement that
// also assigns another variable, and its operands (a neutral element, a
// named operator) are evaluated where the kernel runs.
//
//soac:fuse DeclaredInStatement
func declaredInStatementSpec(xs []float64, ne float64) (int, float64, []float64) {
	x := soac.Map(xs, inc)
	if len(xs) > 1 {
		xs[1] = -1
	}
	i, s := len(xs), soac.Reduce(x, ne, add)
	return i, s, xs
}

func add(a, b float64) float64 { return a + b }

// AssignedTwice: s is assigned by the moved-up reduction and again after
// it; the reduction's result is assigned where the spec assigns it.
//
//soac:fuse AssignedTwice
func assignedTwiceSpec(xs []float64) (float64, float64) {
	x := soac.Map(xs, inc)
	if len(xs) > 0 {
		xs[0] = 7
	}
	s := soac.Reduce(x, 0, add)
	t := s
	s = s * 2
	return s, t
}

// WriteOfConsumerInput: the write goes to an alias of xs, which both
// maps read: x cannot move down past it, y cannot move up past it.
//
//soac:fuse WriteOfConsumerInput
func writeOfConsumerInputSpec(xs []float64) ([]float64, []float64) {
	x := soac.Map(xs, inc)
	zs := xs
	if len(zs) > 0 {
		zs[0] = 5
	}
	y := soac.Map(xs, ten)
	return x, y
}

// WholeRead: y's lambda reads x whole; x cannot fuse into y, though y
// could move up past the write.
//
//soac:fuse WholeRead
func wholeReadSpec(xs []float64) []float64 {
	x := soac.Map(xs, inc)
	if len(xs) > 0 {
		xs[0] = 100
	}
	return soac.Map(x, func(v float64) float64 { return v + x[len(x)-1] })
}

// CaptureCopyLoop: the captured k changes in a loop between the producer
// and its consumer, which reads the new k; the producer's nested Reduce
// and its closure read the copy too.
//
//soac:fuse CaptureCopyLoop
func captureCopyLoopSpec(xs []float64, rows [][]float64) []float64 {
	k := 1.5
	x := soac.Map(rows, func(r []float64) float64 {
		scale := func(v float64) float64 { return v * k }
		return soac.Reduce(soac.Map(r, scale), k, func(a, b float64) float64 { return a + b })
	})
	for i := range len(xs) % 4 {
		k += float64(i) + 0.25
	}
	return soac.Map(x, func(v float64) float64 { return v - k })
}

// CaptureCopyPanics: the producer divides by the old d, len(xs)%3, which
// is zero for some lengths (the spec's panic then); the consumer adds the
// new d, 0. Fused, the division must still see the old d.
//
//soac:fuse CaptureCopyPanics
func captureCopyPanicsSpec(xs []int) []int {
	d := len(xs) % 3
	x := soac.Map(xs, func(v int) int { return v / d })
	d = 0
	return soac.Map(x, func(v int) int { return v + d })
}

// CaptureCopyStruct: a captured struct is reassigned whole; the copy
// keeps its old fields.
//
//soac:fuse CaptureCopyStruct
func captureCopyStructSpec(xs []float64) (float64, float64) {
	p := pair{a: 2, b: -1}
	x := soac.Map(xs, func(v float64) float64 { return v*p.a + p.b })
	p = pair{a: p.b, b: p.a}
	return soac.Reduce(soac.Map(x, func(v float64) float64 { return v * p.a }), 0, func(a, b float64) float64 { return a + b }), p.b
}

type pair struct{ a, b float64 }

// CaptureCopyParallel: the same with backend=parallel: the chunks read
// the copy.
//
//soac:fuse CaptureCopyParallel backend=parallel
func captureCopyParallelSpec(xs []float64) []float64 {
	k := 2.0
	x := soac.Map(xs, func(v float64) float64 { return v * k })
	k = 3
	return soac.Map(x, func(v float64) float64 { return v + k })
}

// CaptureWritten: the captured slice w is written (not reassigned)
// between the producer and its consumer: a copy of the slice header would
// still see the write, so it stays two kernels (write-between).
//
//soac:fuse CaptureWritten
func captureWrittenSpec(xs []float64) []float64 {
	w := []float64{2, 3}
	x := soac.Map(xs, func(v float64) float64 { return v * w[0] })
	w[0] = 5
	return soac.Map(x, func(v float64) float64 { return v + w[0] })
}

// CaptureReassignedAndWritten: w is reassigned to a slice sharing its
// memory and written through the new one: the copy of the old header
// would see the write; stays two kernels.
//
//soac:fuse CaptureReassignedAndWritten
func captureReassignedAndWrittenSpec(xs []float64) []float64 {
	w := []float64{2, 3}
	x := soac.Map(xs, func(v float64) float64 { return v * w[0] })
	w = w[:1]
	w[0] = 7
	return soac.Map(x, func(v float64) float64 { return v + w[0] })
}
