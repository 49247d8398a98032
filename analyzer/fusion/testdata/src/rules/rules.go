// Package rules exercises the rule table and the remaining refusals from Go
// source.
package rules

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b int) int { return a + b }
func sq(v int) int     { return v * v }

// scanomap: map -> scan -> map, and scan -> reduce: one kernel.
func scanomap(xs []int) ([]int, int) {
	s := soac.Scan(soac.Map(xs, sq), 0, add)
	y := soac.Map(s, func(v int) int { return v - 1 })
	r := soac.Reduce(soac.Scan(xs, 0, add), 0, add)
	return y, r
}

// filters: filter -> filter -> reduce, one kernel.
func filters(xs []int) int {
	pos := soac.Filter(xs, func(v int) bool { return v > 0 })
	even := soac.Filter(pos, func(v int) bool { return v%2 == 0 })
	return soac.Reduce(even, 0, add)
}

// streams: map -> StreamMap -> StreamRed, beside another StreamRed and a
// Reduce over the same array: one kernel.
func streams(xs []int) (int, int, int) {
	m := soac.Map(xs, sq)
	// The chunk functions cannot panic (no indexing): two lambdas that
	// may panic never share a kernel (the panic-order refusal).
	s := soac.StreamMap(m, func(c []int) []int {
		out := make([]int, 0, len(c))
		for _, v := range c {
			out = append(out, v*v)
		}
		return out
	})
	r := soac.StreamRed(s, add, func(c []int) int {
		t := 0
		for _, v := range c {
			t += v
		}
		return t
	})
	r2 := soac.StreamRed(xs, add, func(c []int) int { return len(c) })
	r3 := soac.Reduce(xs, 0, add)
	return r, r2, r3
}

// generators: Iota and Replicate over len(xs) fuse into the Map3.
func generators(xs []int, v int) []int {
	return soac.Map3(xs, soac.Iota(len(xs)), soac.Replicate(len(xs), v), func(x, i, w int) int { return x*i + w })
}

// iotaLoop: Iota is index arithmetic and fuses into the loop's kernel.
func iotaLoop(n int, rounds int) int {
	is := soac.Iota(n)
	t := 0
	for r := 0; r < rounds; r++ {
		t += soac.Reduce(soac.Map(is, func(i int) int { return i * r }), 0, add)
	}
	return t
}

// switchAll: every case of an exhaustive switch consumes x: copied.
func switchAll(xs []int, k int) int {
	x := soac.Map(xs, sq)
	switch k {
	case 0:
		return soac.Reduce(x, 0, add)
	default:
		return len(soac.Filter(x, func(v int) bool { return v > k }))
	}
}

// notEveryPath: with c false, the Map must still run (and panic on a
// zero element): sinking it into the then-branch would skip it.
func notEveryPath(xs []int, c bool) int {
	x := soac.Map(xs, func(v int) int { return 100 / v })
	if c { // want `not-every-path: x .* the if at rules.go:\d+:\d+ has a path that does not consume x`
		return soac.Reduce(x, 0, add)
	}
	return 0
}

// earlyReturn: with len(xs) == 0 and a lambda that panics, the reference
// panics before returning; fused after the return, it would not. The
// consumer may panic too, so it does not move up before the return.
func earlyReturn(xs []int) []int {
	x := soac.Map(xs, func(v int) int { return 100 / v })
	if len(xs) == 0 { // want `control-exit: x .*`
		return nil
	}
	return soac.Map(x, func(v int) int { return 7 / v })
}

// earlyReturnPlaced: the consumer cannot panic: the kernel runs at x,
// before the return (placement), which changes nothing a caller sees.
func earlyReturnPlaced(xs []int) []int {
	x := soac.Map(xs, func(v int) int { return 100 / v })
	if len(xs) == 0 {
		return nil
	}
	return soac.Map(x, sq)
}

// reassigned: xs = ys after x := Map(xs): fused code would map ys.
func reassigned(xs, ys []int) []int {
	x := soac.Map(xs, sq)
	xs = ys // want `input-reassigned: x .*`
	return soac.Map2(x, xs, add)
}

// scanScan: a scan of a scan: the second folds each element of the first
// as it is produced (scanomap composition): one kernel.
func scanScan(xs []int) []int {
	return soac.Scan(soac.Scan(xs, 1, func(a, b int) int { return a * b }), 0, add)
}

// scanOfFilter: a scan of a filter: the scan folds the kept elements as
// they are kept (filter->scanomap): one kernel.
func scanOfFilter(xs []int) []int {
	return soac.Scan(soac.Filter(xs, func(v int) bool { return v > 0 }), 0, add)
}

// mapOut: x is used after its consumer, so it fuses and stays an output.
func mapOut(xs []int) ([]int, int) {
	x := soac.Map(xs, sq)
	s := soac.Reduce(x, 0, add)
	return x, s
}

// lenVar: n := len(xs) is xs's length, so Iota(n) has xs's space and the
// two maps share one kernel.
func lenVar(xs []int) ([]int, []int) {
	n := len(xs)
	a := soac.Map(xs, sq)
	b := soac.Map(soac.Iota(n), sq)
	return a, b
}

// lenVarChanged: n is no longer xs's length when Iota reads it: two
// kernels.
func lenVarChanged(xs []int) ([]int, []int) {
	n := len(xs)
	n++
	a := soac.Map(xs, sq)
	b := soac.Map(soac.Iota(n), sq)
	return a, b
}

// twoIotas: two maps over Iota(n) of one n: the Iotas panic alike (n < 0),
// so their kernels merge.
func twoIotas(n int) ([]int, []int) {
	a := soac.Map(soac.Iota(n), sq)
	b := soac.Map(soac.Iota(n), func(i int) int { return i + 1 })
	return a, b
}

// iotaReplicate: Iota(n) and Replicate(n, 1) panic with different
// messages when n < 0: the first must panic first. They share a kernel:
// the generated code checks each length where its generator is written,
// in program order (panicOrdered).
func iotaReplicate(n int) ([]int, []int) {
	a := soac.Map(soac.Iota(n), sq)
	b := soac.Map(soac.Replicate(n, 1), sq)
	return a, b
}

// mapOutStream: m is returned besides the StreamRed that consumes it:
// the chunk loop computes m's chunks into m itself (map-out into a
// stream, lower's output buffer): one kernel.
func mapOutStream(xs []int) (int, []int) {
	m := soac.Map(xs, sq)
	r := soac.StreamRed(m, add, func(c []int) int { return len(c) })
	return r, m
}

// notEveryPathSafe: Map(xs, sq) cannot panic and has no effect, so
// skipping it when c is false is unobservable: it runs only in the
// then-branch, fused into the Reduce.
func notEveryPathSafe(xs []int, c bool) int {
	x := soac.Map(xs, sq)
	if c {
		return soac.Reduce(x, 0, add)
	}
	return 0
}
