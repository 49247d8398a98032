// Package issue holds refusal tests: each is a program where a
// wrong fusion gives a wrong value (said in the comment), and the positive
// variants that must fuse.
package issue

import (
	"math"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/soacgen/soacgen/runtime/soac"
)

func inc(v float64) float64 { return v + 1 }
func ten(v float64) float64 { return v * 10 }

// (1) writes between producer and consumer.

// byIndex: xs = [1 2] gives y = [20 30]; fused, y[0] is computed from the
// written xs[0] = 100 and is 1010.
func byIndex(xs []float64) []float64 {
	x := soac.Map(xs, inc)
	xs[0] = 100 // want `write-between: x .* xs, read by Map@issue.go:\d+:\d+, may be written through xs at issue.go:\d+:\d+`
	y := soac.Map2(x, xs, func(a, b float64) float64 { return a + b })
	return y
}

// byCopy: copy(xs, other) overwrites xs: fused, y would be computed from
// other's values.
func byCopy(xs, other []float64) []float64 {
	x := soac.Map(xs, inc)
	copy(xs, other) // want `write-between: x .* xs, .* may be written through xs at issue.go:\d+:\d+`
	y := soac.Map2(x, xs, func(a, b float64) float64 { return a + b })
	return y
}

// byAppend: ys shares xs's capacity, so append(ys, 9) writes xs[2]: with
// xs = [1 2 3], y[2] must be 40; fused it is 100.
func byAppend(xs []float64) ([]float64, []float64) {
	ys := xs[:2]
	x := soac.Map(xs, inc)
	ys = append(ys, 9) // want `write-between: x .* xs, .* may be written through ys at issue.go:\d+:\d+`
	y := soac.Map2(x, xs, func(a, b float64) float64 { return a + b })
	return y, ys
}

// byCall: sort.Float64s(xs) reorders xs and the Map2 reads it after: with
// xs = [2 1], y must be [31 22]; fused after the sort it is [21 32].
func byCall(xs []float64) []float64 {
	x := soac.Map(xs, inc)
	sort.Float64s(xs) // want `write-between: x .* xs, .* at issue.go:\d+:\d+`
	y := soac.Map2(x, xs, func(a, b float64) float64 { return ten(a) + b })
	return y
}

// (2) Map2 of a filter output with the unfiltered array: xs = [1 -1 2]
// must panic in Map2 (lengths 2 and 3); a loop over xs would pair gts[i]
// with xs[i] for kept elements and return a wrong array instead.
func filteredZip(xs []float64) []float64 {
	gts := soac.Filter(xs, func(x float64) bool { return x > 0 })
	z := soac.Map2(gts, xs, func(a, b float64) float64 { return a + b }) // want `diag size: Map2@issue.go:\d+:\d+ combines gts \(filtered from xs\) with xs: their lengths differ unless the filter keeps every element` `size-mismatch: gts .*`
	return z
}

// (3) consumer inside a loop or lambda, producer outside: fused, the
// producer would run once per iteration (n times the work).
func inLoop(a, acc []float64, n int) []float64 {
	x := soac.Map(a, inc)
	for i := 0; i < n; i++ {
		acc = soac.Map2(acc, x, func(p, q float64) float64 { return p + q }) // want `loop-boundary: x .*`
	}
	return acc
}

func inLambda(a []float64, rows [][]float64) []float64 {
	x := soac.Map(a, inc)
	return soac.Map(rows, func(r []float64) float64 {
		return soac.Reduce(soac.Map2(r, x, func(p, q float64) float64 { return p * q }), 0.0, func(p, q float64) float64 { return p + q }) // want `loop-boundary: x .*`
	})
}

// (4) consumed twice on one path: s needs all of x before w starts, so the
// consumers cannot share a kernel; fusing x into both computes inc twice,
// so x fuses into s's kernel and is written out for w (map-out).
func twice(a []float64) []float64 {
	x := soac.Map(a, inc)
	s := soac.Reduce(x, 0.0, func(p, q float64) float64 { return p + q })
	w := soac.Map(x, func(e float64) float64 { return e / s }) // want `consumed-twice: x .*written out \(map-out\) for this one`
	return w
}

// branches: each path consumes x once: x is copied into both kernels.
func branches(a []float64, c bool) float64 {
	x := soac.Map(a, inc)
	if c {
		return soac.Reduce(x, 0.0, func(p, q float64) float64 { return p + q })
	} else {
		return soac.Reduce(x, 1.0, func(p, q float64) float64 { return p * q })
	}
}

// (5) a captured variable reassigned: k = 2 when x is computed, so with
// xs = [1] y = [5]; fused after k = 3 reading k, y = [6]. y reads the new
// k, so it cannot move up to x: x moves down reading a copy of k taken
// where it is written (capture-copy).
func captured(xs []float64) []float64 {
	k := 2.0
	x := soac.Map(xs, func(v float64) float64 { return v * k })
	k = 3
	y := soac.Map(x, func(v float64) float64 { return v + k })
	return y
}

// (5') the captured variable holds a lock: copying it would copy the lock
// (go vet's copylocks), so x is not moved down past its reassignment.
func capturedLock(xs []float64) []float64 {
	c := scaled{k: 2}
	x := soac.Map(xs, func(v float64) float64 { return v * c.k })
	c = scaled{k: 3} // want `capture-reassigned: x .* c, captured by the lambda of Map@issue.go:\d+:\d+, is reassigned at issue.go:\d+:\d+`
	y := soac.Map(x, func(v float64) float64 { return v + c.k })
	return y
}

// scaled is a factor guarded by a lock.
type scaled struct {
	mu sync.Mutex
	k  float64
}

// (6) impure lambdas: the first appends to a captured log and increments a
// counter, the second reads the counter: unfused every y is v+len(xs);
// fused, the i-th is v+i+1.
func impure(xs []float64) ([]float64, []float64) {
	var log []float64
	counter := 0
	x := soac.Map(xs, func(v float64) float64 {
		log = append(log, v) // want `diag impure: the lambda of Map@issue.go:\d+:\d+ writes captured variable log` `impure: x .* writes captured variable log`
		counter++
		return v
	})
	y := soac.Map(x, func(v float64) float64 { return v + float64(counter) })
	return y, log
}

// Panics keep their order relative to visible effects and to each other.

var hits = []int{0}

func double(v int) int { return 2 * v }

// panicBeforeWrite: with len(xs) != len(ys) the spec panics in Map2 before
// hits[0] is set, so a caller that recovers sees hits[0] == 0; with c fused
// below the write it would see 1.
func panicBeforeWrite(xs, ys []int) []int {
	a := soac.Map(xs, double)
	b := soac.Map(ys, double)
	c := soac.Map2(a, b, func(p, q int) int { return p + q })
	hits[0] = 1 // want `panic-order: c .* Map2@issue.go:\d+:\d+ may panic \(Map2 panics when the lengths of a and b differ\) and the statement at issue.go:\d+:\d+ may write package-level state`
	return soac.Map(c, double)
}

// twoPanics: with is = [0, 9] and t = [0] the spec panics in the first
// lambda (index 9 out of range); one pass would divide by t[0] = 0 first.
// The kernel still fuses: generated code re-runs its members unfused when
// the loop panics, so the spec's panic is the one raised.
func twoPanics(is, t []int) []int {
	a := soac.Map(is, func(i int) int { return t[i] })
	return soac.Map(a, func(j int) int { return 10 / j })
}

// aliasedParams: the caller may pass one slice twice, twoParams(s, s): then
// out[0] = 5 writes xs[0] and, with xs = [1], y must be [20]; fused after the
// write it would be [60].
func aliasedParams(xs, out []float64) []float64 {
	x := soac.Map(xs, inc)
	out[0] = 5 // want `write-between: x .* xs, read by Map@issue.go:\d+:\d+, may be written through out at issue.go:\d+:\d+`
	return soac.Map2(x, xs, func(a, b float64) float64 { return a + b })
}

// localWrite: a write to a slice the function allocated itself is not
// visible to the caller and cannot alias the input: x fuses past it.
func localWrite(xs []float64) ([]float64, []float64) {
	x := soac.Map(xs, inc)
	scratch := make([]float64, 1)
	scratch[0] = 5
	return soac.Map(x, ten), scratch
}

// A user's function named like a builtin is a function like any other: it
// may read package-level state and it may panic.

var calls = 0

// shadowedLenReads: the lambda calls a local function named len, which
// reads calls; with n = 1 the spec gives [0], fused below calls++ it would
// give [2].
func shadowedLenReads(n int) []int {
	len := func(v int) int { return v + calls }
	xs := make([]int, n)
	x := soac.Map(xs, func(v int) int { return len(v) })
	calls++ // want `write-between: x .* the statement at issue.go:\d+:\d+ may write package-level state at issue.go:\d+:\d+ that the lambda of Map@issue.go:\d+:\d+ may read`
	return soac.Map(x, double)
}

// builtinMinReads: the builtin min reads only its arguments: x fuses past
// calls++.
func builtinMinReads(n int) []int {
	xs := make([]int, n)
	x := soac.Map(xs, func(v int) int { return min(v, 3) })
	calls++
	return soac.Map(x, double)
}

// shadowedLenPanics: with xs = nil and ys = [1] the spec panics in Map2
// (unequal lengths) before the local len panics on nil; with c fused below
// the call, the local len's panic would come first.
func shadowedLenPanics(xs, ys []int) []int {
	len := func(s []int) int {
		if s == nil {
			panic("nil")
		}
		return cap(s)
	}
	c := soac.Map2(xs, ys, func(p, q int) int { return p + q })
	n := len(xs) // want `panic-order: c .* Map2@issue.go:\d+:\d+ may panic \(Map2 panics when the lengths of xs and ys differ\) and the statement at issue.go:\d+:\d+ may panic \(a call\)`
	return soac.Map(c, func(v int) int { return v + n })
}

// builtinLenPanics: the builtin len cannot panic: c fuses past n :=
// len(xs).
func builtinLenPanics(xs, ys []int) []int {
	c := soac.Map2(xs, ys, func(p, q int) int { return p + q })
	n := len(xs)
	return soac.Map(c, func(v int) int { return v + n })
}

// rangeWriteBetween: the lambda of x may panic (division), and the loop
// between x and its consumer writes scratch[i] with i ranging over scratch,
// which cannot panic: x moves past it.
func rangeWriteBetween(xs []int) (int, []int) {
	x := soac.Map(xs, func(v int) int { return 100 / v })
	scratch := make([]int, len(xs))
	for i := range scratch {
		scratch[i] = i
	}
	return soac.Reduce(x, 0, func(a, b int) int { return a + b }), scratch
}

// guardedWriteBetween: the write's index is guarded by len: x moves past
// it.
func guardedWriteBetween(xs []int, k int) (int, []int) {
	x := soac.Map(xs, func(v int) int { return 100 / v })
	scratch := make([]int, 4)
	if k >= 0 && k < len(scratch) {
		scratch[k] = 1
	}
	return soac.Reduce(x, 0, func(a, b int) int { return a + b }), scratch
}

// unguardedWriteBetween: scratch[i] with i ranging over xs may panic
// (scratch is shorter): with xs = [0, 1, 2, 3, 4] the spec panics in x's
// lambda (100 / 0) first; fused below the loop it would panic on
// scratch[4] instead. The reduction's operator may panic too (division
// by b|1, never 0, but not proven), so it does not move up past the loop.
func unguardedWriteBetween(xs []int) (int, []int) {
	x := soac.Map(xs, func(v int) int { return 100 / v })
	scratch := make([]int, 4)
	for i := range xs { // want `panic-order: x .* may panic \(its lambda func literal may panic\) and the loop at issue.go:\d+:\d+ may panic \(indexing\)`
		scratch[i] = i
	}
	return soac.Reduce(x, 0, func(a, b int) int { return a + b/(b|1) }), scratch
}

// lambdaLocal: x's lambda writes only a slice it allocated itself, at
// indices within its constant length: it is pure and cannot panic, so x
// moves past t[0] (which may panic) into the reduction.
func lambdaLocal(xs, t []int) (int, int) {
	x := soac.Map(xs, func(v int) int {
		buf := make([]int, 2)
		buf[0] = v
		buf[1] = v * v
		return buf[0] + buf[1]
	})
	first := t[0]
	return soac.Reduce(x, 0, func(a, b int) int { return a + b }), first
}

// lambdaLocalOutOfRange: buf[2] is out of range, so x's lambda panics on
// any element; with t empty the spec panics there first, before t[0]:
// x stays before it.
func lambdaLocalOutOfRange(xs, t []int) (int, int) {
	x := soac.Map(xs, func(v int) int {
		buf := make([]int, 2)
		buf[2] = v
		return buf[0]
	})
	first := t[0] // want `panic-order: x .* may panic \(its lambda func literal may panic\) and the statement at issue.go:\d+:\d+ may panic \(indexing\)`
	return soac.Reduce(x, 0, func(a, b int) int { return a + b/(b|1) }), first
}

// effectsReduce: x's lambda logs each element; the reduction right after
// it reads nothing the lambda writes and cannot panic: fused, the log is
// written in the same order, before the same panics (effects in order).
func effectsReduce(xs []float64) (float64, []float64) {
	var log []float64
	x := soac.Map(xs, func(v float64) float64 {
		log = append(log, v) // want `diag impure: the lambda of Map@issue.go:\d+:\d+ writes captured variable log`
		return v * 2
	})
	s := soac.Reduce(x, 0, func(a, b float64) float64 { return a + b })
	return s, log
}

// effectsReduceReads: the reduction's operator reads counter, which x's
// lambda increments: unfused every step sees len(xs), fused the i-th sees
// i+1.
func effectsReduceReads(xs []float64) float64 {
	counter := 0
	x := soac.Map(xs, func(v float64) float64 {
		counter++ // want `diag impure: the lambda of Map@issue.go:\d+:\d+ writes captured variable counter` `impure: x .* writes captured variable counter`
		return v
	})
	return soac.Reduce(x, 0, func(a, b float64) float64 { return a + b + float64(counter) })
}

// effectsReducePanics: the reduction's operator may panic (integer
// division): unfused, every element is logged before it panics; fused,
// only those before the element it panics on.
func effectsReducePanics(xs []int) (int, []int) {
	var log []int
	x := soac.Map(xs, func(v int) int {
		log = append(log, v) // want `diag impure: the lambda of Map@issue.go:\d+:\d+ writes captured variable log` `impure: x .* writes captured variable log`
		return v
	})
	s := soac.Reduce(x, 1, func(a, b int) int { return a / b })
	return s, log
}

// effectsReduceApart: a statement between the map and the reduction: the
// impure map is never moved past it, but the pure reduction, which
// cannot panic, moves up to it (placement): the effects still happen at
// the map's position, in order.
func effectsReduceApart(xs []float64, k float64) (float64, []float64) {
	var log []float64
	x := soac.Map(xs, func(v float64) float64 {
		log = append(log, v) // want `diag impure: the lambda of Map@issue.go:\d+:\d+ writes captured variable log`
		return v
	})
	k = k * 2
	s := soac.Reduce(x, 0, func(a, b float64) float64 { return a + b })
	return s + k, log
}

// neutralPanics: with xs = [0] and t empty the spec panics in a's lambda
// (10 / 0); fused, the kernel would evaluate the neutral element t[0]
// before its loop and panic on the index instead.
func neutralPanics(xs, t []int) int {
	a := soac.Map(xs, func(v int) int { return 10 / v })
	return soac.Reduce(a, t[0], func(p, q int) int { return p + q }) // want `panic-order: a .* an operand of Reduce@issue.go:\d+:\d+ may panic \(indexing\)`
}

// neutralSafe: the neutral element cannot panic: a fuses.
func neutralSafe(xs []int, t [2]int) int {
	a := soac.Map(xs, func(v int) int { return 10 / v })
	return soac.Reduce(a, t[1], func(p, q int) int { return p + q })
}

// effectsReduceReadsBetween: the reduction's neutral element is k, which
// is assigned between: the reduction cannot move up to the impure map.
func effectsReduceReadsBetween(xs []float64, k float64) (float64, []float64) {
	var log []float64
	x := soac.Map(xs, func(v float64) float64 {
		log = append(log, v) // want `diag impure: the lambda of Map@issue.go:\d+:\d+ writes captured variable log` `impure: x .* writes captured variable log`
		return v
	})
	k = k * 2
	s := soac.Reduce(x, k, func(a, b float64) float64 { return a + b })
	return s, log
}

// (5) lengths the size inference proves equal, and calls that cannot panic.

type iv struct {
	I int
	V float64
}

// argMax: Iota(len(xs)) has the length of xs, so the Map2 cannot panic,
// and math.Inf cannot either: the Reduce fuses with the Map2.
func argMax(xs []float64) iv {
	ivs := soac.Map2(soac.Iota(len(xs)), xs, func(i int, x float64) iv { return iv{i, x} })
	return soac.Reduce(ivs, iv{-1, math.Inf(-1)}, func(a, b iv) iv {
		if b.V > a.V {
			return b
		}
		return a
	})
}

// iotaZipNeutralPanics: the Map2 zips xs with an Iota of its length, so it
// cannot panic, and the neutral element t[0], which may, is evaluated first
// in the spec too: they fuse.
func iotaZipNeutralPanics(xs []float64, t []int) int {
	a := soac.Map2(soac.Iota(len(xs)), xs, func(i int, x float64) int { return i })
	return soac.Reduce(a, t[0], func(p, q int) int { return p + q })
}

// lenVarZipNeutralPanics: the same through n := len(xs), a Replicate of
// that length and a Map of xs.
func lenVarZipNeutralPanics(xs []float64, t []float64) float64 {
	n := len(xs)
	ys := soac.Map(xs, func(x float64) float64 { return x * 2 })
	a := soac.Map3(soac.Replicate(n, 0.5), xs, ys, func(h, x, y float64) float64 { return h*x + y })
	return soac.Reduce(a, t[0], func(p, q float64) float64 { return p + q })
}

// otherLenZipNeutralPanics: the Iota has the length of ys, not of xs: the
// Map2 may panic, and before the neutral element t[0] would (the message
// names the Iota by its call).
func otherLenZipNeutralPanics(xs, ys []float64, t []int) int {
	a := soac.Map2(soac.Iota(len(ys)), xs, func(i int, x float64) int { return i })
	return soac.Reduce(a, t[0], func(p, q int) int { return p + q }) // want `panic-order: a .* \(Map2 panics when the lengths of the Iota at issue.go:\d+:\d+ and xs differ\) and an operand of Reduce@issue.go:\d+:\d+ may panic \(indexing\)`
}

// zipNeutralInf: the Map2 may panic, but math.Inf(-1) and the conversion
// float64(k) cannot: they fuse.
func zipNeutralInf(xs, ys []float64, k int32) (float64, float64) {
	a := soac.Map2(xs, ys, func(x, y float64) float64 { return x * y })
	m := soac.Reduce(a, math.Inf(-1), func(p, q float64) float64 { return max(p, q) })
	b := soac.Map2(xs, ys, func(x, y float64) float64 { return x - y })
	s := soac.Reduce(b, math.Abs(float64(k)), func(p, q float64) float64 { return p + q })
	return m, s
}

// zipNeutralCall: a function of the package may panic (the engine does not
// read its body): the refusal stays.
func zipNeutralCall(xs, ys []float64, t []float64) float64 {
	a := soac.Map2(xs, ys, func(x, y float64) float64 { return x * y })
	return soac.Reduce(a, first(t), func(p, q float64) float64 { return p + q }) // want `panic-order: a .* an operand of Reduce@issue.go:\d+:\d+ may panic \(a call\)`
}

func first(t []float64) float64 { return t[0] }

// randLengths: two calls of rand.IntN(5) may differ, so the Map2 may
// panic on unequal lengths before the spec evaluates t[0]: the Reduce
// does not fuse with it (the kernel would evaluate t[0] first).
func randLengths(t []int) int {
	a := soac.Iota(rand.IntN(5))
	b := soac.Replicate(rand.IntN(5), 1) // want `panic-order: a .* an operand of Replicate@issue.go:\d+:\d+ may panic \(a call\)`
	c := soac.Map2(a, b, func(x, y int) int { return x + y })
	return soac.Reduce(c, t[0], func(p, q int) int { return p + q }) // want `panic-order: c .* \(Map2 panics when the lengths of a and b differ\) and an operand of Reduce@issue.go:\d+:\d+ may panic \(indexing\)`
}

// byCallPlaced: byCall whose consumer reads only x, which the sort does
// not write: the kernel runs before the sort (placement), reading xs as
// the spec's Map does.
func byCallPlaced(xs []float64) []float64 {
	x := soac.Map(xs, inc)
	sort.Float64s(xs)
	y := soac.Map(x, ten)
	return y
}
