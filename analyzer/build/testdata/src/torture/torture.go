// Package torture holds constructs that must build without crashing and
// give IR that verifies.
package torture

import (
	"iter"
	"strings"

	"github.com/soacgen/soacgen/runtime/soac"
)

func inc(x int) int    { return x + 1 }
func add(a, b int) int { return a + b }

func square[T int | float64](x T) T { return x * x }

type vec struct{ xs []int }

func (v vec) Sum(a, b int) int        { return a + b }
func (v *vec) Scale(x int) int        { return x * len(v.xs) }
func (v vec) Len(x int) int           { return x + len(v.xs) }
func pair() (int, []int)              { return 1, nil }
func consume(n int, xs []int) [][]int { return nil }

var counter int
var table = []int{1, 2, 3}

func selects(xs []int, ch chan int, out chan []int) (n int) {
	var got int
	var ok bool
	for {
		select {
		case got, ok = <-ch:
			if !ok {
				return
			}
			xs = soac.Map(xs, func(x int) int { return x + got })
		case out <- soac.Map(xs, inc):
		case v := <-ch:
			n += v
			continue
		}
		break
	}
	n = soac.Reduce(xs, n, add)
	return
}

func rangeKinds(xs []int, m map[string][]int, s string, ch chan int, seq iter.Seq[int]) int {
	t := 0
	for i := range 10 {
		t += i
	}
	for k, v := range m {
		t += len(k) + soac.Reduce(v, 0, add)
	}
	for _, r := range s {
		t += int(r)
	}
	for x := range ch {
		t += x
	}
	for x := range seq {
		t += soac.Reduce(soac.Map(xs, func(y int) int { return y * x }), 0, add)
	}
	var arr [4]int
	for i, a := range arr {
		arr[i] = a + 1
	}
	var k, v int
	for k, v = range xs {
		t += k * v
	}
	for table[0] = range xs {
	}
	return t + soac.Reduce(arr[:], 0, add) + k
}

func switches(xs []int, v any) (r []int) {
	switch n := len(xs); {
	case n > 3:
		r = soac.Map(xs, inc)
		fallthrough
	case n > 1:
		r = append(r, 1)
	default:
		r = xs
	}
	switch v.(type) {
	case nil:
		return nil
	}
	switch x := v.(type) {
	case []int, []int64:
		_ = x
	case func(int) int:
		r = soac.Map(r, x)
	}
	return r
}

func values(xs []int, p *[4]int, m map[int][]int, vs []vec) []int {
	var arr [4]int
	arr[1] = 2
	(*p)[0] = 1
	p[1] = 2
	v, ok := m[1]
	if !ok {
		v = xs
	}
	var s vec
	s.xs = v
	s.xs[0] = 3
	vs[0].xs = xs
	ys := append(xs, v...)
	q := new(int)
	*q = 3
	counter++
	table[1] = *q
	a := soac.Map(ys, s.Len)          // method value, value receiver
	b := soac.Map(a, s.Scale)         // method value, pointer receiver on addressable s
	c := soac.Map(b, square[int])     // instantiated generic function
	d := soac.Reduce(c, 0, vec{}.Sum) // method value on a composite literal
	e := soac.Map(c, pick(&s))        // other function expression
	_ = consume(pair())
	return soac.Map(soac.Map(e, func(x int) int { return x + d + arr[1] }), inc)
}

func nested(xs []int) []int {
	return soac.Map(xs, func(x int) int {
		f := func(y int) int { return soac.Reduce(soac.Map(xs, inc), y, add) }
		if x > 0 {
			return f(x)
		}
		total := 0
		for _, y := range soac.Iota(x) {
			total += y
		}
		return total
	})
}

func immediate(xs []int) int {
	n := func() int { return soac.Reduce(xs, 0, add) }()
	defer func() {
		if recover() != nil {
			n = 0
		}
	}()
	go func(ys []int) { _ = soac.Map(ys, inc) }(xs)
	return n
}

func labels(xss [][]int) (out []int) {
L:
	for _, xs := range xss {
		switch {
		case len(xs) == 0:
			continue L
		case len(xs) > 10:
			break L
		}
		out = soac.Map(xs, inc)
	}
	func() {
		goto end
	end:
	}()
	return out
}

func combinatorLambda(xs []int) [][]int {
	return soac.Map(xs, soac.Iota)
}

func strs(ws []string) []string {
	return soac.Filter(soac.Map(ws, strings.ToLower), func(w string) bool { return w != "" && strings.HasPrefix(w, "a") })
}

func panics(xs []int) []int {
	if len(xs) == 0 {
		panic("empty")
	}
	ys := soac.Map(xs, inc)
	if len(ys) > 3 {
		panicsNow()
	}
	return ys
}

func panicsNow() { panic("now") }

func pick(v *vec) func(int) int { return v.Scale }

// A method expression as lambda.
func methodExpr(vs []vec) []int {
	return soac.Map(vs, func(v vec) int { return 0 }) // literal
}

func methodExpr2(vs []vec, xs []int) []int {
	return soac.Map2(vs, xs, vec.Len)
}
