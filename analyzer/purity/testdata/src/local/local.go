// Package local checks that writes into memory a function allocated itself
// (make, new, composite literals, append to a local) leave it pure, and
// that writes into memory it did not allocate do not.
package local

type point struct{ x, y int }

func Make(n int) []int { // want `^pure$`
	out := make([]int, 4)
	out[1] = n
	return out
}

func Literal(n int) []int { // want `^pure$`
	out := []int{0, 0, 0}
	out[2] = n
	return out
}

func AppendLocal(xs []int) []int { // want `^pure$`
	var out []int
	for _, x := range xs {
		out = append(out, x)
	}
	if len(out) > 0 {
		out[0] = 7
	}
	return out
}

func CopyThenWrite(xs []int) []int { // want `^pure$`
	c := append([]int(nil), xs...)
	if len(c) > 0 {
		c[0] = 42
	}
	return c
}

func NewStruct(v int) *point { // want `^pure$`
	p := new(point)
	p.x = v
	return p
}

func StructLit(v int) point { // want `^pure$`
	p := point{}
	p.y = v
	return p
}

func MapLit(k int) map[int]int { // want `^pure$`
	m := map[int]int{}
	m[k] = 1
	return m
}

// Nested: an element loaded from fresh memory is not known fresh (not
// tracked: a known limitation).
func Nested(n int) [][]int { // want `^impure: writes grid\[0\]\[1\], memory reachable from local variable grid, which is not known to be freshly allocated; maypanic$`
	grid := make([][]int, 2)
	for i := range grid {
		grid[i] = make([]int, 2)
	}
	grid[0][1] = n
	return grid
}

// ArrayLocal: i&3 is in range of [4]int, but bit arithmetic is not
// reasoned about.
func ArrayLocal(i int) int { // want `^pure; maypanic$`
	var a [4]int
	a[i&3] = 1
	return a[0]
}

func Swap(xs []int) []int { // want `^pure$`
	out := make([]int, len(xs))
	copy(out, xs)
	for i := range out {
		j := len(out) - 1 - i
		if j >= 0 && j < len(out) {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// --- Not proven.

func MakeTooShort(n int) []int { // want `^pure; maypanic$`
	out := make([]int, 2)
	out[2] = n
	return out
}

func MakeResliced(n int) []int { // want `^pure; maypanic$`
	out := make([]int, 4)
	out = out[:1]
	out[3] = n
	return out
}

func LengthChecked(xs []int) int { // want `^pure; maypanic$`
	if len(xs) > 0 {
		return xs[1]
	}
	return 0
}

func LengthEmptyExit(xs []int) int { // want `^pure$`
	if len(xs) == 0 {
		return 0
	}
	return xs[0]
}

func LengthReslicedAfterCheck(xs []int) int { // want `^pure; maypanic$`
	if len(xs) > 0 {
		xs = xs[1:]
		return xs[0]
	}
	return 0
}

func NewReassigned(p *point, v int) *point { // want `^impure: writes q.x, memory reachable from local variable q, which is not known to be freshly allocated; maypanic$`
	q := new(point)
	if v > 0 {
		q = p
	}
	q.x = v // q may be p, which may be nil; the write makes it impure too
	return q
}
