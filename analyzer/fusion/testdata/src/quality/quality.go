// Package quality holds the pipelines real Go code writes that fusion
// once lost, each with a twin that must not fuse: chains inside loops
// whose variables are reassigned every iteration, slices and generators
// as producers, lambdas that write memory they allocate, local closures
// and generic helpers as lambdas, calls between two passes that write
// only their own arguments, producers consumed on some branches or on
// paths a return separates, array-valued reductions, and unread maps.
package quality

import (
	"slices"
	"sort"

	"github.com/soacgen/soacgen/runtime/soac"
)

func add(a, b float64) float64 { return a + b }

func addi(a, b int) int { return a + b }

// --- Loops: a chain in a loop body fuses within the iteration.

// loopSwap: a double buffer; the Map and the Map2 share a pass every
// iteration and write only the next iteration's a.
func loopSwap(a, b []float64, iters int) []float64 {
	for it := 0; it < iters; it++ {
		t := soac.Map(a, func(x float64) float64 { return x + 1 })
		b = soac.Map2(a, t, func(x, y float64) float64 { return x * y })
		a, b = b, a
	}
	return a
}

// loopFilterChain: xs is filtered, mapped and summed in one pass per
// iteration; the mapped xs is written out for the next one.
func loopFilterChain(xs []float64, iters int) float64 {
	s := 0.0
	for it := 0; it < iters; it++ {
		xs = soac.Filter(xs, func(x float64) bool { return x > 0.1 })
		xs = soac.Map(xs, func(x float64) float64 { return x * 0.9 })
		s += soac.Reduce(xs, 0.0, add)
	}
	return s
}

// loopCaptured: the Map captures the previous iteration's s, computed by
// the same kernel: it reads the value s has when the kernel starts.
func loopCaptured(xs []float64, iters int) float64 {
	s := 1.0
	for it := 0; it < iters; it++ {
		xs = soac.Map(xs, func(x float64) float64 { return x / s })
		s = soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0.0, add)
	}
	return s
}

// loopNormalize: the Map reads the sum of the same iteration, so the two
// are two passes, as outside a loop (no edge to refuse: both read xs).
func loopNormalize(xs []float64, iters int) []float64 {
	for it := 0; it < iters; it++ {
		s := soac.Reduce(xs, 0.0, add)
		xs = soac.Map(xs, func(x float64) float64 { return x / s })
	}
	return xs
}

// loopOuterInput: a is computed before the loop and read in it: fusing
// it into the loop's kernel would recompute it every iteration.
func loopOuterInput(xs []float64, iters int) float64 {
	a := soac.Map(xs, func(x float64) float64 { return x * 2 })
	s := 0.0
	for it := 0; it < iters; it++ {
		s += soac.Reduce(a, 0.0, add) // want `loop-boundary: a .*`
	}
	return s
}

// loopAccum: acc starts as a Replicate and the loop assigns it again:
// the Map2 reads the Replicate's value in the first iteration only.
func loopAccum(xs []float64, iters int) []float64 {
	acc := soac.Replicate(len(xs), 0.0)
	for it := 0; it < iters; it++ { // want `loop-boundary: acc .* the loop at quality.go:\d+:\d+ assigns acc again`
		ys := soac.Map(xs, func(x float64) float64 { return x * float64(it) })
		acc = soac.Map2(acc, ys, add)
	}
	return acc
}

// loopWritesAcc: the loop writes acc's memory and never assigns acc:
// the Reduce reads the Map's array as the loop left it.
func loopWritesAcc(xs []float64, iters int) float64 {
	acc := soac.Map(xs, func(x float64) float64 { return x * 2 })
	for it := 0; it < iters && len(acc) > 0; it++ { // want `used-before: acc .*`
		acc[0] += 1
	}
	return soac.Reduce(acc, 0.0, add)
}

// keptOrNew: a is the Map's value or the branch's: the Reduce reads the
// one the path taken leaves, so neither Map fuses into it.
func keptOrNew(xs, ys []float64, c bool) float64 {
	a := soac.Map(xs, func(x float64) float64 { return x + 1 })
	if c {
		a = soac.Map(ys, func(y float64) float64 { return y * 2 })
	}
	return soac.Reduce(a, 0.0, add)
}

// --- Slices and generators as producers.

// sliceZips: a slice of the input and a replicated value feed two Map2s:
// one pass, the replicated array never made.
func sliceZips(arr, ys, zs []float64, n int, v float64) ([]float64, []float64) {
	a := arr[:n]
	x := soac.Replicate(n, v)
	b := soac.Map2(a, x, add)
	c := soac.Map2(a, zs, func(p, q float64) float64 { return p * q })
	return b, soac.Map2(c, ys, add)
}

// sliceOfLen: arr[:len(ys)] is as long as ys: the two Map2s over it
// share one pass without a length check.
func sliceOfLen(arr, ys []float64) ([]float64, []float64) {
	b := soac.Map2(arr[:len(ys)], ys, add)
	c := soac.Map2(arr[:len(ys)], ys, func(p, q float64) float64 { return p * q })
	return b, c
}

// sliceInline: arr[:n] written as the argument of two Map2s: the second
// slicing cannot panic once the first did not (the same slice, the same
// bound), so the first Map2 moves past it and both share one pass.
func sliceInline(arr, ys, zs []float64, n int) ([]float64, []float64) {
	b := soac.Map2(arr[:n], ys, add)
	c := soac.Map2(arr[:n], zs, func(p, q float64) float64 { return p * q })
	return b, c
}

// sliceInlineOther: brr[:n] may panic where arr[:n] did not: the first
// Map2, which may panic itself, stays before it.
func sliceInlineOther(arr, brr, ys, zs []float64, n int) ([]float64, []float64) {
	b := soac.Map2(arr[:n], ys, add)
	c := soac.Map2(brr[:n], zs, func(p, q float64) float64 { return p * q })
	return b, c
}

// sliceOtherLen: arr[:n] and brr[:m] have lengths not known equal: the
// kernel checks them before its loop (an assert), as for parameters.
func sliceOtherLen(arr, brr []float64, n, m int) []float64 {
	a := arr[:n]
	b := brr[:m]
	return soac.Map2(a, b, add)
}

// unusedParam: the Map2's lambda ignores t's elements: t is never made.
func unusedParam(xs, ys []float64) []float64 {
	t := soac.Map(xs, func(x float64) float64 { return x * 2 })
	return soac.Map2(t, ys, func(_ float64, y float64) float64 { return y + 1 })
}

// --- Lambdas writing memory they allocate are pure.

// cloneRow clones its row and writes the copy: pure, so both Maps fuse.
func cloneRow(m [][]int, d int) [][]int {
	a := soac.Map(m, func(row []int) []int {
		r := slices.Clone(row)
		r[d] = 0
		return r
	})
	return soac.Map(a, func(r []int) []int { return soac.Map(r, func(x int) int { return x + 1 }) })
}

// replAccum fills a replicated array of its own: pure.
func replAccum(m [][]float64, w int) []float64 {
	a := soac.Map(m, func(row []float64) []float64 {
		tmp := soac.Replicate(w, 0.0)
		for i := range row {
			tmp[i%w] += row[i]
		}
		return tmp
	})
	return soac.Map(a, func(t []float64) float64 { return soac.Reduce(t, 0.0, add) })
}

// writeRowArg writes its row, which the input shares: impure, so the
// Maps stay apart and in order.
func writeRowArg(m [][]int, d int) [][]int {
	a := soac.Map(m, func(row []int) []int {
		row[d] = 0 // want `impure: a .*` `diag impure: .*`
		return row
	})
	return soac.Map(a, func(r []int) []int { return soac.Map(r, func(x int) int { return x + 1 }) })
}

// cloneRowsShared clones the rows' headers and writes a row they share:
// impure.
func cloneRowsShared(m [][][]int) [][][]int {
	a := soac.Map(m, func(rows [][]int) [][]int {
		c := slices.Clone(rows)
		c[0][0] = 0 // want `impure: a .*` `diag impure: .*`
		return c
	})
	return soac.Map(a, func(r [][]int) [][]int { return r[:1] })
}

// --- Generic helpers and local closures as lambdas.

// freshRow returns a copy it made on every path.
func freshRow[T any](r []T) []T {
	out := make([]T, len(r))
	copy(out, r)
	return out
}

// sameRow returns its argument on one path: not fresh.
func sameRow[T any](r []T, c bool) []T {
	if c {
		return r
	}
	return freshRow(r)
}

// genericFresh writes the copy a generic helper makes: pure.
func genericFresh(m [][]int, d int) []int {
	b := soac.Map(m, func(r []int) []int {
		c := freshRow(r)
		c[d] = 0
		return c
	})
	return soac.Map(b, func(r []int) int { return soac.Reduce(r, 0, addi) })
}

// genericMaybeSame writes what may be its row: impure.
func genericMaybeSame(m [][]int, d int) []int {
	b := soac.Map(m, func(r []int) []int {
		c := sameRow(r, d > 2)
		c[d] = 0 // want `impure: b .*` `diag impure: .*`
		return c
	})
	return soac.Map(b, func(r []int) int { return soac.Reduce(r, 0, addi) })
}

// localClosure: a closure bound once is seen through as its literal.
func localClosure(aT [][]int32) []int32 {
	inc := func(r []int32) []int32 { return soac.Map(r, func(x int32) int32 { return x + 1 }) }
	b := soac.Map(aT, inc)
	return soac.Map(b, func(r []int32) int32 { return soac.Reduce(r, 0, func(p, q int32) int32 { return p + q }) })
}

// --- Calls between two passes that write only their own arguments.

func fill(buf []float64, v float64) {
	for i := range buf {
		buf[i] = v
	}
}

type tally struct {
	n   int
	sum float64
}

func (t *tally) add(v float64) { t.n++; t.sum += v }

// callLocal: fill writes only buf, made here: the Map and the Reduce
// fuse past it.
func callLocal(xs []float64, n int) (float64, []float64) {
	a := soac.Map(xs, func(x float64) float64 { return x + 1 })
	buf := make([]float64, n)
	fill(buf, 2)
	return soac.Reduce(a, 0.0, add), buf
}

// methodLocal: the method writes only its receiver, a local.
func methodLocal(xs []float64) float64 {
	var t tally
	a := soac.Map(xs, func(x float64) float64 { return x + 1 })
	t.add(3)
	return soac.Reduce(a, 0.0, add) + t.sum
}

// sortLocal: sort.Ints writes only ks, made here.
func sortLocal(xs []float64, ks []int) (float64, []int) {
	a := soac.Map(xs, func(x float64) float64 { return x + 1 })
	c := slices.Clone(ks)
	sort.Ints(c)
	return soac.Reduce(a, 0.0, add), c
}

// callPipeline: fill writes xs, which the Map reads and the Map2 reads
// after it: neither moves past it.
func callPipeline(xs []float64) []float64 {
	a := soac.Map(xs, func(x float64) float64 { return x + 1 })
	fill(xs, 2) // want `write-between: a .*`
	return soac.Map2(a, xs, add)
}

// --- Branches.

// oneArm: a is consumed on one path only and cannot panic: it runs in
// the branch, fused into its Reduce.
func oneArm(xs []float64, c bool) float64 {
	a := soac.Map(xs, func(x float64) float64 { return x + 1 })
	s := 0.0
	if c {
		s = soac.Reduce(a, 0.0, add)
	}
	return s
}

// someCases: consumed in two of three cases.
func someCases(xs []float64, k int) float64 {
	a := soac.Map(xs, func(x float64) float64 { return x + 1 })
	switch k {
	case 0:
		return soac.Reduce(a, 0.0, add)
	case 1:
		return soac.Reduce(soac.Map(a, func(x float64) float64 { return x * 2 }), 0.0, add)
	default:
		return 0
	}
}

// oneArmPanics: a may panic (a zero element): it must run on every path.
func oneArmPanics(xs []int, c bool) int {
	a := soac.Map(xs, func(x int) int { return 100 / x })
	s := 0
	if c { // want `not-every-path: a .*`
		s = soac.Reduce(a, 0, addi)
	}
	return s
}

// armAndAfter: a is consumed in the branch and after it, on one path:
// computed twice if fused into both.
func armAndAfter(xs []float64, c bool) float64 {
	a := soac.Map(xs, func(x float64) float64 { return x + 1 })
	s := 0.0
	if c {
		s = soac.Reduce(a, 0.0, add)
	}
	return s + soac.Reduce(a, 0.0, func(p, q float64) float64 { return max(p, q) }) // want `consumed-twice: a .*`
}

// --- Array-valued reductions.

func vadd(a, b []float64) []float64 { return soac.Map2(a, b, add) }

// colSums: rows scaled, then summed column-wise with a replicated
// neutral element: one pass over the rows.
func colSums(m [][]float64, w int, k float64) []float64 {
	s := soac.Map(m, func(r []float64) []float64 { return soac.Map(r, func(x float64) float64 { return x * k }) })
	return soac.Reduce(s, soac.Replicate(w, 0.0), vadd)
}

// hist: the rows' lambda may panic (x%k, an index) and so may the
// neutral element (a negative k): the spec raises the Map's panic first,
// so the Map does not move past the Replicate.
func hist(xs []int, k int) []int {
	rows := soac.Map(xs, func(x int) []int {
		r := make([]int, k)
		r[x%k] = 1
		return r
	})
	return soac.Reduce(rows, soac.Replicate(k, 0), func(a, b []int) []int { return soac.Map2(a, b, addi) }) // want `panic-order: rows .*`
}

// --- Unused parameters: the engine fuses these as unusedParam; the
// lowering (rewrite/lower's unread maps) leaves out of the loop a map
// whose elements nothing reads, unless it may panic.

// unusedChain: the Map2 ignores u's elements and only u reads t's.
func unusedChain(xs, ys []int) []int {
	t := soac.Map(xs, func(x int) int { return x * 2 })
	u := soac.Map(t, func(x int) int { return x - 1 })
	return soac.Map2(u, ys, func(p, y int) int { return y + 1 })
}

// unusedParamPanics: the Map2 ignores t's elements too, but t's lambda
// panics on a zero element: the kernel still computes t for its panic.
func unusedParamPanics(xs, ys []int) []int {
	t := soac.Map(xs, func(x int) int { return 100 / x })
	return soac.Map2(t, ys, func(_ int, y int) int { return y + 1 })
}

// unusedAfterPanics: the Map2 ignores u's elements, but t, which u reads,
// may panic: the lowering leaves out u only.
func unusedAfterPanics(xs, ys []int) []int {
	t := soac.Map(xs, func(x int) int { return 100 / x })
	u := soac.Map(t, func(x int) int { return x + 1 })
	return soac.Map2(u, ys, func(_, y int) int { return y * 3 })
}

// unusedCaptures: t's lambda reads s, which nothing else reads: the
// lowering keeps t.
func unusedCaptures(xs, ys []int) []int {
	s := soac.Reduce(ys, 0, addi)
	t := soac.Map(xs, func(x int) int { return x * s })
	return soac.Map2(t, ys, func(_, y int) int { return y - 1 })
}

// --- Paths a return separates: a branch that consumes a producer and
// returns, and the statements after its if or switch, each compute it.

// returnArm: m is consumed in the branch, which returns, and after the
// if: each path's kernel computes it once.
func returnArm(xs []float64, c bool) float64 {
	m := soac.Map(xs, func(x float64) float64 { return x + 1 })
	if c {
		return soac.Reduce(m, 0.0, add)
	}
	return soac.Reduce(soac.Map(m, func(x float64) float64 { return x * 2 }), 0.0, add)
}

// returnArmPanics: m may panic, and every path still computes it first.
func returnArmPanics(xs []int, k int) int {
	m := soac.Map(xs, func(x int) int { return 100 / x })
	switch k {
	case 0:
		return soac.Reduce(m, 0, addi)
	case 1:
		return soac.Reduce(m, 0, func(a, b int) int { return max(a, b) })
	}
	return soac.Reduce(soac.Map(m, func(x int) int { return x * 2 }), 0, addi)
}

// armNoReturn: the branch consumes m and falls through to the second
// consumer: fused into both, m would be computed twice on that path.
func armNoReturn(xs []float64, c bool) float64 {
	m := soac.Map(xs, func(x float64) float64 { return x + 1 })
	s := 0.0
	if c {
		s = soac.Reduce(m, 0.0, add)
	}
	return s + soac.Reduce(soac.Map(m, func(x float64) float64 { return x * 2 }), 0.0, add) // want `consumed-twice: m .*`
}

// returnSkipsPanics: case 1 returns without consuming m, which may panic:
// it must run on that path too.
func returnSkipsPanics(xs []int, k int) int {
	m := soac.Map(xs, func(x int) int { return 100 / x })
	switch k {
	case 0:
		return soac.Reduce(m, 0, addi)
	case 1:
		return 0 // want `not-every-path: m .*`
	}
	return soac.Reduce(soac.Map(m, func(x int) int { return x * 2 }), 0, addi)
}

// returnArmBeside: a reads xs as m does and the branch returns it, so a
// stays before the if; the kernel after the if, which computes m again,
// stays after it: joined with a before the if, it would compute m on the
// path that returns too, beside that path's own kernel.
func returnArmBeside(xs []float64, c bool) ([]float64, float64) {
	a := soac.Map(xs, func(x float64) float64 { return x * 3 })
	m := soac.Map(xs, func(x float64) float64 { return x + 1 })
	if c {
		return a, soac.Reduce(m, 0.0, add)
	}
	return a, soac.Reduce(soac.Map(m, func(x float64) float64 { return x * 2 }), 0.0, add)
}

// returnArmFed: m is copied into each path's kernel, and a, which m
// reads, is also returned: fused into one copy, a would be computed on
// that path only, and the others read it.
func returnArmFed(xs []float64, k int) (float64, []float64) {
	a := soac.Map(xs, func(x float64) float64 { return x * 3 })
	m := soac.Map(a, func(x float64) float64 { return x + 1 }) // want `not-every-path: a .*`
	switch k {
	case 0:
		return soac.Reduce(soac.Map(m, func(x float64) float64 { return x / 2 }), 0.0, add), nil
	case 1:
		return soac.Reduce(m, 0.0, add), nil
	}
	return soac.Reduce(m, 0.0, add), a
}

// branchesFed: m is copied into both branches, and a, which m reads,
// stays alone: fused into the first copy, the second would read an
// array never made.
func branchesFed(xs []float64, c bool) float64 {
	a := soac.Map(xs, func(x float64) float64 { return x * 3 })
	m := soac.Map(a, func(x float64) float64 { return x + 1 }) // want `not-every-path: a .*`
	var r float64
	if c {
		r = soac.Reduce(soac.Map(m, func(x float64) float64 { return x / 2 }), 0.0, add)
	} else {
		r = soac.Reduce(m, 0.0, add)
	}
	return r
}

// --- A local closure called inside a lambda, seen through as a literal.

// closureCalled: inc, bound once and never reassigned, is seen through
// where the lambda calls it: its Map fuses into the Reduce of its result.
func closureCalled(aT [][]int32, k int32) []int32 {
	inc := func(r []int32) []int32 { return soac.Map(r, func(x int32) int32 { return x + k }) }
	return soac.Map(aT, func(row []int32) int32 { return soac.Reduce(inc(row), 0, func(p, q int32) int32 { return p + q }) })
}

// closureReassigned: inc is one of two literals where the lambda calls
// it: not seen through, its result is a call's.
func closureReassigned(aT [][]int32, c bool) []int32 {
	inc := func(r []int32) []int32 { return soac.Map(r, func(x int32) int32 { return x + 1 }) }
	if c {
		inc = func(r []int32) []int32 { return soac.Map(r, func(x int32) int32 { return x - 1 }) }
	}
	return soac.Map(aT, func(row []int32) int32 { return soac.Reduce(inc(row), 0, func(p, q int32) int32 { return p + q }) })
}

// closureShadowed: k means another variable where the lambda calls inc:
// not seen through.
func closureShadowed(aT [][]int32, k int32) []int32 {
	inc := func(r []int32) []int32 { return soac.Map(r, func(x int32) int32 { return x + k }) }
	return soac.Map(aT, func(row []int32) int32 {
		k := int32(len(row))
		return soac.Reduce(inc(row), k, func(p, q int32) int32 { return p + q })
	})
}
