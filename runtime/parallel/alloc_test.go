package parallel_test

// Alloc: lengths and capacities as make's, make's panic for a negative
// length, memory that stays valid across collections when a parallel For
// writes it, and small slices cleared.

import (
	"runtime"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/runtime/parallel"
)

func TestAllocLengths(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8191, 8192, 8193, 1 << 20} {
		f := parallel.Alloc[float64](n)
		if len(f) != n || cap(f) != n {
			t.Errorf("Alloc[float64](%d): len %d cap %d", n, len(f), cap(f))
		}
		b := parallel.Alloc[uint8](n)
		if len(b) != n || cap(b) != n {
			t.Errorf("Alloc[uint8](%d): len %d cap %d", n, len(b), cap(b))
		}
		if n == 0 && (f == nil || b == nil) {
			t.Errorf("Alloc(0) is nil; make gives an empty non-nil slice")
		}
	}
}

func TestAllocSmallIsCleared(t *testing.T) {
	// Dirty the allocator's small objects first, so that a missing clear
	// would show.
	for range 100 {
		d := make([]int64, 1000)
		for i := range d {
			d[i] = -1
		}
		runtime.KeepAlive(d)
	}
	runtime.GC()
	for range 100 {
		for i, v := range parallel.Alloc[int64](1000) {
			if v != 0 {
				t.Fatalf("Alloc[int64](1000)[%d] = %d, want 0 (small slices are made)", i, v)
			}
		}
	}
}

func TestAllocNegativePanics(t *testing.T) {
	for _, n := range []int{-1, 1 << 62} {
		func() {
			defer func() {
				r := recover()
				e, ok := r.(runtime.Error)
				if !ok || !strings.Contains(e.Error(), "len out of range") {
					t.Errorf("Alloc(%d) panicked with %v, want a runtime.Error: len out of range", n, r)
				}
			}()
			parallel.Alloc[float64](n)
		}()
	}
}

func TestAllocWrittenInParallelSurvivesGC(t *testing.T) {
	const n = 1 << 20
	outs := make([][]int, 4)
	for k := range outs {
		out := parallel.Alloc[int](n)
		parallel.For(n, 1000, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				out[i] = i*7 + k
			}
		})
		outs[k] = out
		runtime.GC() // the earlier slices must stay live and unchanged
	}
	for k, out := range outs {
		for i, v := range out {
			if v != i*7+k {
				t.Fatalf("slice %d [%d] = %d, want %d", k, i, v, i*7+k)
			}
		}
	}
}

func TestAllocWithPointersIsCleared(t *testing.T) {
	type withPtr struct {
		X float64
		P *int
	}
	for range 20 {
		d := make([]*int, 1<<16)
		v := 1
		for i := range d {
			d[i] = &v
		}
		runtime.KeepAlive(d)
	}
	runtime.GC()
	for i, p := range parallel.Alloc[*int](1 << 16) {
		if p != nil {
			t.Fatalf("Alloc[*int](1<<16)[%d] = %p, want nil (types with pointers are made)", i, p)
		}
	}
	for i, s := range parallel.Alloc[withPtr](1 << 16) {
		if s != (withPtr{}) {
			t.Fatalf("Alloc[withPtr](1<<16)[%d] = %v, want the zero value", i, s)
		}
	}
}
