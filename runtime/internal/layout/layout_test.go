package layout

import (
	"reflect"
	"testing"
	"unsafe"
)

func TestHasPointers(t *testing.T) {
	type point struct{ X, Y float64 }
	type tagged struct {
		P    point
		Tags [2][3]uint8
		OK   bool
	}
	type named struct {
		P    point
		Name string
	}
	for _, c := range []struct {
		v    any
		want bool
	}{
		{0, false}, {int8(0), false}, {uint64(0), false}, {uintptr(0), false}, {0.5, false},
		{float32(0), false}, {complex64(0), false}, {complex(1, 2), false}, {true, false},
		{point{}, false}, {tagged{}, false}, {[4]point{}, false}, {struct{}{}, false},
		{[0]*int{}, false}, // an empty array holds nothing
		{"", true}, {[]int{}, true}, {new(int), true}, {map[int]int{}, true},
		{named{}, true}, {[2]string{}, true}, {unsafe.Pointer(nil), true},
		{make(chan int), true}, {func() {}, true},
	} {
		if got := HasPointers(reflect.TypeOf(c.v)); got != c.want {
			t.Errorf("HasPointers(%T) = %v, want %v", c.v, got, c.want)
		}
	}
	if !HasPointers(reflect.TypeFor[any]()) || !HasPointers(reflect.TypeFor[error]()) {
		t.Error("an interface type holds a pointer")
	}
}
