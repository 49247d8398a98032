package difftest

// This file calls a spec and its generated function on the same
// arguments and compares what they did: their results, their panics and
// their writes to the arguments (Compare), and the spec's results under
// two chunkings of its streams (Chunking); Copy and Same are the deep copy
// and the comparison (floats bit for bit, nil and empty slices told apart)
// both use.

import (
	"fmt"
	"math"
	"reflect"

	"github.com/soacgen/soacgen/runtime/soac"
)

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
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Complex64, reflect.Complex128:
		return Same(reflect.ValueOf(real(a.Complex())), reflect.ValueOf(real(b.Complex()))) && Same(reflect.ValueOf(imag(a.Complex())), reflect.ValueOf(imag(b.Complex())))
	}
	// Scalars are compared above, through their kind: a field that is not
	// exported cannot give its value as an interface.
	return reflect.DeepEqual(a.Interface(), b.Interface())
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
