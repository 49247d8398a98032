package difftest

// This file holds the fast paths: they handle slices of numbers and bools
// (whatever their type's name) through their memory, as the
// element-by-element reflection of random.go and compare.go would,
// element for element: the same random values, in the same order, the
// same copies and the same comparisons (floats bit for bit, NaNs equal).
// They make the differential tests several times faster.

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"unsafe"
)

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
