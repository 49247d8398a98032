package extest

// This file holds the helpers of the tests of the examples' parallel
// backend (par_test.go in each example): sizes that cross the parallel
// backend's grains, running a function under several GOMAXPROCS values
// with bit-identical results, and comparing with a spec within rounding.
// It does not know any example's types beyond reflection.

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"testing"
)

// ParSizes are the input sizes of the parallel tests: the usual small
// ones (which run the sequential path) and sizes above every grain the
// examples' kernels get (several chunks; odd, so chunks differ in length).
func ParSizes(short bool) []int {
	if short {
		return []int{0, 1, 7, 1000, 150_001}
	}
	return []int{0, 1, 7, 1000, 150_001, 1_000_003}
}

// Procs are the GOMAXPROCS values under which parallel results must be
// the same bits.
var Procs = []int{1, 2, 8}

// AcrossProcs calls f under each of Procs and returns its result, failing
// t when the results are not the same bits (floats by bits, so a NaN
// equals itself and -0 differs from 0).
func AcrossProcs[R any](t testing.TB, f func() R) R {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first R
	for i, p := range Procs {
		runtime.GOMAXPROCS(p)
		got := f()
		if i == 0 {
			first = got
			continue
		}
		if d := diff(reflect.ValueOf(got), reflect.ValueOf(first), "", 0); d != "" {
			t.Errorf("GOMAXPROCS=%d differs from GOMAXPROCS=%d: %s", p, Procs[0], d)
		}
	}
	return first
}

// Near describes the first difference between got and want, or returns
// "": integers, strings, booleans, nil-ness and lengths must be equal,
// floats equal within rounding (relative 1e-9, or absolute 1e-12 near
// zero; NaN matches NaN, infinities must be equal).
func Near(got, want any) string {
	return diff(reflect.ValueOf(got), reflect.ValueOf(want), "", 1e-9)
}

// Same describes the first difference between got and want, floats by
// their bits, or returns "".
func Same(got, want any) string {
	return diff(reflect.ValueOf(got), reflect.ValueOf(want), "", 0)
}

// diff compares a and b; floats within relative tolerance tol (0: the
// same bits).
func diff(a, b reflect.Value, path string, tol float64) string {
	if a.Kind() != b.Kind() {
		return fmt.Sprintf("%s: kinds %v and %v", path, a.Kind(), b.Kind())
	}
	switch a.Kind() {
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: nil=%v, want nil=%v", path, a.IsNil(), b.IsNil())
			}
			return ""
		}
		return diff(a.Elem(), b.Elem(), path, tol)
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		if tol == 0 {
			if math.Float64bits(x) != math.Float64bits(y) {
				return fmt.Sprintf("%s: %v (%#x), want %v (%#x)", path, x, math.Float64bits(x), y, math.Float64bits(y))
			}
			return ""
		}
		switch {
		case math.IsNaN(x) && math.IsNaN(y), x == y:
			return ""
		case math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y):
		case math.Abs(x-y) <= tol*max(math.Abs(x), math.Abs(y)) || math.Abs(x-y) <= 1e-12:
			return ""
		}
		return fmt.Sprintf("%s: %v, want %v", path, x, y)
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil=%v, want nil=%v", path, a.IsNil(), b.IsNil())
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d, want %d", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := diff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), tol); d != "" {
				return d
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if d := diff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, tol); d != "" {
				return d
			}
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %d, want %d", path, a.Int(), b.Int())
		}
	case reflect.String:
		if a.String() != b.String() {
			return fmt.Sprintf("%s: %q, want %q", path, a.String(), b.String())
		}
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Sprintf("%s: %v, want %v", path, a.Interface(), b.Interface())
		}
	}
	return ""
}

// SameAllocs fails t when par allocates more per call than cpu (their
// averages over runs calls): below the grain, the parallel backend's code
// must cost what the cpu backend's does. Skipped under the race detector.
func SameAllocs(t *testing.T, cpu, par func()) {
	t.Helper()
	if Race {
		t.Skip("the race detector allocates")
	}
	const runs = 100
	c, p := testing.AllocsPerRun(runs, cpu), testing.AllocsPerRun(runs, par)
	if p > c {
		t.Errorf("the parallel backend's code allocates %v times per call, the cpu backend's %v", p, c)
	}
}
