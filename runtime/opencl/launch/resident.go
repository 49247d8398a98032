package launch

// This file keeps a spec's arrays on the device between its kernels.
// Within one call of a generated function, an array that a kernel writes
// and only later kernels of the call read stays in a device buffer: the
// kernel's output is an Array (Keep) instead of a Go slice, and a later
// kernel reads it as an input where it is (Dev). The host copy is made
// only when host code needs the array (Array.Host: a kernel that runs on
// the CPU, by its generated code's choice or at run time), once. The
// buffers come from the device's pool and go back to it when the array's
// last reader has run (Array.Release) or, at the latest, when the call
// returns or panics (Session.Release, deferred by the generated code).
//
// It does not decide which arrays stay on the device: the generator
// does, for arrays that nothing but later kernels of the same block read
// (rewrite/backend/opencl's resident.go).

import (
	"fmt"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// KeepOnDevice, when false (benchmarks set it, to measure what keeping
// saves), makes every run download what it would keep and every later
// run upload it again, as kernels without resident arrays do: Keep
// downloads at once and returns the buffer, Share uploads for one run.
var KeepOnDevice = true

// Session is the device state of one call of a generated function: the
// buffers of its Arrays. The zero value is ready; Release returns what is
// left of the buffers to the device's pool. A Session belongs to one
// goroutine (the call's).
type Session struct {
	d    *device.Device
	held []*held
	// uploads are the inputs uploaded once for the call (unwritten.go).
	uploads map[uploadKey]uploaded
}

// held is a buffer of a Session; b is nil once returned.
type held struct{ b *cl.MemObject }

// on makes d the session's device, unless it has one: every RunOn
// calls it before it holds a buffer.
func (s *Session) on(d *device.Device) {
	if s.d == nil {
		s.d = d
	}
}

// hold makes b the session's until released.
func (s *Session) hold(b *cl.MemObject) *held {
	h := &held{b}
	s.held = append(s.held, h)
	return h
}

// drop returns h's buffer to the pool now.
func (s *Session) drop(h *held) {
	if h.b == nil {
		return
	}
	s.d.Recycle(h.b)
	h.b = nil
	// Trim the returned buffers at the end, so that a loop whose arrays
	// are released in each round does not grow the list.
	for len(s.held) > 0 && s.held[len(s.held)-1].b == nil {
		s.held = s.held[:len(s.held)-1]
	}
}

// Release returns every buffer still held to the device's pool: the
// runs that used them have completed (each run finishes its queue before
// it returns: device.FinishQueue).
func (s *Session) Release() {
	for _, h := range s.held {
		if h.b != nil {
			s.d.Recycle(h.b)
			h.b = nil
		}
	}
	s.held = nil
	s.uploads = nil
}

// Array is an array a kernel left on the device: n elements of T in a
// buffer of its Session, and their host copy once Host made it. A nil
// *Array is an array the kernel that should have written it did not
// (it ran on the CPU): its Go variable holds it.
type Array[T any] struct {
	s    *Session
	h    *held
	n    int
	host []T
}

// Len returns the number of elements.
func (a *Array[T]) Len() int { return a.n }

// Host returns the elements in Go memory, downloading them the first
// time. The device copy stays until Release. A failed download panics:
// the device holds the only copy.
func (a *Array[T]) Host() []T {
	if a.host != nil {
		return a.host
	}
	if a.h.b == nil {
		panic("soacgen: internal error: a device array was read after its release")
	}
	host := make([]T, a.n)
	t, err := skel.Download(a.s.d, a.h.b, skel.Slice(host))
	if err != nil {
		panic(fmt.Sprintf("soacgen: OpenCL: the download of an array kept on the device failed: %v", err))
	}
	count(t)
	downloadN.Add(1)
	a.host = host
	return host
}

// Release returns the device copy to the pool; a nil a is left as is.
// Host must not be called afterwards unless it was called before.
func (a *Array[T]) Release() {
	if a != nil {
		a.s.drop(a.h)
	}
}

// Len returns the length of an array that a kernel may have left on the
// device (a) or that its Go variable holds (xs, when a is nil).
func Len[T any](a *Array[T], xs []T) int {
	if a != nil {
		return a.n
	}
	return len(xs)
}

// Input is an input array of RunOn: a Go slice to upload, or a device
// buffer that holds it.
type Input struct {
	host skel.HostSlice
	buf  *cl.MemObject
	n    int
	// share, when set, makes the uploaded buffer the shared Array.
	share func(s *Session, h *held)
}

// Host returns the input xs, uploaded for the run.
func Host[T any](xs []T) Input { return Input{host: skel.Slice(xs), n: len(xs)} }

// Dev returns the input a kernel may have left on the device (a) or that
// its Go variable holds (xs, when a is nil or was released).
func Dev[T any](a *Array[T], xs []T) Input {
	if a != nil && a.h.b != nil {
		return Input{buf: a.h.b, n: a.n}
	}
	if a != nil {
		return Host(a.host) // downloaded at once (KeepOnDevice false)
	}
	return Host(xs)
}

// Share returns the input xs, which later kernels of the call read
// too: the first run that reads it uploads it and makes *dst the Array
// holding both copies, later runs read the device's (Dev). The
// generator shares only an array that nothing writes between those
// kernels.
func Share[T any](dst **Array[T], xs []T) Input {
	if a := *dst; a != nil && a.h.b != nil {
		return Input{buf: a.h.b, n: a.n}
	}
	in := Host(xs)
	if !KeepOnDevice {
		return in
	}
	in.share = func(s *Session, h *held) { *dst = &Array[T]{s: s, h: h, n: len(xs), host: xs} }
	return in
}

// Output is an output array of RunOn: downloaded into a Go slice, or kept
// on the device as an Array.
type Output struct {
	host skel.HostSlice
	elem int
	// keep, when set, makes the run's buffer of b the kept Array.
	keep func(s *Session, h *held, n int)
	// eager downloads the kept Array and releases its buffer.
	eager func()
}

// Download returns the output downloaded into xs after the run.
func Download[T any](xs []T) Output {
	var zero T
	return Output{host: skel.Slice(xs), elem: int(unsafe.Sizeof(zero))}
}

// Keep returns the output kept on the device: after a run that succeeds,
// *dst is the Array holding it; after one that does not, *dst is left
// as it is (nil, in generated code).
func Keep[T any](dst **Array[T]) Output {
	var zero T
	var a *Array[T]
	return Output{elem: int(unsafe.Sizeof(zero)), keep: func(s *Session, h *held, n int) {
		a = &Array[T]{s: s, h: h, n: n}
		*dst = a
	}, eager: func() {
		a.Host()
		a.Release()
	}}
}

// The arrays moved by generated kernels so far in the process (see
// Transfers).
var uploadN, downloadN atomic.Int64

// Transfers returns how many arrays generated kernels have uploaded and
// downloaded so far in the process: one upload per kernel input that was
// not on the device, one download per output that was not kept there
// (a stream reduction's row among them, also a row of one element, and
// a grid's result) and per Array.Host and Matrix.Host that copied; Run and RunOn count alike. Captured
// slices, the reductions' one-element results and the panic flag are
// not counted. Tests read differences around a call.
func Transfers() (up, down int64) { return uploadN.Load(), downloadN.Load() }

// countRun adds the transfers of a run on host slices (Redomap.Run,
// Scan.Run, Filter.Run).
func countRun(inputs, outputs int) {
	uploadN.Add(int64(inputs))
	downloadN.Add(int64(outputs))
}

// RunOn is Run within session s, on inputs that may be on the device
// already (Dev) and with outputs that may stay there (Keep). It reports
// whether the outputs and results hold the kernel's, as Run does; after
// false no output was kept and the caller runs its CPU code.
func (r *Redomap) RunOn(s *Session, args []any, inputs []Input, outputs []Output, results []skel.HostSlice) bool {
	if len(inputs) == 0 || inputs[0].n == 0 {
		return false
	}
	n := inputs[0].n
	for _, in := range inputs {
		if in.n != n {
			return false
		}
	}
	for _, o := range outputs {
		if o.keep == nil && o.host.Len() != n {
			return false
		}
	}
	k := r.Kernel()
	if k == nil {
		return false
	}
	d := r.b.d
	s.on(d)
	ok, err := r.runOn(k, d, s, n, args, inputs, outputs, results)
	if err != nil {
		return fellBack(r.At, r.Spec.Name, r.b.fail(r.At, r.Spec.Name, err))
	}
	return ok || fellBack(r.At, r.Spec.Name, whyFlag)
}

// runOn is RunOn's device part: false with a nil error when a
// work-item's panic flag is set.
func (r *Redomap) runOn(k *skel.RedomapKernel, d *device.Device, s *Session, n int, args []any, inputs []Input, outputs []Output, results []skel.HostSlice) (bool, error) {
	var temp, kept []*cl.MemObject // returned after the run; kept too unless it succeeds
	success := false
	defer func() {
		d.Recycle(temp...)
		if !success {
			d.Recycle(kept...)
		}
	}()
	take := func(size int) (*cl.MemObject, error) {
		b, err := d.Buffer(size)
		if err == nil {
			temp = append(temp, b)
		}
		return b, err
	}
	// Host inputs are uploaded and downloaded outputs moved by the run
	// itself (skel's RunDeviceHost), in pieces that overlap the kernel
	// where the device's policy cuts it.
	ins := make([]*cl.MemObject, len(inputs))
	up := make([]skel.HostSlice, len(inputs))
	var shared []int // inputs whose buffer becomes the shared Array
	for i, in := range inputs {
		if in.buf != nil {
			ins[i] = in.buf
			continue
		}
		b, err := d.Buffer(in.host.Len() * r.Spec.Inputs[i].Type.Size)
		if err != nil {
			return false, err
		}
		if in.share != nil {
			shared = append(shared, i)
			kept = append(kept, b) // until the run has filled it
		} else {
			temp = append(temp, b)
		}
		ins[i], up[i] = b, in.host
	}
	outs := make([]*cl.MemObject, len(outputs))
	for i, o := range outputs {
		if o.keep == nil {
			b, err := take(n * o.elem)
			if err != nil {
				return false, err
			}
			outs[i] = b
			continue
		}
		b, err := d.Buffer(n * o.elem)
		if err != nil {
			return false, err
		}
		kept = append(kept, b)
		outs[i] = b
	}
	reds := r.Spec.Reductions
	res := make([]*cl.MemObject, len(reds))
	for i, red := range reds {
		b, err := take(red.Type.Size)
		if err != nil {
			return false, err
		}
		res[i] = b
	}
	u := uploads{d: d}
	defer u.release()
	vals, err := u.expand(args)
	if err != nil {
		return false, err
	}
	down := make([]skel.HostSlice, len(outputs))
	for i, o := range outputs {
		if o.keep == nil {
			down[i] = o.host
		}
	}
	t, err := k.RunDeviceHost(n, vals, ins, up, outs, down, res)
	if err != nil {
		return false, err
	}
	count(t)
	for _, i := range shared {
		// Kept whatever the flag says: the buffer holds xs.
		inputs[i].share(s, s.hold(ins[i]))
		kept = slices.DeleteFunc(kept, func(b *cl.MemObject) bool { return b == ins[i] })
	}
	for i := range inputs {
		if inputs[i].buf == nil {
			uploadN.Add(1)
		}
	}
	var flag [1]int32
	if err := r.download(d, res[len(res)-1], skel.Slice(flag[:])); err != nil || flag[0] != 0 {
		return false, err
	}
	for i, h := range results {
		if err := r.download(d, res[i], h); err != nil {
			return false, err
		}
	}
	for _, o := range outputs {
		if o.keep == nil {
			downloadN.Add(1)
		}
	}
	if err := u.download(); err != nil {
		return false, err
	}
	success = true
	keepOutputs(s, outputs, outs, n)
	return true, nil
}

// download copies b into h, adding its time to the process's transfers.
func (r *Redomap) download(d *device.Device, b *cl.MemObject, h skel.HostSlice) error {
	t, err := skel.Download(d, b, h)
	count(t)
	return err
}

// keepOutputs gives each output kept on the device its buffer of outs
// (n elements) once a run succeeded, and, with KeepOnDevice off,
// downloads the eager ones at once.
func keepOutputs(s *Session, outputs []Output, outs []*cl.MemObject, n int) {
	for i, o := range outputs {
		if o.keep != nil {
			o.keep(s, s.hold(outs[i]), n)
		}
	}
	if !KeepOnDevice {
		for _, o := range outputs {
			if o.eager != nil {
				o.eager()
			}
		}
	}
}
