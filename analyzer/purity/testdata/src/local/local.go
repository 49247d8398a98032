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

// freshRow returns memory it made on every path: its callers may write
// it as they write memory from make.
func freshRow[T any](r []T) []T { // want `^pure$`
	out := make([]T, len(r))
	copy(out, r)
	return out
}

// sameOrFresh returns its argument on one path: not fresh.
func sameOrFresh(r []int, c bool) []int { // want `^pure$`
	if c {
		return r
	}
	return []int{1}
}

// freshPair's first result is fresh, its second its argument.
func freshPair(r []int) ([]int, []int) { return append([]int(nil), r...), r } // want `^pure$`

// freshVia returns another function's fresh result.
func freshVia(r []int) []int { return freshRow(r) } // want `^pure$`

// countdown's result is fresh on every return, through its recursion.
func countdown(n int) []int { // want `^pure$`
	if n <= 0 {
		return make([]int, 1)
	}
	return countdown(n - 1)
}

type grid struct{ cells []int }

// row is a method returning a field: not fresh.
func (g *grid) row() []int { return g.cells } // want `^pure; maypanic$`

// copyOf is a method returning a copy of a field: fresh.
func (g grid) copyOf() []int { return append([]int(nil), g.cells...) } // want `^pure$`

func WriteFreshResult(r []int) []int { // want `^pure; maypanic$`
	a := freshRow(r)
	a[0] = 1
	b := freshVia(r)
	b[0] = 2
	c, _ := freshPair(r)
	c[0] = 3
	d := countdown(3)
	d[0] = 4
	e := grid{cells: r}.copyOf()
	e[0] = 5
	return append(append(append(append(a, b...), c...), d...), e...)
}

func WriteSameOrFresh(r []int) []int { // want `^impure: writes a\[0\], memory reachable from local variable a, which is not known to be freshly allocated; maypanic$`
	a := sameOrFresh(r, len(r) > 2)
	a[0] = 1
	return a
}

func WriteSecondOfPair(r []int) []int { // want `^impure: writes b\[0\], memory reachable from local variable b, which is not known to be freshly allocated; maypanic$`
	_, b := freshPair(r)
	b[0] = 1
	return b
}

func WriteField(g *grid) []int { // want `^impure: writes a\[0\], memory reachable from local variable a, which is not known to be freshly allocated; maypanic$`
	a := g.row()
	a[0] = 1
	return a
}

func WriteFreshTwice(r []int) []int { // want `^pure; maypanic$`
	a := freshRow(r)
	a = freshVia(a)
	a[0] = 1
	return a
}
