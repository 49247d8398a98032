package parallel

// This file allocates the outputs of generated kernels without clearing
// them on the caller's goroutine: Go's make zeroes a large slice with one
// sequential memclr before any chunk runs (half of a scan's sequential
// time at 3e7 elements, a fifth of the parallel scan's profile at 1e6:
// BENCHMARKS.md), which caps every parallel kernel writing a fresh output
// near 2x. Here the chunks write (first-touch) their own ranges instead.
// It does not decide which outputs may skip the clear: the generator
// calls Alloc only for outputs its kernel writes at every index it
// returns (see Alloc).

import (
	"reflect"
	"unsafe"

	"github.com/soacgen/soacgen/runtime/internal/layout"
)

// allocMin is the size in bytes below which Alloc simply calls make:
// clearing 64 KiB takes about 2 µs, under the work of one chunk
// (MinChunkNanos), and small allocations come from per-P caches anyway.
const allocMin = 64 << 10

// Alloc returns a slice of n elements of T. When T holds no pointers
// (numbers, bools, arrays and structs of them) and the slice is large,
// its contents are unspecified (not cleared): the caller must write every
// element before reading it, and must not hand out any element it did
// not write (generated code cuts a filter's output to its kept count and
// capacity). Otherwise, and for small slices, it is make([]T, n). n < 0
// panics as make does.
//
// It calls the runtime's allocator with its clearing turned off, through
// go:linkname (runtime.mallocgc is one of the symbols the runtime keeps
// for such callers, go.dev/issue/67401); the memory is an ordinary
// pointer-free heap object, collected as any other. Go offers no other
// way to allocate without clearing. A slice of a type with pointers is
// always cleared: the collector scans it.
func Alloc[T any](n int) []T {
	// The small case stays within the inliner's budget, so that a call
	// compiles to make's own runtime.makeslice at the caller: a
	// generated function below its grain allocates as the cpu backend's
	// does, with no call of a generic function through its dictionary
	// in between (HalfSqrts at n = 1 paid 2 ns for it). The bound is a constant
	// of each instantiation; a negative n takes make's own panic.
	if n < int(allocMin/max(unsafe.Sizeof(*new(T)), 1)) {
		return make([]T, n)
	}
	return allocLarge[T](n)
}

// allocLarge is Alloc of n elements of at least allocMin bytes, or of a
// length make refuses (its panic).
func allocLarge[T any](n int) []T {
	var zero T
	size := unsafe.Sizeof(zero)
	if n < 0 || uintptr(n) > maxAlloc/size {
		panic(errLen{})
	}
	if layout.HasPointers(reflect.TypeFor[T]()) {
		return make([]T, n)
	}
	p := mallocgc(uintptr(n)*size, nil, false)
	return unsafe.Slice((*T)(p), n)
}

// maxAlloc bounds an allocation's size so that n*size cannot overflow;
// the runtime refuses anything near it anyway.
const maxAlloc = 1 << 47

// errLen is Alloc's panic value for a length make would refuse.
type errLen struct{}

func (errLen) Error() string { return "runtime error: makeslice: len out of range" }
func (errLen) RuntimeError() {}

//go:linkname mallocgc runtime.mallocgc
func mallocgc(size uintptr, typ unsafe.Pointer, needzero bool) unsafe.Pointer
