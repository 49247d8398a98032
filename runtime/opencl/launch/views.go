package launch

// This file passes captured slices to generated kernels: a []T a lambda
// reads becomes a read-only device buffer of its elements and its length,
// a [][]T one buffer of all rows' elements back to back, a buffer of the
// row offsets and the length (package rewrite/clc's Capture). Each call
// uploads them into buffers of the device's pool and returns the buffers
// after the run. It does not check element types: the generator passes
// the slice the lambda captures, whose element layout clc translated.

import (
	"errors"
	"slices"
	"unsafe"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
	"github.com/soacgen/soacgen/runtime/parallel"
)

// view is a captured slice on the host: its elements' bytes, its row
// offsets (a [][]T; nil for a []T) and its length; or, with out set, a
// slice the kernel writes (see Out).
type view struct {
	data []byte
	off  []int64
	n    int64
	out  bool
	// s, when set, is the session that uploads the slice once for the
	// call (ViewUnwritten); host is the slice, kept reachable.
	s    *Session
	host any
	// buf, when set, is the device buffer of an Array that holds the
	// slice (ViewDev), or of a Matrix that holds the rows (RowsDev, off
	// then their offsets): the kernel reads it without an upload.
	buf *cl.MemObject
	// keep, with out set, makes the run's buffer of size bytes a kept
	// Matrix instead of a download (KeepRows; Grid.RunOn hands it
	// over).
	keep func(s *Session, h *held)
	size int
	// slab, when set, is the page-locked memory data lies in (Rows),
	// returned when the run that uploads it is released; repack packs
	// the rows again for a later run of the same arguments (a kernel
	// tried after another), whose slab may since be another call's.
	slab   *slabRef
	repack func() ([]byte, *slabRef)
}

// Out returns the kernel argument of a slice the kernel writes: a device
// buffer of its size, downloaded into it after a run that succeeds (the
// rows of a lambda's slice results, back to back; see Split).
func Out[T any](xs []T) any {
	return view{data: cl.Bytes(xs), n: int64(len(xs)), out: true}
}

// Span is the place of one row of a [][]T input in its flattened
// elements (Flatten): the element code reads row i as data[Start:Start+Len].
type Span struct {
	Start, Len int64
}

// Flatten returns the spans and the elements, back to back, of a [][]T
// kernel input: the spans are the skeleton's input, the elements a
// read-only buffer (View).
func Flatten[T any](xss [][]T) ([]Span, []T) {
	spans := make([]Span, len(xss))
	off := make([]int64, len(xss)+1)
	for i, r := range xss {
		spans[i] = Span{off[i], int64(len(r))}
		off[i+1] = off[i] + int64(len(r))
	}
	data := parallel.Alloc[T](int(off[len(xss)]))
	packRows(data, xss, off)
	return spans, data
}

// MaxLen returns the length of the longest row of xss: the room each
// row of a slice result gets when the lambda maps a row.
func MaxLen[T any](xss [][]T) int {
	m := 0
	for _, r := range xss {
		m = max(m, len(r))
	}
	return m
}

// Split returns the rows of a kernel's slice results: row i is the
// first lens[i] of the c elements at flat[i*c:], capped there so that an
// append to one row cannot reach the next. The kernel has checked that
// no row is longer than c (its panic flag is set otherwise).
func Split[T any](flat []T, lens []int64, c int) [][]T {
	rows := make([][]T, len(lens))
	for i, n := range lens {
		lo := i * c
		rows[i] = flat[lo : lo+int(n) : lo+int(n)]
	}
	return rows
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
	pack := func() ([]byte, *slabRef) {
		data, slab := packInto[T](off[len(xss)])
		packRows(data, xss, off)
		return cl.Bytes(data), slab
	}
	data, slab := pack()
	v := view{data: data, off: off, n: int64(len(xss)), slab: slab}
	if slab != nil {
		v.repack = pack
	}
	return v
}

// minBuffer is the size of the buffer of an empty slice: OpenCL has no
// empty buffers, and the kernel reads none of it (its length is 0).
const minBuffer = 8

// uploads are the pooled buffers of one run's captured slices, and the
// buffers to download into slices the kernel writes.
type uploads struct {
	d     *device.Device
	bufs  []*cl.MemObject
	outs  []*cl.MemObject
	dests [][]byte
	// s is the session of a run that may keep outputs on the device
	// (KeepRows; nil for a run outside one). kept are their buffers and
	// keeps what makes each its Matrix once the run succeeded (keepAll);
	// release returns those not handed over.
	s     *Session
	kept  []*cl.MemObject
	keeps []func(s *Session, h *held)
	// slabs are the packing slabs of the run's views (Rows), returned
	// by release: their uploads are done by then.
	slabs []*slabRef
}

// upload writes b into a pooled buffer (blocking, so that b may change
// after it returns; through skel's pinned staging on GPUs) and returns
// it.
func (u *uploads) upload(b []byte) (*cl.MemObject, error) {
	buf, err := u.d.Buffer(max(len(b), minBuffer))
	if err != nil {
		return nil, err
	}
	u.bufs = append(u.bufs, buf)
	if len(b) == 0 {
		return buf, nil
	}
	t, err := skel.Write(u.d, buf, b)
	if err != nil {
		return nil, err
	}
	transferNs.Add(int64(t))
	return buf, nil
}

// expand returns the kernel argument values of args: a view becomes its
// buffers and length (the order of clc's Capture.KernelParams), any other
// value stays. Release returns the buffers to the pool.
func (u *uploads) expand(args []any) ([]any, error) {
	var vals []any
	for i, a := range args {
		v, ok := a.(view)
		if !ok || v.slab == nil {
			continue
		}
		if v.slab.done.Load() {
			// An earlier run of these arguments gave the slab back.
			v.data, v.slab = v.repack()
			args = slices.Clone(args)
			args[i] = v
		}
		if v.slab != nil {
			u.slabs = append(u.slabs, v.slab)
		}
	}
	for _, a := range args {
		v, ok := a.(view)
		if !ok {
			vals = append(vals, a)
			continue
		}
		if v.out && v.keep != nil {
			if u.s == nil {
				return nil, errors.New("soacgen: internal error: a result kept on the device outside a session")
			}
			b, err := u.d.Buffer(max(v.size, minBuffer))
			if err != nil {
				return nil, err
			}
			u.kept, u.keeps = append(u.kept, b), append(u.keeps, v.keep)
			vals = append(vals, b)
			continue
		}
		if v.out {
			b, err := u.d.Buffer(max(len(v.data), minBuffer))
			if err != nil {
				return nil, err
			}
			u.bufs = append(u.bufs, b)
			u.outs, u.dests = append(u.outs, b), append(u.dests, v.data)
			vals = append(vals, b)
			continue
		}
		switch b := v.devBuffer(); {
		case b != nil:
			viewDevN.Add(1)
			vals = append(vals, b)
		case v.s != nil:
			p, err := u.uploadOnce(v)
			if err != nil {
				return nil, err
			}
			vals = append(vals, p, v.n)
			continue
		default:
			p, err := u.upload(v.data)
			if err != nil {
				return nil, err
			}
			viewN.Add(1)
			vals = append(vals, p)
		}
		// A [][]T's row offsets, uploaded for the run.
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

// download copies the buffers the kernel wrote into their slices.
func (u *uploads) download() error {
	for i, b := range u.outs {
		if len(u.dests[i]) == 0 {
			continue
		}
		t, err := skel.Read(u.d, b, u.dests[i])
		if err != nil {
			return err
		}
		transferNs.Add(int64(t))
	}
	return nil
}

// release returns the run's buffers to the pool (the queue is in order:
// later users of a buffer run after the kernels that read it).
func (u *uploads) release() {
	u.d.Recycle(u.bufs...)
	u.d.Recycle(u.kept...)
	for _, r := range u.slabs {
		r.put()
	}
	u.slabs = nil
}

// keepAll hands the kept outputs' buffers over to the run's session,
// after a run that succeeded.
func (u *uploads) keepAll() {
	for i, b := range u.kept {
		u.keeps[i](u.s, u.s.hold(b))
	}
	u.kept, u.keeps = nil, nil
}
