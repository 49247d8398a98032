package skel

// This file moves single arrays between Go memory and device buffers
// that outlive a run, and runs a Redomap on such buffers with its
// arguments: what package launch needs to keep a spec's arrays on the
// device between its kernels. It does not decide which arrays stay
// (the generated code does) nor pool anything beyond the device's
// buffer pool.

import (
	"fmt"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// Upload copies h (at least one element) into a buffer of d's pool,
// through pinned staging where d's policy says so, and returns the
// buffer when it holds h; the caller returns it with d.Recycle.
func Upload(d *device.Device, h HostSlice) (*cl.MemObject, Timing, error) {
	if h.n == 0 {
		return nil, Timing{}, fmt.Errorf("upload of an empty slice")
	}
	var b *cl.MemObject
	kept := false
	t, err := doRun(d, func(r *run) (err error) {
		if b, err = r.upload(h); err == nil {
			r.recycle, kept = nil, true // the caller keeps the buffer
		}
		return err
	})
	if err != nil && kept {
		// The upload succeeded but its wait did not: the buffer was
		// not recycled with the run's.
		d.Recycle(b)
		b = nil
	}
	return b, t, err
}

// Download copies the first h.Len() elements of b into h, through pinned
// staging where d's policy says so.
func Download(d *device.Device, b *cl.MemObject, h HostSlice) (Timing, error) {
	if h.n == 0 {
		return Timing{}, nil
	}
	if b.Size() < len(h.bytes) {
		return Timing{}, fmt.Errorf("download of %d bytes from a buffer of %d", len(h.bytes), b.Size())
	}
	return doRun(d, func(r *run) error { return r.download(b, h) })
}

// RunDeviceArgs is RunDevice with the values of the skeleton's Args (as
// for RunArgs).
func (k *RedomapKernel) RunDeviceArgs(n int, vals []any, inputs, outputs, results []*cl.MemObject) (Timing, error) {
	return k.prog.do(func(r *run) error { return k.enqueue(r, n, vals, inputs, outputs, results) })
}
