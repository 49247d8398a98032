// Package quality holds the pipelines real Go code writes that fusion
// once lost (the engine's corpus analyzer/fusion/testdata/src/quality),
// each with a twin that must not fuse, on every backend: chains in loops
// whose variables are reassigned every iteration, slices and generators
// as producers, lambdas that write memory they allocate, generic helpers
// and local closures as lambdas, calls between two passes that write only
// their own arguments, producers consumed on some branches or on paths a
// return separates, array-valued reductions, and maps no lambda reads.
// Integers, so that every backend's reductions give the spec's bits; the
// Args hooks make the zeros, short rows and negative widths it panics on.
package quality

import (
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/soacgen/soacgen/runtime/soac"
)

func addi(a, b int) int { return a + b }

// iters returns 0 to 4 iterations, the argument of every loop spec.
func iters(r *rand.Rand) int { return r.IntN(5) }

func ints(r *rand.Rand, n int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.IntN(201) - 100
	}
	return xs
}

// rows returns n rows of w elements, one row in about a hundred a
// different length (a Map2 of two rows then panics, as the spec does).
func rows(r *rand.Rand, n, w int) [][]int {
	m := make([][]int, n)
	for i := range m {
		l := w
		if r.IntN(100) == 0 {
			l = max(0, w+r.IntN(3)-1)
		}
		m[i] = ints(r, l)
	}
	return m
}

// freshRow returns a copy it made on every path.
func freshRow[T any](r []T) []T {
	out := make([]T, len(r))
	copy(out, r)
	return out
}

// sameRow returns its argument on one path.
func sameRow[T any](r []T, c bool) []T {
	if c {
		return r
	}
	return freshRow(r)
}

func fill(buf []int, v int) {
	for i := range buf {
		buf[i] = v
	}
}

type tally struct{ n, sum int }

func (t *tally) add(v int) { t.n++; t.sum += v }

func vadd(a, b []int) []int { return soac.Map2(a, b, addi) }

// loopSwap: a double buffer; the Map and the Map2 share one pass an
// iteration.
//
//soac:fuse LoopSwap
//soac:fuse LoopSwapPar backend=parallel
//soac:fuse LoopSwapCL backend=opencl
func loopSwapSpec(a, b []int, n int) []int {
	for it := 0; it < n; it++ {
		t := soac.Map(a, func(x int) int { return x + 1 })
		b = soac.Map2(a, t, func(x, y int) int { return x*3 - y })
		a, b = b, a
	}
	return a
}

func loopSwapSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), ints(r, n), iters(r)} }

// loopFilterChain filters, maps and sums in one pass an iteration.
//
//soac:fuse LoopFilterChain
//soac:fuse LoopFilterChainPar backend=parallel
//soac:fuse LoopFilterChainCL backend=opencl
func loopFilterChainSpec(xs []int, n int) int {
	s := 0
	for it := 0; it < n; it++ {
		xs = soac.Filter(xs, func(x int) bool { return x > -50 })
		xs = soac.Map(xs, func(x int) int { return x - 3 })
		s += soac.Reduce(xs, 0, addi)
	}
	return s
}

func loopFilterChainSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), iters(r)} }

// loopCaptured: the Map reads the sum of the previous iteration, which
// the same kernel computes.
//
//soac:fuse LoopCaptured
//soac:fuse LoopCapturedPar backend=parallel
//soac:fuse LoopCapturedCL backend=opencl
func loopCapturedSpec(xs []int, n int) int {
	s := 1
	for it := 0; it < n; it++ {
		xs = soac.Map(xs, func(x int) int { return x%1000 + s%7 })
		s = soac.Reduce(soac.Map(xs, func(x int) int { return x * 2 }), 0, addi)
	}
	return s
}

func loopCapturedSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), iters(r)} }

// loopNormalize: the Map reads the same iteration's sum: two passes.
//
//soac:fuse LoopNormalize
//soac:fuse LoopNormalizePar backend=parallel
//soac:fuse LoopNormalizeCL backend=opencl
func loopNormalizeSpec(xs []int, n int) []int {
	for it := 0; it < n; it++ {
		s := soac.Reduce(xs, 0, addi)
		xs = soac.Map(xs, func(x int) int { return x - s%5 })
	}
	return xs
}

func loopNormalizeSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), iters(r)} }

// loopBothArms: ys is consumed in both arms of an if in the loop.
//
//soac:fuse LoopBothArms
//soac:fuse LoopBothArmsPar backend=parallel
//soac:fuse LoopBothArmsCL backend=opencl
func loopBothArmsSpec(xs []int, n int) int {
	s := 0
	for it := 0; it < n; it++ {
		ys := soac.Map(xs, func(x int) int { return x + it })
		if it%2 == 0 {
			s += soac.Reduce(ys, 0, addi)
		} else {
			s -= soac.Reduce(ys, 0, func(a, b int) int { return max(a, b) })
		}
	}
	return s
}

func loopBothArmsSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), iters(r)} }

// sliceZips: a slice of the input and a replicated value feed two
// Map2s: one pass, the replicated array never made.
//
//soac:fuse SliceZips
//soac:fuse SliceZipsPar backend=parallel
//soac:fuse SliceZipsCL backend=opencl
func sliceZipsSpec(arr, ys, zs []int, n, v int) ([]int, []int) {
	a := arr[:n]
	x := soac.Replicate(n, v)
	b := soac.Map2(a, x, addi)
	c := soac.Map2(a, zs, func(p, q int) int { return p * q })
	return b, soac.Map2(c, ys, addi)
}

func sliceZipsSpecArgs(r *rand.Rand, n int) []any {
	return []any{ints(r, n+r.IntN(2)), ints(r, n+r.IntN(2)), ints(r, n+r.IntN(2)), max(0, n-r.IntN(2)), r.IntN(9)}
}

// sliceOfLen: arr[:len(ys)] is as long as ys.
//
//soac:fuse SliceOfLen
//soac:fuse SliceOfLenPar backend=parallel
//soac:fuse SliceOfLenCL backend=opencl
func sliceOfLenSpec(arr, ys []int) ([]int, []int) {
	b := soac.Map2(arr[:len(ys)], ys, addi)
	c := soac.Map2(arr[:len(ys)], ys, func(p, q int) int { return p * q })
	return b, c
}

func sliceOfLenSpecArgs(r *rand.Rand, n int) []any {
	return []any{ints(r, max(0, n+r.IntN(3)-1)), ints(r, n)}
}

// sliceInline: arr[:n] as the argument of two Map2s: the second slicing
// cannot panic once the first did not.
//
//soac:fuse SliceInline
//soac:fuse SliceInlinePar backend=parallel
//soac:fuse SliceInlineCL backend=opencl
func sliceInlineSpec(arr, ys, zs []int, n int) ([]int, []int) {
	b := soac.Map2(arr[:n], ys, addi)
	c := soac.Map2(arr[:n], zs, func(p, q int) int { return p * q })
	return b, c
}

func sliceInlineSpecArgs(r *rand.Rand, n int) []any {
	return []any{ints(r, n), ints(r, n+r.IntN(2)), ints(r, n+r.IntN(2)), n + r.IntN(2) - min(n, 1)*r.IntN(2)}
}

// sliceInlineOther: brr[:n] may panic where arr[:n] did not, after the
// first Map2's own panic.
//
//soac:fuse SliceInlineOther
//soac:fuse SliceInlineOtherPar backend=parallel
//soac:fuse SliceInlineOtherCL backend=opencl
func sliceInlineOtherSpec(arr, brr, ys, zs []int, n int) ([]int, []int) {
	b := soac.Map2(arr[:n], ys, addi)
	c := soac.Map2(brr[:n], zs, func(p, q int) int { return p * q })
	return b, c
}

func sliceInlineOtherSpecArgs(r *rand.Rand, n int) []any {
	return []any{ints(r, n), ints(r, max(0, n-r.IntN(2))), ints(r, n+r.IntN(2)), ints(r, n), n}
}

// sliceOtherLen: lengths not known equal: the kernel checks them.
//
//soac:fuse SliceOtherLen
//soac:fuse SliceOtherLenPar backend=parallel
//soac:fuse SliceOtherLenCL backend=opencl
func sliceOtherLenSpec(arr, brr []int, n, m int) []int {
	a := arr[:n]
	b := brr[:m]
	return soac.Map2(a, b, addi)
}

func sliceOtherLenSpecArgs(r *rand.Rand, n int) []any {
	return []any{ints(r, n+1), ints(r, n+1), n - r.IntN(min(n, 1)+1), n - r.IntN(min(n, 1)+1)}
}

// unusedParam: the Map2's lambda ignores t's elements.
//
//soac:fuse UnusedParam
//soac:fuse UnusedParamPar backend=parallel
//soac:fuse UnusedParamCL backend=opencl
func unusedParamSpec(xs, ys []int) []int {
	t := soac.Map(xs, func(x int) int { return x * 2 })
	return soac.Map2(t, ys, func(_ int, y int) int { return y + 1 })
}

// cloneRow clones its row and writes the copy: pure.
//
//soac:fuse CloneRow
//soac:fuse CloneRowPar backend=parallel
//soac:fuse CloneRowCL backend=opencl
func cloneRowSpec(m [][]int, d int) [][]int {
	a := soac.Map(m, func(row []int) []int {
		r := slices.Clone(row)
		r[d] = 0
		return r
	})
	return soac.Map(a, func(r []int) []int { return soac.Map(r, func(x int) int { return x + 1 }) })
}

func cloneRowSpecArgs(r *rand.Rand, n int) []any { return []any{rows(r, n, 3), r.IntN(4)} }

// replAccum fills a replicated array of its own: pure.
//
//soac:fuse ReplAccum
//soac:fuse ReplAccumPar backend=parallel
//soac:fuse ReplAccumCL backend=opencl
func replAccumSpec(m [][]int, w int) []int {
	a := soac.Map(m, func(row []int) []int {
		tmp := soac.Replicate(w, 0)
		for i := range row {
			tmp[i%w] += row[i]
		}
		return tmp
	})
	return soac.Map(a, func(t []int) int { return soac.Reduce(t, 0, addi) })
}

func replAccumSpecArgs(r *rand.Rand, n int) []any { return []any{rows(r, n, 5), r.IntN(6) - 1} }

// writeRowArg writes its input's row: impure, the Maps stay apart.
//
//soac:fuse WriteRowArg
//soac:fuse WriteRowArgPar backend=parallel
//soac:fuse WriteRowArgCL backend=opencl
func writeRowArgSpec(m [][]int, d int) [][]int {
	a := soac.Map(m, func(row []int) []int {
		row[d] = 0
		return row
	})
	return soac.Map(a, func(r []int) []int { return soac.Map(r, func(x int) int { return x + 1 }) })
}

func writeRowArgSpecArgs(r *rand.Rand, n int) []any { return []any{rows(r, n, 3), r.IntN(4)} }

// genericFresh writes the copy a generic helper makes: pure.
//
//soac:fuse GenericFresh
//soac:fuse GenericFreshPar backend=parallel
//soac:fuse GenericFreshCL backend=opencl
func genericFreshSpec(m [][]int, d int) []int {
	b := soac.Map(m, func(r []int) []int {
		c := freshRow(r)
		c[d] = 0
		return c
	})
	return soac.Map(b, func(r []int) int { return soac.Reduce(r, 0, addi) })
}

func genericFreshSpecArgs(r *rand.Rand, n int) []any { return []any{rows(r, n, 3), r.IntN(4)} }

// genericMaybeSame writes what may be its input's row: impure.
//
//soac:fuse GenericMaybeSame
//soac:fuse GenericMaybeSamePar backend=parallel
//soac:fuse GenericMaybeSameCL backend=opencl
func genericMaybeSameSpec(m [][]int, d int) []int {
	b := soac.Map(m, func(r []int) []int {
		c := sameRow(r, d > 1)
		c[d] = 0
		return c
	})
	return soac.Map(b, func(r []int) int { return soac.Reduce(r, 0, addi) })
}

func genericMaybeSameSpecArgs(r *rand.Rand, n int) []any { return []any{rows(r, n, 3), r.IntN(4)} }

// localClosure: a closure bound once is a lambda as its literal is.
//
//soac:fuse LocalClosure
//soac:fuse LocalClosurePar backend=parallel
//soac:fuse LocalClosureCL backend=opencl
func localClosureSpec(aT [][]int32) []int32 {
	inc := func(r []int32) []int32 { return soac.Map(r, func(x int32) int32 { return x + 1 }) }
	b := soac.Map(aT, inc)
	return soac.Map(b, func(r []int32) int32 { return soac.Reduce(r, 0, func(p, q int32) int32 { return p + q }) })
}

// callLocal: fill writes only buf, made here.
//
//soac:fuse CallLocal
//soac:fuse CallLocalPar backend=parallel
//soac:fuse CallLocalCL backend=opencl
func callLocalSpec(xs []int, n int) (int, []int) {
	a := soac.Map(xs, func(x int) int { return x + 1 })
	buf := make([]int, n)
	fill(buf, 2)
	return soac.Reduce(a, 0, addi), buf
}

func callLocalSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), r.IntN(5)} }

// methodLocal: the method writes only its receiver, a local.
//
//soac:fuse MethodLocal
//soac:fuse MethodLocalPar backend=parallel
//soac:fuse MethodLocalCL backend=opencl
func methodLocalSpec(xs []int) int {
	var t tally
	a := soac.Map(xs, func(x int) int { return x + 1 })
	t.add(3)
	return soac.Reduce(a, 0, addi) + t.sum
}

// sortLocal: sort.Ints writes only c, a copy made here.
//
//soac:fuse SortLocal
//soac:fuse SortLocalPar backend=parallel
//soac:fuse SortLocalCL backend=opencl
func sortLocalSpec(xs, ks []int) (int, []int) {
	a := soac.Map(xs, func(x int) int { return x + 1 })
	c := slices.Clone(ks)
	sort.Ints(c)
	return soac.Reduce(a, 0, addi), c
}

// sortPlaced: the sort writes xs after the Map read it; the consumer
// reads only the Map's result, so the kernel runs before the sort.
//
//soac:fuse SortPlaced
//soac:fuse SortPlacedPar backend=parallel
//soac:fuse SortPlacedCL backend=opencl
func sortPlacedSpec(xs []int) []int {
	x := soac.Map(xs, func(v int) int { return v*2 + 1 })
	slices.Sort(xs)
	return soac.Map(x, func(v int) int { return v * v })
}

// callPipeline: fill writes xs, which both passes read.
//
//soac:fuse CallPipeline
//soac:fuse CallPipelinePar backend=parallel
//soac:fuse CallPipelineCL backend=opencl
func callPipelineSpec(xs []int) []int {
	a := soac.Map(xs, func(x int) int { return x + 1 })
	fill(xs, 2)
	return soac.Map2(a, xs, addi)
}

// oneArm: a, consumed on one path only and unable to panic, runs in
// the branch.
//
//soac:fuse OneArm
//soac:fuse OneArmPar backend=parallel
//soac:fuse OneArmCL backend=opencl
func oneArmSpec(xs []int, c bool) int {
	a := soac.Map(xs, func(x int) int { return x + 1 })
	s := 0
	if c {
		s = soac.Reduce(a, 0, addi)
	}
	return s
}

func oneArmSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), r.IntN(2) == 0} }

// someCases: consumed in two of three cases.
//
//soac:fuse SomeCases
//soac:fuse SomeCasesPar backend=parallel
//soac:fuse SomeCasesCL backend=opencl
func someCasesSpec(xs []int, k int) int {
	a := soac.Map(xs, func(x int) int { return x + 1 })
	switch k {
	case 0:
		return soac.Reduce(a, 0, addi)
	case 1:
		return soac.Reduce(soac.Map(a, func(x int) int { return x * 2 }), 0, addi)
	default:
		return 0
	}
}

func someCasesSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), r.IntN(3)} }

// oneArmPanics: a panics on a zero element: it runs on every path.
//
//soac:fuse OneArmPanics
//soac:fuse OneArmPanicsPar backend=parallel
//soac:fuse OneArmPanicsCL backend=opencl
func oneArmPanicsSpec(xs []int, c bool) int {
	a := soac.Map(xs, func(x int) int { return 100 / x })
	s := 0
	if c {
		s = soac.Reduce(a, 0, addi)
	}
	return s
}

func oneArmPanicsSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), r.IntN(2) == 0} }

// armAndAfter: consumed in the branch and after it.
//
//soac:fuse ArmAndAfter
//soac:fuse ArmAndAfterPar backend=parallel
//soac:fuse ArmAndAfterCL backend=opencl
func armAndAfterSpec(xs []int, c bool) int {
	a := soac.Map(xs, func(x int) int { return x + 1 })
	s := 0
	if c {
		s = soac.Reduce(a, 0, addi)
	}
	return s + soac.Reduce(a, 0, func(p, q int) int { return max(p, q) })
}

func armAndAfterSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), r.IntN(2) == 0} }

// colSums: rows scaled, then summed column-wise from a replicated
// neutral element: one pass over the rows.
//
//soac:fuse ColSums
//soac:fuse ColSumsPar backend=parallel
//soac:fuse ColSumsCL backend=opencl
func colSumsSpec(m [][]int, w, k int) []int {
	s := soac.Map(m, func(r []int) []int { return soac.Map(r, func(x int) int { return x * k }) })
	return soac.Reduce(s, soac.Replicate(w, 0), vadd)
}

func colSumsSpecArgs(r *rand.Rand, n int) []any {
	return []any{rows(r, n, 4), []int{4, 4, 4, 3, -1}[r.IntN(5)], r.IntN(5) - 2}
}

// hist: the rows' lambda may panic and so may the neutral element: the
// spec raises the Map's panic first.
//
//soac:fuse Hist
//soac:fuse HistPar backend=parallel
//soac:fuse HistCL backend=opencl
func histSpec(xs []int, k int) []int {
	rows := soac.Map(xs, func(x int) []int {
		r := make([]int, max(k, 0))
		r[x%k] = 1
		return r
	})
	return soac.Reduce(rows, soac.Replicate(k, 0), vadd)
}

func histSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), r.IntN(6) - 2} }

// unusedChain: the Map2 ignores u's elements and only u reads t's: the
// loop computes neither.
//
//soac:fuse UnusedChain
//soac:fuse UnusedChainPar backend=parallel
//soac:fuse UnusedChainCL backend=opencl
func unusedChainSpec(xs, ys []int) []int {
	t := soac.Map(xs, func(x int) int { return x * 2 })
	u := soac.Map(t, func(x int) int { return x - 1 })
	return soac.Map2(u, ys, func(p, y int) int { return y + 1 })
}

// zeroSome returns n elements, none zero, then one of them zero about
// half the time.
func zeroSome(r *rand.Rand, n int) []int {
	xs := ints(r, n)
	for i := range xs {
		if xs[i] == 0 {
			xs[i] = 1
		}
	}
	if n > 0 && r.IntN(2) == 0 {
		xs[r.IntN(n)] = 0
	}
	return xs
}

// unusedParamPanics: the Map2 ignores t's elements, but t's lambda
// panics on a zero element: the loop still computes t, for its panic.
//
//soac:fuse UnusedParamPanics
//soac:fuse UnusedParamPanicsPar backend=parallel
//soac:fuse UnusedParamPanicsCL backend=opencl
func unusedParamPanicsSpec(xs, ys []int) []int {
	t := soac.Map(xs, func(x int) int { return 100 / x })
	return soac.Map2(t, ys, func(_ int, y int) int { return y + 1 })
}

func unusedParamPanicsSpecArgs(r *rand.Rand, n int) []any { return []any{zeroSome(r, n), ints(r, n)} }

// unusedAfterPanics: the Map2 ignores u's elements, but t, which u reads,
// panics on a zero element: the loop computes t and leaves out u.
//
//soac:fuse UnusedAfterPanics
//soac:fuse UnusedAfterPanicsPar backend=parallel
//soac:fuse UnusedAfterPanicsCL backend=opencl
func unusedAfterPanicsSpec(xs, ys []int) []int {
	t := soac.Map(xs, func(x int) int { return 100 / x })
	u := soac.Map(t, func(x int) int { return x + 1 })
	return soac.Map2(u, ys, func(_, y int) int { return y * 3 })
}

func unusedAfterPanicsSpecArgs(r *rand.Rand, n int) []any { return []any{zeroSome(r, n), ints(r, n)} }

// unusedCaptures: the Map2 ignores t's elements, but t's lambda reads s,
// which nothing else reads: t stays in the loop (without it, s would be
// declared and not used).
//
//soac:fuse UnusedCaptures
//soac:fuse UnusedCapturesPar backend=parallel
//soac:fuse UnusedCapturesCL backend=opencl
func unusedCapturesSpec(xs, ys []int) []int {
	s := soac.Reduce(ys, 0, addi)
	t := soac.Map(xs, func(x int) int { return x * s })
	return soac.Map2(t, ys, func(_, y int) int { return y - 1 })
}

// returnArm: m is consumed in the branch, which returns, and after the
// if: each path's kernel computes it once.
//
//soac:fuse ReturnArm
//soac:fuse ReturnArmPar backend=parallel
//soac:fuse ReturnArmCL backend=opencl
func returnArmSpec(xs []int, c bool) int {
	m := soac.Map(xs, func(x int) int { return x + 1 })
	if c {
		return soac.Reduce(m, 0, addi)
	}
	return soac.Reduce(soac.Map(m, func(x int) int { return x * 2 }), 0, addi)
}

func returnArmSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), r.IntN(2) == 0} }

// returnArmPanics: m panics on a zero element; every path computes it
// before anything else.
//
//soac:fuse ReturnArmPanics
//soac:fuse ReturnArmPanicsPar backend=parallel
//soac:fuse ReturnArmPanicsCL backend=opencl
func returnArmPanicsSpec(xs []int, k int) int {
	m := soac.Map(xs, func(x int) int { return 100 / x })
	switch k {
	case 0:
		return soac.Reduce(m, 0, addi)
	case 1:
		return soac.Reduce(m, 0, func(a, b int) int { return max(a, b) })
	}
	return soac.Reduce(soac.Map(m, func(x int) int { return x * 2 }), 0, addi)
}

func returnArmPanicsSpecArgs(r *rand.Rand, n int) []any { return []any{zeroSome(r, n), r.IntN(3)} }

// armNoReturn: the branch consumes m and falls through to the second
// consumer: m is computed once, apart.
//
//soac:fuse ArmNoReturn
//soac:fuse ArmNoReturnPar backend=parallel
//soac:fuse ArmNoReturnCL backend=opencl
func armNoReturnSpec(xs []int, c bool) int {
	m := soac.Map(xs, func(x int) int { return x + 1 })
	s := 0
	if c {
		s = soac.Reduce(m, 0, addi)
	}
	return s + soac.Reduce(soac.Map(m, func(x int) int { return x * 2 }), 0, addi)
}

func armNoReturnSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), r.IntN(2) == 0} }

// returnSkipsPanics: case 1 returns without consuming m, which panics
// on a zero element: m runs on that path too.
//
//soac:fuse ReturnSkipsPanics
//soac:fuse ReturnSkipsPanicsPar backend=parallel
//soac:fuse ReturnSkipsPanicsCL backend=opencl
func returnSkipsPanicsSpec(xs []int, k int) int {
	m := soac.Map(xs, func(x int) int { return 100 / x })
	switch k {
	case 0:
		return soac.Reduce(m, 0, addi)
	case 1:
		return 0
	}
	return soac.Reduce(soac.Map(m, func(x int) int { return x * 2 }), 0, addi)
}

func returnSkipsPanicsSpecArgs(r *rand.Rand, n int) []any { return []any{zeroSome(r, n), r.IntN(3)} }

// closureCalled: inc, bound once and never reassigned, is seen through
// where the lambda calls it: its Map fuses into the Reduce of its result.
//
//soac:fuse ClosureCalled
//soac:fuse ClosureCalledPar backend=parallel
//soac:fuse ClosureCalledCL backend=opencl
func closureCalledSpec(m [][]int, k int) []int {
	inc := func(r []int) []int { return soac.Map(r, func(x int) int { return x*3 + k }) }
	return soac.Map(m, func(row []int) int { return soac.Reduce(inc(row), 0, addi) })
}

func closureCalledSpecArgs(r *rand.Rand, n int) []any { return []any{rows(r, n, 4), r.IntN(9) - 4} }

// closureReassigned: inc is one of two literals where the lambda calls
// it: not seen through.
//
//soac:fuse ClosureReassigned
//soac:fuse ClosureReassignedPar backend=parallel
//soac:fuse ClosureReassignedCL backend=opencl
func closureReassignedSpec(m [][]int, c bool) []int {
	inc := func(r []int) []int { return soac.Map(r, func(x int) int { return x + 1 }) }
	if c {
		inc = func(r []int) []int { return soac.Map(r, func(x int) int { return x - 1 }) }
	}
	return soac.Map(m, func(row []int) int { return soac.Reduce(inc(row), 0, addi) })
}

func closureReassignedSpecArgs(r *rand.Rand, n int) []any {
	return []any{rows(r, n, 4), r.IntN(2) == 0}
}

// closureShadowed: k means another variable where the lambda calls inc:
// not seen through.
//
//soac:fuse ClosureShadowed
//soac:fuse ClosureShadowedPar backend=parallel
//soac:fuse ClosureShadowedCL backend=opencl
func closureShadowedSpec(m [][]int, k int) []int {
	inc := func(r []int) []int { return soac.Map(r, func(x int) int { return x + k }) }
	return soac.Map(m, func(row []int) int {
		k := len(row)
		return soac.Reduce(inc(row), k, addi)
	})
}

func closureShadowedSpecArgs(r *rand.Rand, n int) []any { return []any{rows(r, n, 4), r.IntN(9) - 4} }
