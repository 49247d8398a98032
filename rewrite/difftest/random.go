package difftest

// This file makes random arguments: numbers in a small range with special
// floats mixed in, slices of a given length whose rows are regular or
// ragged, all within MaxElements; Elements counts what a value holds.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
)

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
