package cl

import (
	"fmt"
	"runtime"
	"unsafe"
)

// waitList returns the ids of events and a pointer to the first, or 0.
func waitList(events []*Event) ([]uintptr, uintptr) {
	if len(events) == 0 {
		return nil, 0
	}
	ids := make([]uintptr, len(events))
	for i, e := range events {
		ids[i] = e.id
	}
	return ids, uintptr(unsafe.Pointer(&ids[0]))
}

// sizes copies ints to size_t values; nil stays nil.
func sizes(xs []int) ([]uintptr, uintptr) {
	if xs == nil {
		return nil, 0
	}
	s := make([]uintptr, len(xs))
	for i, x := range xs {
		s[i] = uintptr(x)
	}
	return s, uintptr(unsafe.Pointer(&s[0]))
}

// EnqueueNDRangeKernel launches kernel over global work-items in groups of
// local (nil lets the driver choose) after the events in wait. offset may
// be nil.
func (q *CommandQueue) EnqueueNDRangeKernel(kernel *Kernel, offset, global, local []int, wait []*Event) (*Event, error) {
	l, err := lib()
	if err != nil {
		return nil, err
	}
	if len(global) == 0 || (offset != nil && len(offset) != len(global)) || (local != nil && len(local) != len(global)) {
		return nil, fmt.Errorf("EnqueueNDRangeKernel %s: dimensions of offset %v, global %v, local %v differ", kernel.name, offset, global, local)
	}
	o, op := sizes(offset)
	g, gp := sizes(global)
	lo, lp := sizes(local)
	w, wp := waitList(wait)
	var ev uintptr
	code := status(l.EnqueueNDRangeKernel, q.id, kernel.id, uintptr(len(global)), op, gp, lp, uintptr(len(w)), wp, uintptr(unsafe.Pointer(&ev)))
	runtime.KeepAlive(o)
	runtime.KeepAlive(g)
	runtime.KeepAlive(lo)
	runtime.KeepAlive(w)
	if err := check("clEnqueueNDRangeKernel", code); err != nil {
		return nil, fmt.Errorf("kernel %s (global %v, local %v): %w", kernel.name, global, local, err)
	}
	return &Event{id: ev}, nil
}

func checkRange(call string, b *MemObject, offset, n int) error {
	if offset < 0 || n < 0 || offset+n > b.size {
		return fmt.Errorf("%s: range [%d, %d) outside buffer of %d bytes", call, offset, offset+n, b.size)
	}
	return nil
}

// EnqueueReadBuffer copies len(dst) bytes at offset in buffer to dst. A
// blocking read returns when dst is filled; a non-blocking one pins dst
// until the returned event is waited for or released.
func (q *CommandQueue) EnqueueReadBuffer(buffer *MemObject, blocking bool, offset int, dst []byte, wait []*Event) (*Event, error) {
	return q.transfer("clEnqueueReadBuffer", buffer, blocking, offset, dst, wait)
}

// EnqueueWriteBuffer copies src to buffer at offset. A blocking write
// returns when src may be reused; a non-blocking one pins src until the
// returned event is waited for or released.
func (q *CommandQueue) EnqueueWriteBuffer(buffer *MemObject, blocking bool, offset int, src []byte, wait []*Event) (*Event, error) {
	return q.transfer("clEnqueueWriteBuffer", buffer, blocking, offset, src, wait)
}

func (q *CommandQueue) transfer(name string, buffer *MemObject, blocking bool, offset int, data []byte, wait []*Event) (*Event, error) {
	l, err := lib()
	if err != nil {
		return nil, err
	}
	if err := checkRange(name, buffer, offset, len(data)); err != nil {
		return nil, err
	}
	fn := l.EnqueueReadBuffer
	if name == "clEnqueueWriteBuffer" {
		fn = l.EnqueueWriteBuffer
	}
	w, wp := waitList(wait)
	var ev uintptr
	if len(data) == 0 {
		// Nothing to move; a marker keeps the event semantics.
		code := status(l.EnqueueBarrierWithWaitList, q.id, uintptr(len(w)), wp, uintptr(unsafe.Pointer(&ev)))
		runtime.KeepAlive(w)
		if err := check("clEnqueueBarrierWithWaitList", code); err != nil {
			return nil, err
		}
		return &Event{id: ev}, nil
	}
	var pin *runtime.Pinner
	if !blocking {
		pin = new(runtime.Pinner)
		pin.Pin(&data[0])
	}
	var b uintptr
	if blocking {
		b = 1
	}
	code := status(fn, q.id, buffer.id, b, uintptr(offset), uintptr(len(data)), uintptr(unsafe.Pointer(&data[0])), uintptr(len(w)), wp, uintptr(unsafe.Pointer(&ev)))
	runtime.KeepAlive(w)
	if err := check(name, code); err != nil {
		if pin != nil {
			pin.Unpin()
		}
		return nil, err
	}
	return &Event{id: ev, pin: pin}, nil
}

// EnqueueCopyBuffer copies n bytes from src at srcOffset to dst at
// dstOffset on the device.
func (q *CommandQueue) EnqueueCopyBuffer(src, dst *MemObject, srcOffset, dstOffset, n int, wait []*Event) (*Event, error) {
	l, err := lib()
	if err != nil {
		return nil, err
	}
	if err := checkRange("clEnqueueCopyBuffer", src, srcOffset, n); err != nil {
		return nil, err
	}
	if err := checkRange("clEnqueueCopyBuffer", dst, dstOffset, n); err != nil {
		return nil, err
	}
	w, wp := waitList(wait)
	var ev uintptr
	code := status(l.EnqueueCopyBuffer, q.id, src.id, dst.id, uintptr(srcOffset), uintptr(dstOffset), uintptr(n), uintptr(len(w)), wp, uintptr(unsafe.Pointer(&ev)))
	runtime.KeepAlive(w)
	if err := check("clEnqueueCopyBuffer", code); err != nil {
		return nil, err
	}
	return &Event{id: ev}, nil
}

// Bytes views a slice of fixed-size elements (numbers or structs of them)
// as its bytes, without copying. The result aliases s.
func Bytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// MapFlag is a cl_map_flags bit set.
type MapFlag uint64

// Map flags, as in cl.h.
const (
	MapRead  MapFlag = 1 << 0
	MapWrite MapFlag = 1 << 1
)

// EnqueueMapBuffer maps size bytes at offset of buffer into the host's
// address space and returns them as a byte slice aliasing the mapping
// (memory the Go collector does not manage: it stays valid until
// EnqueueUnmapMemObject, whatever references remain). A non-blocking map
// may be read or written only after its event completes.
func (q *CommandQueue) EnqueueMapBuffer(buffer *MemObject, blocking bool, flags MapFlag, offset, size int, wait []*Event) ([]byte, *Event, error) {
	l, err := lib()
	if err != nil {
		return nil, nil, err
	}
	if err := checkRange("clEnqueueMapBuffer", buffer, offset, size); err != nil {
		return nil, nil, err
	}
	if size == 0 {
		return nil, nil, fmt.Errorf("clEnqueueMapBuffer: empty range")
	}
	var b uintptr
	if blocking {
		b = 1
	}
	w, wp := waitList(wait)
	var ev uintptr
	var code int32
	ptr := call(l.EnqueueMapBuffer, q.id, buffer.id, b, uintptr(flags), uintptr(offset), uintptr(size), uintptr(len(w)), wp, uintptr(unsafe.Pointer(&ev)), uintptr(unsafe.Pointer(&code)))
	runtime.KeepAlive(w)
	if err := check("clEnqueueMapBuffer", code); err != nil {
		return nil, nil, err
	}
	if ptr == 0 {
		return nil, nil, fmt.Errorf("clEnqueueMapBuffer: null mapping")
	}
	return cBytes(ptr, size), &Event{id: ev}, nil
}

// EnqueueUnmapMemObject ends a mapping that EnqueueMapBuffer returned.
func (q *CommandQueue) EnqueueUnmapMemObject(buffer *MemObject, mapped []byte, wait []*Event) (*Event, error) {
	l, err := lib()
	if err != nil {
		return nil, err
	}
	if len(mapped) == 0 {
		return nil, fmt.Errorf("clEnqueueUnmapMemObject: empty mapping")
	}
	w, wp := waitList(wait)
	var ev uintptr
	code := status(l.EnqueueUnmapMemObject, q.id, buffer.id, uintptr(unsafe.Pointer(&mapped[0])), uintptr(len(w)), wp, uintptr(unsafe.Pointer(&ev)))
	runtime.KeepAlive(w)
	if err := check("clEnqueueUnmapMemObject", code); err != nil {
		return nil, err
	}
	return &Event{id: ev}, nil
}

// cBytes views n bytes of C memory at p as a slice. The conversion goes
// through a pointer to p so that it states its intent: p is not Go
// memory, so the collector neither moves nor frees it.
func cBytes(p uintptr, n int) []byte {
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), n)
}
