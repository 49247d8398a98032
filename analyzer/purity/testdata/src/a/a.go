// Package a holds the basic cases: writes, channel operations, calls,
// closures, methods and recursion.
package a

import (
	"fmt"
	"io"
)

var hits int

var cache = map[int]int{}

// --- Pure and impure basics.

func Add(x, y int) int { return x + y } // want `^pure$`

func Bump() { // want `^impure: writes package-level variable hits$`
	hits++
}

func Hello() { // want `^impure: calls fmt.Println \(I/O\); maypanic$`
	fmt.Println("hello")
}

func Memo(k int) int { // want `^impure: writes cache\[k\], memory reachable from package-level variable cache; maypanic$`
	cache[k] = k * 2
	return cache[k]
}

func ReadGlobal() int { return hits + len(cache) } // want `^pure$`

// --- Writes through parameters.

func Fill(xs []int) { // want `^impure: writes xs\[i\], memory reachable from parameter xs$`
	for i := range xs {
		xs[i] = 1
	}
}

func SetPtr(p *int, v int) { // want `^impure: writes \*p, memory reachable from parameter p; maypanic$`
	*p = v
}

type Point struct{ X, Y int }

func SetField(p *Point) { // want `^impure: writes p.X, memory reachable from parameter p; maypanic$`
	p.X = 1
}

func SetMap(m map[string]int) { // want `^impure: writes m\["k"\], memory reachable from parameter m; maypanic$`
	m["k"] = 1
}

func AppendParam(xs []int) []int { // want `^impure: appends to xs, memory reachable from parameter xs$`
	return append(xs, 1)
}

func CopyInto(dst, src []int) int { // want `^impure: calls copy, which writes argument 0 \(dst\), memory reachable from parameter dst$`
	return copy(dst, src)
}

func ValueParam(p Point) Point { // want `^pure$`
	p.X = 3 // a copy: writing it is local
	return p
}

func Alias(xs []int) { // want `^impure: writes ys\[0\], memory reachable from local variable ys, which is not known to be freshly allocated; maypanic$`
	ys := xs
	ys[0] = 1
}

// --- Writes to fresh memory are allowed.

func Fresh(n int) []int { // want `^pure; maypanic$`
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func FreshStruct() *Point { // want `^pure; maypanic$`
	p := &Point{}
	p.X = 2
	q := new(Point)
	q.Y = 3
	p.Y = q.Y
	return p
}

func FreshArray() [8]byte { // want `^pure; maypanic$`
	var buf [8]byte
	for i := range 8 {
		buf[i] = byte(i)
	}
	s := buf[:]
	s[0] = 9
	return buf
}

func FreshAppend(xs []int) []int { // want `^pure; maypanic$`
	var out []int
	for _, x := range xs {
		out = append(out, x)
	}
	out[0] = 0
	m := map[int]int{}
	m[1] = 2
	return out
}

func FreshCopy(xs []int) []int { // want `^pure$`
	out := make([]int, len(xs))
	copy(out, xs)
	return append([]int(nil), out...)
}

func ReassignedFromParam(xs []int) { // want `^impure: writes out\[0\], memory reachable from local variable out, which is not known to be freshly allocated; maypanic$`
	out := make([]int, 1)
	out = xs
	out[0] = 1
}

func AddressTaken(xs []int) { // want `^impure: writes \*p, memory reachable from local variable p, which is not known to be freshly allocated; maypanic$`
	out := make([]int, 1)
	p := &out
	*p = xs
	out[0] = 1
}

type Box struct{ xs []int }

func FieldFromParam(xs []int) { // want `^impure: writes b.xs\[0\], memory reachable from local variable b, which is not known to be freshly allocated; maypanic$`
	b := &Box{xs: xs}
	b.xs[0] = 1
}

func NilMapWrite() map[int]int { // want `^pure; maypanic$`
	var m map[int]int
	m[1] = 1 // panics: m is nil
	return m
}

// --- Channels, goroutines, select, recover, defer.

func Send(ch chan int) { // want `^impure: sends on channel ch; maypanic$`
	ch <- 1
}

func Recv(ch chan int) int { // want `^impure: receives from channel ch$`
	return <-ch
}

func RangeChan(ch chan int) (s int) { // want `^impure: receives from channel ch$`
	for x := range ch {
		s += x
	}
	return s
}

func Close(ch chan int) { // want `^impure: calls close \(closes a channel\); maypanic$`
	close(ch)
}

func Select(a, b chan int) { // want `^impure: select statement$`
	select {
	case <-a:
	case <-b:
	}
}

func Go() { // want `^impure: go statement starts Add$`
	go Add(1, 2)
}

func Recover() (err error) { // want `^impure: calls a func literal, which calls recover \(recovers from a panic\)$`
	defer func() { // want `^impure: calls recover \(recovers from a panic\)$`
		recover()
	}()
	return nil
}

func DeferPure() int { // want `^pure$`
	defer Add(1, 2)
	return 1
}

func DeferImpure() { // want `^impure: calls Bump, which writes package-level variable hits$`
	defer Bump()
}

// --- Calls.

func CallsBump() { Bump() } // want `^impure: calls Bump, which writes package-level variable hits$`

func CallsFill() []int { // want `^pure$`
	out := make([]int, 3)
	Fill(out) // Fill writes only its argument, which is fresh here
	return out
}

func CallsFillParam(ys []int) { // want `^impure: calls Fill, which writes argument 0 \(ys\), memory reachable from parameter ys$`
	Fill(ys)
}

func Write(w io.Writer) { // want `^impure: calls interface method io.Writer.Write; maypanic$`
	w.Write(nil)
}

func CallValue(g func() int) int { // want `^impure: calls its function parameter g, which cannot be resolved; maypanic$`
	return g()
}

var hook func()

func CallGlobalValue() { // want `^impure: calls a function value hook that cannot be resolved; maypanic$`
	hook()
}

func CallField(s struct{ f func() }) { // want `^impure: calls a function value s.f that cannot be resolved; maypanic$`
	s.f()
}

func LocalFuncVar(x int) int { // want `^pure$`
	double := func(y int) int { return 2 * y } // want `^pure$`
	return double(x)
}

func LocalFuncVarImpure() { // want `^impure: calls bump, which writes package-level variable hits$`
	bump := func() { hits++ } // want `^impure: writes package-level variable hits$`
	bump()
}

func Immediate() int { // want `^pure$`
	return func() int { return 1 }() // want `^pure$`
}

// --- Closures.

func Counter() func() int { // want `^pure$`
	count := 0
	return func() int { // want `^impure: writes captured variable count$`
		count++
		return count
	}
}

func CapturedSlice() func(int) { // want `^pure$`
	out := make([]int, 4)
	return func(i int) { // want `^impure: writes out\[i\], memory reachable from captured variable out; maypanic$`
		out[i] = 1
	}
}

func CapturedRead(k int) func(int) int { // want `^pure$`
	return func(x int) int { return x + k } // want `^pure$`
}

func LitFresh() func(int) []int { // want `^pure$`
	return func(n int) []int { // want `^pure; maypanic$`
		out := make([]int, n)
		out[0] = 1
		return out
	}
}

func LitCopiesCaptured(xs []int) func() { // want `^pure$`
	return func() { // want `^impure: writes ys\[0\], memory reachable from local variable ys, which is not known to be freshly allocated; maypanic$`
		ys := xs // fresh in no function
		ys[0] = 1
	}
}

// --- Methods.

type Counter2 struct{ n int }

func (c *Counter2) Inc() { c.n++ } // want `^impure: writes c.n, memory reachable from receiver c; maypanic$`

func (c Counter2) Get() int { return c.n } // want `^pure$`

func (c Counter2) IncCopy() Counter2 { // want `^pure$`
	c.n++
	return c
}

func UseCounter() int { // want `^pure; maypanic$`
	var c Counter2
	c.Inc() // writes the local c
	return c.Get()
}

func UseCounterParam(c *Counter2) { // want `^impure: calls Counter2.Inc, which writes its receiver c, memory reachable from parameter c; maypanic$`
	c.Inc()
}

func MethodExpr(c *Counter2) { // want `^impure: calls Counter2.Inc, which writes its receiver c, memory reachable from parameter c; maypanic$`
	(*Counter2).Inc(c)
}

// --- Recursion.

func Fact(n int) int { // want `^pure$`
	if n <= 1 {
		return 1
	}
	return n * Fact(n-1)
}

func Even(n uint) bool { // want `^pure$`
	if n == 0 {
		return true
	}
	return Odd(n - 1)
}

func Odd(n uint) bool { // want `^pure$`
	if n == 0 {
		return false
	}
	return Even(n - 1)
}

func Ping(n int) { // want `^impure: calls Pong, which writes package-level variable hits$`
	if n > 0 {
		Pong(n - 1)
	}
}

func Pong(n int) { // want `^impure: writes package-level variable hits$`
	hits++
	Ping(n)
}

func RecLit(n int) int { // want `^pure$`
	var fib func(int) int
	fib = func(k int) int { // want `^pure$`
		if k < 2 {
			return k
		}
		return fib(k-1) + fib(k-2)
	}
	return fib(n)
}

// --- Panics.

func Index(xs []int, i int) int { return xs[i] } // want `^pure; maypanic$`

func ArrayConst(a [4]int) int { return a[2] } // want `^pure$`

func ArrayVar(a [4]int, i int) int { return a[i] } // want `^pure; maypanic$`

func MapRead(m map[int]int) int { return m[3] } // want `^pure$`

func Slice(xs []int) []int { return xs[1:] } // want `^pure; maypanic$`

func Div(x, y int) int { return x / y } // want `^pure; maypanic$`

func DivConst(x int) int { return x/2 + x%3 } // want `^pure$`

func DivFloat(x, y float64) float64 { return x / y } // want `^pure$`

func DivAssign(x, y int) int { // want `^pure; maypanic$`
	x /= y
	return x
}

func Shift(x, n int) int { return x << n } // want `^pure; maypanic$`

func ShiftUnsigned(x int, n uint) int { return x << n } // want `^pure$`

func Assert(v any) int { return v.(int) } // want `^pure; maypanic$`

func AssertOK(v any) int { // want `^pure$`
	n, ok := v.(int)
	if !ok {
		return 0
	}
	switch v.(type) {
	case string:
		return 1
	}
	return n
}

func Deref(p *int) int { return *p } // want `^pure; maypanic$`

func FieldPtr(p *Point) int { return p.X } // want `^pure; maypanic$`

func FieldVal(p Point) int { return p.X } // want `^pure$`

func ToArray(xs []int) [2]int { return [2]int(xs) } // want `^pure; maypanic$`

func Convert(x int) float64 { return float64(x) } // want `^pure$`

func Panics() { panic("no") } // want `^pure; maypanic$`

func CallsIndex(xs []int) int { return Index(xs, 0) } // want `^pure; maypanic$`

func TypeSwitchVar(v any) any { // want `^pure$`
	switch x := v.(type) {
	case int:
		x = 2 // the clause's own variable
		return x
	}
	return nil
}

func DeepWrite(rows [][]int) { // want `^impure: writes rows\[0\]\[0\], memory reachable from parameter rows; maypanic$`
	rows[0][0] = 1
}

func DeepWriteViaFresh(row []int) { // want `^impure: calls DeepWrite, which writes argument 0 \(rows\), memory reachable from local variable rows, which is not known to be freshly allocated; maypanic$`
	rows := [][]int{row} // fresh, but it holds the parameter's memory
	DeepWrite(rows)
}

type Holder struct{ p *int }

func (h *Holder) Set() { *h.p = 1 } // want `^impure: writes \*h.p, memory reachable from receiver h; maypanic$`

func LocalHolder(p *int) { // want `^impure: calls Holder.Set, which writes its receiver h, memory reachable from local variable h, which is not known to be freshly allocated; maypanic$`
	h := Holder{p: p}
	h.Set() // Set writes through h.p: the caller's memory
}
