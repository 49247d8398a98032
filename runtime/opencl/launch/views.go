package launch

// This file passes captured slices to generated kernels: a []T a lambda
// reads becomes a read-only device buffer of its elements and its length,
// a [][]T one buffer of all rows' elements back to back, a buffer of the
// row offsets and the length (package rewrite/clc's Capture). Each call
// uploads them into buffers of the device's pool and returns the buffers
// after the run. It does not check element types: the generator passes
// the slice the lambda captures, whose element layout clc translated.

import (
	"unsafe"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// view is a captured slice on the host: its elements' bytes, its row
// offsets (a [][]T; nil for a []T) and its length.
type view struct {
	data []byte
	off  []int64
	n    int64
}

// View returns the kernel argument of a captured []T (see Redomap.Run).
func View[T any](xs []T) any {
	return view{data: cl.Bytes(xs), n: int64(len(xs))}
}

// Rows returns the kernel argument of a captured [][]T: its rows copied
// back to back and their offsets, row i being data[off[i]:off[i+1]].
func Rows[T any](xss [][]T) any {
	off := make([]int64, len(xss)+1)
	for i, r := range xss {
		off[i+1] = off[i] + int64(len(r))
	}
	data := make([]T, 0, off[len(xss)])
	for _, r := range xss {
		data = append(data, r...)
	}
	return view{data: cl.Bytes(data), off: off, n: int64(len(xss))}
}

// minBuffer is the size of the buffer of an empty slice: OpenCL has no
// empty buffers, and the kernel reads none of it (its length is 0).
const minBuffer = 8

// uploads are the pooled buffers of one run's captured slices.
type uploads struct {
	d    *device.Device
	bufs []*cl.MemObject
}

// upload writes b into a pooled buffer (blocking, so that b may change
// after it returns) and returns it.
func (u *uploads) upload(b []byte) (*cl.MemObject, error) {
	buf, err := u.d.Buffer(max(len(b), minBuffer))
	if err != nil {
		return nil, err
	}
	u.bufs = append(u.bufs, buf)
	if len(b) == 0 {
		return buf, nil
	}
	e, err := u.d.Queue.EnqueueWriteBuffer(buf, true, 0, b, nil)
	if err != nil {
		return nil, err
	}
	if t, err := e.Duration(); err == nil {
		transferNs.Add(int64(t))
	}
	e.Release()
	return buf, nil
}

// expand returns the kernel argument values of args: a view becomes its
// buffers and length (the order of clc's Capture.KernelParams), any other
// value stays. Release returns the buffers to the pool.
func (u *uploads) expand(args []any) ([]any, error) {
	var vals []any
	for _, a := range args {
		v, ok := a.(view)
		if !ok {
			vals = append(vals, a)
			continue
		}
		p, err := u.upload(v.data)
		if err != nil {
			return nil, err
		}
		vals = append(vals, p)
		if v.off != nil {
			o, err := u.upload(unsafe.Slice((*byte)(unsafe.Pointer(&v.off[0])), len(v.off)*8))
			if err != nil {
				return nil, err
			}
			vals = append(vals, o)
		}
		vals = append(vals, v.n)
	}
	return vals, nil
}

// release returns the run's buffers to the pool (the queue is in order:
// later users of a buffer run after the kernels that read it).
func (u *uploads) release() {
	u.d.Recycle(u.bufs...)
}
