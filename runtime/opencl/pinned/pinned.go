package pinned

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
	"unsafe"

	"github.com/soacgen/soacgen/runtime/internal/layout"
	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// pageSize rounds every region's buffer up: drivers pin whole pages, and
// the rounding makes the bytes just past a slice's end readable host
// memory that is not part of its region (the tests cross that end).
const pageSize = 4096

// region is one live allocation: a mapped buffer of dev and the bytes of
// it that Make handed out, [start, end).
type region struct {
	dev        *device.Device
	buf        *cl.MemObject
	host       []byte // the whole mapping, for unmapping
	start, end uintptr
}

// regions holds the live regions sorted by start; they never overlap.
var (
	mu      sync.RWMutex
	regions []*region
)

// Make returns a slice of n zeroed elements of T in page-locked host
// memory of the default device (device.Default) and the function that
// frees it, or, as the package documentation says, ordinary Go memory and
// a free that does nothing. It panics if n < 0 or if T holds pointers.
func Make[T any](n int) (s []T, free func()) {
	checkType[T](n)
	d, err := device.Default()
	if err != nil || !d.Info.IsGPU() {
		return make([]T, n), func() {}
	}
	return MakeOn[T](d, n)
}

// MakeOn is Make on device d, whatever its type: on a CPU device too
// (tests use it to exercise the pinned path on PoCL). A nil d gives Go
// memory.
func MakeOn[T any](d *device.Device, n int) (s []T, free func()) {
	checkType[T](n)
	size := int(unsafe.Sizeof(*new(T)))
	if d == nil || n == 0 || size == 0 || int64(n) > d.Info.MaxMemAllocSize/int64(size) {
		return make([]T, n), func() {}
	}
	r, err := alloc(d, n*size, int(unsafe.Alignof(*new(T))))
	if err != nil {
		return make([]T, n), func() {}
	}
	s = unsafe.Slice((*T)(unsafe.Pointer(&r.host[0])), n)
	clear(s)
	var once sync.Once
	return s, func() { once.Do(r.free) }
}

// checkType panics, as make does, on a negative length, and on an element
// type the collector would have to scan.
func checkType[T any](n int) {
	if n < 0 {
		panic(fmt.Sprintf("pinned: negative length %d", n))
	}
	if t := reflect.TypeFor[T](); layout.HasPointers(t) {
		panic(fmt.Sprintf("pinned: element type %v holds pointers, which the collector would not see in non-Go memory", t))
	}
}

// alloc creates and maps a CL_MEM_ALLOC_HOST_PTR buffer of at least size
// bytes on d and registers its first size bytes, which it checks are
// aligned to align.
func alloc(d *device.Device, size, align int) (*region, error) {
	full := (size + pageSize - 1) &^ (pageSize - 1)
	b, err := d.Ctx.CreateEmptyBuffer(cl.MemReadWrite|cl.MemAllocHostPtr, full)
	if err != nil {
		return nil, err
	}
	host, ev, err := d.Queue.EnqueueMapBuffer(b, true, cl.MapRead|cl.MapWrite, 0, full, nil)
	if err != nil {
		b.Release()
		return nil, err
	}
	ev.Release()
	r := &region{dev: d, buf: b, host: host, start: uintptr(unsafe.Pointer(&host[0]))}
	r.end = r.start + uintptr(size)
	if r.start%uintptr(align) != 0 {
		r.release()
		return nil, fmt.Errorf("pinned: mapping at %#x not aligned to %d bytes", r.start, align)
	}
	mu.Lock()
	i, _ := slices.BinarySearchFunc(regions, r.start, func(x *region, p uintptr) int { return cmpAddr(x.start, p) })
	regions = slices.Insert(regions, i, r)
	mu.Unlock()
	return r, nil
}

func cmpAddr(a, b uintptr) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// free unregisters r, then unmaps and releases its buffer.
func (r *region) free() {
	mu.Lock()
	if i := slices.Index(regions, r); i >= 0 {
		regions = slices.Delete(regions, i, i+1)
	}
	mu.Unlock()
	r.release()
}

// release unmaps and releases r's buffer. Errors are ignored: the buffer
// is released either way, and free has no caller to report to.
func (r *region) release() {
	if e, err := r.dev.Queue.EnqueueUnmapMemObject(r.buf, r.host, nil); err == nil {
		e.Wait()
		e.Release()
	}
	r.buf.Release()
}

// find returns the live region that holds all of [p, p+n), or nil.
func find(p, n uintptr) *region {
	if n == 0 {
		return nil
	}
	mu.RLock()
	defer mu.RUnlock()
	// The last region starting at or before p is the only candidate.
	i, found := slices.BinarySearchFunc(regions, p, func(x *region, p uintptr) int { return cmpAddr(x.start, p) })
	if !found {
		i--
	}
	if i < 0 {
		return nil
	}
	if r := regions[i]; p+n >= p && p+n <= r.end {
		return r
	}
	return nil
}

// Contains reports whether the bytes b lie wholly inside memory that Make
// or MakeOn mapped on device d and has not freed: memory d's queue can
// transfer directly. An empty b is never contained. Package skel calls it
// on every transfer.
func Contains(d *device.Device, b []byte) bool {
	if len(b) == 0 {
		return false
	}
	r := find(uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	return r != nil && r.dev == d
}

// Is reports whether s lies wholly inside pinned memory (of any device)
// that has not been freed, that is, whether Make gave pinned memory
// rather than falling back to Go memory.
func Is[T any](s []T) bool {
	return len(s) > 0 && find(uintptr(unsafe.Pointer(&s[0])), uintptr(len(s))*unsafe.Sizeof(s[0])) != nil
}
