// Package layout answers questions about the memory layout of Go types
// that the runtime packages of soacgen ask before they hand memory to
// something the garbage collector does not watch: runtime/parallel, to
// allocate an output without clearing it, and runtime/opencl/pinned, to
// place a slice in page-locked memory the collector does not scan.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): what the runtime
// packages ask of a type before handing its memory to something the
// collector does not watch (HasPointers: parallel.Alloc's uncleared
// outputs, pinned's page-locked slices).
package layout

import "reflect"

// HasPointers reports whether a value of type t holds a pointer the
// collector must see: anything but numbers, bools, and arrays and
// structs of them (an empty array or struct holds none).
func HasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && HasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if HasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}
