// Package difftest compares a generated function with its spec on random
// inputs: the same results (floats bit for bit, nil and empty slices told
// apart), the same panic messages, and the same writes to the arguments.
// The rewrite package's differential tests, and the examples' tests, use
// it.
package difftest

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime/metrics"
	"slices"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/soacgen/soacgen/runtime/soac"
)

// Sizes are the input lengths every case is run with.
var Sizes = []int{0, 1, 7, 1000, 100000}

// Case is one spec and its generated function.
type Case struct {
	Name        string
	Spec, Fused any
	// Args, when non-nil, makes the arguments for size n; otherwise they
	// are random values of the parameter types, slices of length n (or,
	// in some trials, n+1, so that unequal lengths are tried too).
	Args func(r *rand.Rand, n int) []any
	// Allocs, when non-nil, returns a call of the generated function on
	// fixed arguments of size 1000; the call must allocate at most
	// MaxAllocs times (its outputs), whatever the size.
	Allocs    func(r *rand.Rand, n int) func()
	MaxAllocs float64
}

// Trials is the number of random inputs per size.
const Trials = 4

// MaxElements bounds the slice elements of one argument, counted at
// every depth (a [][]T of n rows holding m elements in all counts n+m):
// Random never makes more, so a [][]T of n rows has at most
// MaxElements/n - 1 elements a row, and Run fails a case whose Args hook
// makes more rather than let the test run out of memory.
const MaxElements = 1 << 20

// MaxHeap bounds the heap, in bytes, while Run runs: a case whose spec or
// generated function allocates more (a result of len(xs)×len(rows)
// elements on inputs of 1e5 each) ends the test binary with a message
// naming the case, the size and the trial, where the kernel would kill it
// for its memory with nothing but "signal: killed".
var MaxHeap uint64 = 4 << 30

// Run runs every case on random inputs of every size. A case stops at
// its first difference; the cases after it still run.
func Run(t *testing.T, cases []Case, r *rand.Rand) {
	t.Helper()
	for _, c := range cases {
		if c.Allocs != nil {
			for _, n := range []int{1000, 100000} {
				if got := testing.AllocsPerRun(50, c.Allocs(r, n)); got > c.MaxAllocs {
					t.Errorf("%s, n=%d: %v allocations per call, want at most %v", c.Name, n, got, c.MaxAllocs)
				}
			}
		}
		runCase(t, c, r)
	}
}

// runCase compares c's spec and generated function on random inputs of
// every size, under watchHeap (not while Run counts allocations: the
// watch allocates).
func runCase(t *testing.T, c Case, r *rand.Rand) {
	t.Helper()
	var at atomic.Pointer[string]
	stop := watchHeap(&at)
	defer stop()
	for _, n := range Sizes {
		for trial := 0; trial < Trials; trial++ {
			at.Store(ptr(fmt.Sprintf("%s, n=%d, trial %d", c.Name, n, trial)))
			var args []reflect.Value
			if c.Args != nil {
				for _, a := range c.Args(r, n) {
					args = append(args, reflect.ValueOf(a))
				}
			} else {
				ft := reflect.TypeOf(c.Spec)
				for i := 0; i < ft.NumIn(); i++ {
					m := n
					if trial == Trials-1 && r.IntN(2) == 0 {
						m++
					}
					args = append(args, Random(r, ft.In(i), m))
				}
			}
			for i, a := range args {
				if k := Elements(a); k > MaxElements {
					t.Errorf("%s, n=%d, trial %d: argument %d holds %d slice elements, over difftest.MaxElements (%d): bound the sizes of the case's Args hook", c.Name, n, trial, i, k, MaxElements)
					return
				}
			}
			if msg := Compare(c.Spec, c.Fused, args); msg != "" {
				t.Errorf("%s, n=%d, trial %d: %s", c.Name, n, trial, msg)
				return
			}
			if trial == 0 && n >= 2 {
				if msg := Chunking(c.Spec, args, n/3+1); msg != "" {
					t.Errorf("%s, n=%d, trial %d: %s", c.Name, n, trial, msg)
					return
				}
			}
		}
	}
}

func ptr(s string) *string { return &s }

// watchHeap checks the heap every few milliseconds until stop is called;
// over MaxHeap, it ends the process with a message naming what *at says
// runs.
func watchHeap(at *atomic.Pointer[string]) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			if used := sample[0].Value.Uint64(); used > MaxHeap {
				what := "(no case)"
				if p := at.Load(); p != nil {
					what = *p
				}
				fmt.Fprintf(os.Stderr, "difftest: %s: the heap holds %d MiB, over difftest.MaxHeap (%d MiB): the spec's or the generated function's results are too large for these inputs; bound the case's sizes\n", what, used>>20, MaxHeap>>20)
				os.Exit(3)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// Compare calls spec and fused on copies of args and describes the first
// difference, or returns "".
func Compare(spec, fused any, args []reflect.Value) string {
	a1, a2 := Copy(args), Copy(args)
	want, wp := call(reflect.ValueOf(spec), a1)
	got, gp := call(reflect.ValueOf(fused), a2)
	if wp != gp {
		return fmt.Sprintf("panic %q, spec panics %q", gp, wp)
	}
	for i := range want {
		if !Same(want[i], got[i]) {
			return fmt.Sprintf("result %d = %s, spec gives %s", i, show(got[i]), show(want[i]))
		}
	}
	for i := range a1 {
		if !Same(a1[i], a2[i]) {
			return fmt.Sprintf("argument %d after the call = %s, spec leaves %s", i, show(a2[i]), show(a1[i]))
		}
	}
	return ""
}

// Chunking calls spec on copies of args with the reference's streams
// in chunks of soac.ChunkSize and in chunks of size (soac.SetChunking),
// and describes a difference of their results, or returns "" (also when
// either call panics: a panic's message may name its chunk). A spec
// whose results differ breaks docs/contract.md's promise that StreamMap and
// StreamRed give the same result for every partition into chunks (a
// chunk function that reads its keys or stops early, a combining
// operator that is not associative): generated code, which chooses its
// own chunks, cannot be expected to equal it. Run checks every case
// once a size.
func Chunking(spec any, args []reflect.Value, size int) string {
	want, wp := call(reflect.ValueOf(spec), Copy(args))
	old := soac.SetChunking(size)
	got, gp := call(reflect.ValueOf(spec), Copy(args))
	soac.SetChunking(old)
	if wp != "" || gp != "" {
		return ""
	}
	for i := range want {
		if !Same(want[i], got[i]) {
			return fmt.Sprintf("the spec's result %d in stream chunks of %d elements = %s, in chunks of soac.ChunkSize %s: its streams' results depend on the chunking (docs/contract.md)", i, size, show(got[i]), show(want[i]))
		}
	}
	return ""
}

func show(v reflect.Value) string {
	s := fmt.Sprintf("%#v", v.Interface())
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

func call(f reflect.Value, args []reflect.Value) (out []reflect.Value, panicked string) {
	defer func() {
		if e := recover(); e != nil {
			panicked = fmt.Sprint(e)
			if panicked == "" {
				panicked = "(empty panic)"
			}
		}
	}()
	if f.Type().IsVariadic() {
		return f.CallSlice(args), ""
	}
	return f.Call(args), ""
}

// specialFloats are the floating-point values Random mixes in.
var specialFloats = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -5e-324, 1e300, -1e300}

// Random returns a random value of type t; slices have length n, and
// slices inside them short lengths: in half the values every row has
// min(n, 5) elements, in the others the rows are ragged (empty rows and
// rows of one element among them). Random makes at most MaxElements slice
// elements in all (rows and their elements), shortening the inner rows
// to stay within it; it panics when n alone is over it.
func Random(r *rand.Rand, t reflect.Type, n int) reflect.Value {
	if n > MaxElements && holdsSlice(t) {
		panic(fmt.Sprintf("difftest.Random: a %s of length %d is over difftest.MaxElements (%d)", t, n, MaxElements))
	}
	return random(r, t, n, MaxElements)
}

// holdsSlice reports whether a value of type t holds a slice.
func holdsSlice(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice:
		return true
	case reflect.Array, reflect.Pointer:
		return holdsSlice(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).IsExported() && holdsSlice(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// random is Random making at most budget slice elements; n is at most
// budget where t holds a slice.
func random(r *rand.Rand, t reflect.Type, n, budget int) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(r.IntN(201) - 100))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(r.IntN(200)))
	case reflect.Float32, reflect.Float64:
		if r.IntN(16) == 0 {
			// Values where exactness is easy to lose: signed zeros,
			// infinities, NaN, subnormals.
			v.SetFloat(specialFloats[r.IntN(len(specialFloats))])
			break
		}
		v.SetFloat(r.Float64()*20 - 10)
	case reflect.String:
		b := make([]byte, r.IntN(8))
		for i := range b {
			b[i] = byte('a' + r.IntN(26))
		}
		v.SetString(string(b))
	case reflect.Slice:
		n = min(n, budget)
		s := reflect.MakeSlice(t, n, n)
		if fillFlat(r, s) {
			v.Set(s)
			break
		}
		// Each element may hold an equal share of what is left.
		share := 0
		if n > 0 {
			share = (budget - n) / n
		}
		rows := holdsSlice(t.Elem())
		ragged := rows && r.IntN(2) == 0
		for i := 0; i < n; i++ {
			m := min(n, 5)
			if ragged {
				switch k := r.IntN(8); {
				case k == 0:
					m = 0
				case k == 1:
					m = 1
				default:
					m = r.IntN(2*m + 1)
				}
			}
			if rows {
				m = min(m, share)
			}
			s.Index(i).Set(random(r, t.Elem(), m, share))
		}
		v.Set(s)
	case reflect.Array:
		share := budget
		if t.Len() > 0 {
			share = budget / t.Len()
		}
		for i := 0; i < t.Len(); i++ {
			v.Index(i).Set(random(r, t.Elem(), min(n, share), share))
		}
	case reflect.Struct:
		share := budget
		if t.NumField() > 0 {
			share = budget / t.NumField()
		}
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).IsExported() {
				v.Field(i).Set(random(r, t.Field(i).Type, min(n, share), share))
			}
		}
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		p.Elem().Set(random(r, t.Elem(), n, budget))
		v.Set(p)
	}
	return v
}

// Elements counts the slice elements v holds, at every depth (a [][]T of
// n rows holding m elements in all has n+m).
func Elements(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Slice:
		k := v.Len()
		if holdsSlice(v.Type().Elem()) {
			for i := 0; i < v.Len(); i++ {
				k += Elements(v.Index(i))
			}
		}
		return k
	case reflect.Array:
		k := 0
		if holdsSlice(v.Type().Elem()) {
			for i := 0; i < v.Len(); i++ {
				k += Elements(v.Index(i))
			}
		}
		return k
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return Elements(v.Elem())
	case reflect.Struct:
		k := 0
		for i := 0; i < v.NumField(); i++ {
			k += Elements(v.Field(i))
		}
		return k
	}
	return 0
}

// Copy deep-copies values (slices, arrays, pointers, structs).
func Copy(vs []reflect.Value) []reflect.Value {
	out := make([]reflect.Value, len(vs))
	for i, v := range vs {
		out[i] = deepCopy(v)
	}
	return out
}

func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		if !slowPaths && !deep(v.Type().Elem()) {
			reflect.Copy(s, v)
			return s
		}
		for i := 0; i < v.Len(); i++ {
			s.Index(i).Set(deepCopy(v.Index(i)))
		}
		return s
	case reflect.Array:
		a := reflect.New(v.Type()).Elem()
		for i := 0; i < v.Len(); i++ {
			a.Index(i).Set(deepCopy(v.Index(i)))
		}
		return a
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(deepCopy(v.Elem()))
		return p
	case reflect.Struct:
		s := reflect.New(v.Type()).Elem()
		s.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if s.Field(i).CanSet() {
				s.Field(i).Set(deepCopy(v.Field(i)))
			}
		}
		return s
	}
	return v
}

// Same reports whether a and b are equal, floats bit for bit, nil and
// empty slices told apart, functions by their code.
func Same(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() || a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float()) || a.Float() != a.Float() && b.Float() != b.Float()
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if same, ok := sameFlat(a, b); ok {
			return same
		}
		for i := 0; i < a.Len(); i++ {
			if !Same(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !Same(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return Same(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !Same(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Func:
		// A function argument cannot be written by the call; the same
		// function (or both nil) is the same value. DeepEqual would call
		// any two non-nil functions different.
		return a.IsNil() == b.IsNil() && (a.IsNil() || a.Pointer() == b.Pointer())
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// The fast paths below handle slices of numbers and bools (whatever their
// type's name) through their memory, as the element-by-element reflection
// above would, element for element: the same random values, in the same
// order, the same copies and the same comparisons (floats bit for bit,
// NaNs equal). They make the differential tests several times faster.

// slowPaths turns the fast paths off (for the tests that compare them
// with the element-by-element code).
var slowPaths bool

// fillFlat fills s, a slice of numbers or bools, with what random would
// put in each element, and reports whether it did.
func fillFlat(r *rand.Rand, s reflect.Value) bool {
	if slowPaths {
		return false
	}
	n := s.Len()
	if n == 0 {
		return flatKind(s.Type().Elem().Kind())
	}
	p := s.UnsafePointer()
	ints := func() int64 { return int64(r.IntN(201) - 100) }
	uints := func() uint64 { return uint64(r.IntN(200)) }
	floats := func() float64 {
		if r.IntN(16) == 0 {
			return specialFloats[r.IntN(len(specialFloats))]
		}
		return r.Float64()*20 - 10
	}
	switch s.Type().Elem().Kind() {
	case reflect.Bool:
		fill(unsafe.Slice((*bool)(p), n), func() bool { return r.IntN(2) == 0 })
	case reflect.Int:
		fill(unsafe.Slice((*int)(p), n), func() int { return int(ints()) })
	case reflect.Int8:
		fill(unsafe.Slice((*int8)(p), n), func() int8 { return int8(ints()) })
	case reflect.Int16:
		fill(unsafe.Slice((*int16)(p), n), func() int16 { return int16(ints()) })
	case reflect.Int32:
		fill(unsafe.Slice((*int32)(p), n), func() int32 { return int32(ints()) })
	case reflect.Int64:
		fill(unsafe.Slice((*int64)(p), n), ints)
	case reflect.Uint:
		fill(unsafe.Slice((*uint)(p), n), func() uint { return uint(uints()) })
	case reflect.Uint8:
		fill(unsafe.Slice((*uint8)(p), n), func() uint8 { return uint8(uints()) })
	case reflect.Uint16:
		fill(unsafe.Slice((*uint16)(p), n), func() uint16 { return uint16(uints()) })
	case reflect.Uint32:
		fill(unsafe.Slice((*uint32)(p), n), func() uint32 { return uint32(uints()) })
	case reflect.Uint64:
		fill(unsafe.Slice((*uint64)(p), n), uints)
	case reflect.Uintptr:
		fill(unsafe.Slice((*uintptr)(p), n), func() uintptr { return uintptr(uints()) })
	case reflect.Float32:
		fill(unsafe.Slice((*float32)(p), n), func() float32 { return float32(floats()) })
	case reflect.Float64:
		fill(unsafe.Slice((*float64)(p), n), floats)
	default:
		return false
	}
	return true
}

func fill[T any](xs []T, next func() T) {
	for i := range xs {
		xs[i] = next()
	}
}

// flatKind reports whether fillFlat and sameFlat handle elements of kind k.
func flatKind(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// sameFlat compares a and b, slices of one type of equal lengths, when
// their elements are numbers or bools: ok reports whether it did.
func sameFlat(a, b reflect.Value) (same, ok bool) {
	k := a.Type().Elem().Kind()
	if slowPaths || !flatKind(k) {
		return false, false
	}
	n := a.Len()
	if n == 0 {
		return true, true
	}
	pa, pb := a.UnsafePointer(), b.UnsafePointer()
	switch k {
	case reflect.Float32:
		xs, ys := unsafe.Slice((*float32)(pa), n), unsafe.Slice((*float32)(pb), n)
		for i, x := range xs {
			if y := ys[i]; math.Float32bits(x) != math.Float32bits(y) && (x == x || y == y) {
				return false, true
			}
		}
		return true, true
	case reflect.Float64:
		xs, ys := unsafe.Slice((*float64)(pa), n), unsafe.Slice((*float64)(pb), n)
		for i, x := range xs {
			if y := ys[i]; math.Float64bits(x) != math.Float64bits(y) && (x == x || y == y) {
				return false, true
			}
		}
		return true, true
	case reflect.Bool:
		// Compared as bools: a bool's byte is 0 or 1, but compare values.
		xs, ys := unsafe.Slice((*bool)(pa), n), unsafe.Slice((*bool)(pb), n)
		return slices.Equal(xs, ys), true
	}
	size := int(a.Type().Elem().Size())
	return bytes.Equal(unsafe.Slice((*byte)(pa), n*size), unsafe.Slice((*byte)(pb), n*size)), true
}

// deep reports whether deepCopy copies values of type t element by
// element (they hold slices or pointers); other values copy as they are.
func deep(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Pointer:
		return true
	case reflect.Array:
		return deep(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if deep(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
