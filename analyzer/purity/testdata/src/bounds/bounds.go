// Package bounds checks which index expressions the purity analyzer proves
// in range (no panic) and which it must keep as may-panic.
package bounds

var global []int

// --- Proven in range.

func RangeIndex(xs []int) (s int) { // want `^pure$`
	for i := range xs {
		s += xs[i]
	}
	return s
}

func RangeIndexString(s string) (n int) { // want `^pure$`
	for i := range s {
		n += int(s[i])
	}
	return n
}

func RangeIndexArray(a [4]int) (s int) { // want `^pure$`
	for i := range a {
		s += a[i]
	}
	return s
}

func Guarded(xs []int, i int) int { // want `^pure$`
	if i >= 0 && i < len(xs) {
		return xs[i]
	}
	return 0
}

func GuardedMirrored(xs []int, i int) int { // want `^pure$`
	if 0 <= i && len(xs) > i {
		return xs[i]
	}
	return 0
}

func GuardedUnsigned(xs []int, i uint) int { // want `^pure$`
	if i < uint(len(xs)) {
		return 0
	}
	return 1
}

func GuardedUnsignedIndex(xs []int, i uint) int { // want `^pure; maypanic$`
	// uint(len(xs)) is not len(xs): no bound is read from it.
	if i < uint(len(xs)) {
		return xs[i]
	}
	return 0
}

func EarlyExit(xs []int, i int) int { // want `^pure$`
	if i < 0 || i >= len(xs) {
		return 0
	}
	return xs[i]
}

func EarlyPanic(xs []int, i int) int { // want `^pure; maypanic$`
	// maypanic: the call of panic; xs[i] is proven in range.
	if !(i >= 0 && i < len(xs)) {
		panic("out of range")
	}
	return xs[i]
}

func ElseBranch(xs []int, i int) int { // want `^pure$`
	if i < 0 || len(xs) <= i {
		return -1
	} else {
		return xs[i]
	}
}

func Counter(xs []int) (s int) { // want `^pure$`
	for i := 0; i < len(xs); i++ {
		s += xs[i]
	}
	return s
}

func CounterStep(xs []int) (s int) { // want `^pure$`
	for i := 1; i < len(xs); i += 2 {
		s += xs[i]
	}
	return s
}

func WriteLocal(n int) []int { // want `^pure; maypanic$`
	out := make([]int, n) // make with a variable size may panic
	for i := range out {
		out[i] = i
	}
	return out
}

func WriteLocalOtherIndex(xs []int) []int { // want `^pure$`
	out := make([]int, len(xs))
	for i := range out {
		out[i] = xs[i] * 2 // out is as long as xs: both are proven
	}
	return out
}

func WriteLocalRangeOther(xs []int) []int { // want `^pure$`
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = x // out is as long as xs
	}
	return out
}

func WriteLocalOtherResliced(xs []int) []int { // want `^pure; maypanic$`
	out := make([]int, len(xs))
	xs = xs[1:] // no longer as long as out
	for i := range out {
		out[i] = xs[i]
	}
	return out
}

func WriteLocalReassigned(xs []int) []int { // want `^pure; maypanic$`
	out := make([]int, len(xs))
	if len(xs) > 3 {
		out = make([]int, 1) // no longer as long as xs
	}
	for i := range xs {
		out[i] = xs[i]
	}
	return out
}

// --- Not proven.

func RangeOther(xs, ys []int) (s int) { // want `^pure; maypanic$`
	for i := range xs {
		s += ys[i]
	}
	return s
}

func RangeReassignedSlice(xs []int) (s int) { // want `^pure; maypanic$`
	for i := range xs {
		xs = xs[1:]
		s += xs[i]
	}
	return s
}

func RangeReassignedIndex(xs []int) (s int) { // want `^pure; maypanic$`
	for i := range xs {
		i++
		s += xs[i]
	}
	return s
}

func RangeGlobal() (s int) { // want `^pure; maypanic$`
	for i := range global {
		s += global[i]
	}
	return s
}

func RangeClosureShrinks(xs []int) (s int) { // want `^impure: calls shrink, which writes captured variable xs; maypanic$`
	shrink := func() { xs = nil } // want `^impure: writes captured variable xs$`
	for i := range xs {
		shrink()
		s += xs[i]
	}
	return s
}

func RangeAddressTaken(xs []int) (s int) { // want `^impure: calls reset, which writes argument 0 \(p\), memory reachable from local variable p, which is not known to be freshly allocated; maypanic$`
	p := &xs
	for i := range xs {
		reset(p)
		s += xs[i]
	}
	return s
}

func reset(p *[]int) { *p = nil } // want `^impure: writes \*p, memory reachable from parameter p; maypanic$`

func UpperOnly(xs []int, i int) int { // want `^pure; maypanic$`
	if i < len(xs) {
		return xs[i]
	}
	return 0
}

func LowerOnly(xs []int, i int) int { // want `^pure; maypanic$`
	if i >= 0 {
		return xs[i]
	}
	return 0
}

func Arithmetic(xs []int, i int) int { // want `^pure; maypanic$`
	if i >= 0 && i < len(xs)-1 {
		return xs[i+1]
	}
	return 0
}

func Disjunction(xs []int, i int) int { // want `^pure; maypanic$`
	if i >= 0 || i < len(xs) {
		return xs[i]
	}
	return 0
}

func GuardThenReassign(xs []int, i int) int { // want `^pure; maypanic$`
	if i < 0 || i >= len(xs) {
		return 0
	}
	i++
	return xs[i]
}

func NoExit(xs []int, i int) int { // want `^pure; maypanic$`
	if i < 0 || i >= len(xs) {
		i = 0
	}
	return xs[i]
}

func InClosure(xs []int) func() int { // want `^pure$`
	for i := range xs {
		return func() int { return xs[i] } // want `^pure; maypanic$`
	}
	return nil
}

func CounterDown(xs []int) (s int) { // want `^pure; maypanic$`
	for i := len(xs) - 1; i < len(xs); i-- {
		s += xs[i]
	}
	return s
}

func CounterNegativeStart(xs []int) (s int) { // want `^pure; maypanic$`
	for i := -1; i < len(xs); i++ {
		s += xs[i]
	}
	return s
}

func CounterBodyWrites(xs []int) (s int) { // want `^pure; maypanic$`
	for i := 0; i < len(xs); i++ {
		i--
		s += xs[i]
	}
	return s
}

func GotoSkipsGuard(xs []int, i int) int { // want `^pure; maypanic$`
	if len(xs) > 100 {
		goto use
	}
	if i < 0 || i >= len(xs) {
		return 0
	}
use:
	return xs[i]
}

func CounterHugeStep(xs []int) (s int) { // want `^pure; maypanic$`
	for i := 0; i < len(xs); i += 1 << 62 {
		s += xs[i]
	}
	return s
}
