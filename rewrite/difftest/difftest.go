// Package difftest compares a generated function with its spec on random
// inputs: the same results (floats bit for bit, nil and empty slices told
// apart), the same panic messages, and the same writes to the arguments.
// The rewrite package's differential tests, and the examples' tests, use
// it.
package difftest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
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

// Run runs every case on random inputs of every size.
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
		for _, n := range Sizes {
			for trial := 0; trial < Trials; trial++ {
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
				if msg := Compare(c.Spec, c.Fused, args); msg != "" {
					t.Errorf("%s, n=%d, trial %d: %s", c.Name, n, trial, msg)
					return
				}
			}
		}
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
// slices inside them a small length.
func Random(r *rand.Rand, t reflect.Type, n int) reflect.Value {
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
		s := reflect.MakeSlice(t, n, n)
		inner := min(n, 5)
		for i := 0; i < n; i++ {
			s.Index(i).Set(Random(r, t.Elem(), inner))
		}
		v.Set(s)
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			v.Index(i).Set(Random(r, t.Elem(), n))
		}
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).IsExported() {
				v.Field(i).Set(Random(r, t.Field(i).Type, n))
			}
		}
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		p.Elem().Set(Random(r, t.Elem(), n))
		v.Set(p)
	}
	return v
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
// empty slices told apart.
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
	case reflect.Pointer:
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
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}
