package skel

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// HostSlice is a Go slice seen as bytes for upload or download, with its
// length and element size. Make one with Slice.
type HostSlice struct {
	bytes []byte
	n     int
	elem  int
}

// Slice wraps s without copying. T must be a number type or a struct of
// them whose layout matches the skeleton's Type (see Type.CheckGo).
func Slice[T any](s []T) HostSlice {
	var zero T
	return HostSlice{bytes: cl.Bytes(s), n: len(s), elem: int(unsafe.Sizeof(zero))}
}

// Len returns the number of elements.
func (h HostSlice) Len() int { return h.n }

// checkHost verifies element sizes against params and returns the common
// length of the slices (which must agree when same is true).
func checkHost(what string, hs []HostSlice, ps []Param) error {
	if len(hs) != len(ps) {
		return fmt.Errorf("%d %s given, %d expected", len(hs), what, len(ps))
	}
	for i, h := range hs {
		if h.elem != ps[i].Type.Size {
			return fmt.Errorf("%s %s: Go element of %d bytes, %s has %d", what, ps[i].Name, h.elem, ps[i].Type.Name, ps[i].Type.Size)
		}
	}
	return nil
}

// program is a built OpenCL program with its kernels, shared by the runs
// of one skeleton. Kernel arguments are state, so runs hold mu.
type program struct {
	dev     *device.Device
	src     string
	kernels map[string]*cl.Kernel
	wg      int // smallest CL_KERNEL_WORK_GROUP_SIZE over the kernels
	pref    int // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of the first
	mu      sync.Mutex
}

// buildOptions are passed to every build. No fast-math flags: results
// must match the CPU reference up to reassociation only.
const buildOptions = ""

func buildProgram(d *device.Device, src string, names ...string) (*program, error) {
	p, err := d.Program(src, buildOptions)
	if err != nil {
		return nil, err
	}
	pr := &program{dev: d, src: src, kernels: map[string]*cl.Kernel{}, wg: d.Info.MaxWorkGroupSize}
	for i, name := range names {
		k, err := p.CreateKernel(name)
		if err != nil {
			return nil, err
		}
		wg, err := k.WorkGroupSize(d.CL)
		if err != nil {
			return nil, err
		}
		pr.wg = min(pr.wg, wg)
		if i == 0 {
			if pr.pref, err = k.PreferredWorkGroupSizeMultiple(d.CL); err != nil {
				return nil, err
			}
		}
		pr.kernels[name] = k
	}
	return pr, nil
}

// Source returns the OpenCL C text of the program.
func (p *program) Source() string { return p.src }

// run records the events of one run to sum their device times.
type run struct {
	q         *cl.CommandQueue
	kernels   []*cl.Event
	transfers []*cl.Event
	recycle   []*cl.MemObject
	dev       *device.Device
}

func newRun(d *device.Device) *run { return &run{q: d.Queue, dev: d} }

func (r *run) launch(k *cl.Kernel, global, local int, args ...any) error {
	if err := k.SetArgs(args...); err != nil {
		return err
	}
	e, err := r.q.EnqueueNDRangeKernel(k, nil, []int{global}, []int{local}, nil)
	if err != nil {
		return err
	}
	r.kernels = append(r.kernels, e)
	return nil
}

// buffer takes a pooled buffer that finish returns to the pool.
func (r *run) buffer(size int) (*cl.MemObject, error) {
	b, err := r.dev.Buffer(size)
	if err == nil {
		r.recycle = append(r.recycle, b)
	}
	return b, err
}

func (r *run) upload(h HostSlice) (*cl.MemObject, error) {
	b, err := r.buffer(len(h.bytes))
	if err != nil {
		return nil, err
	}
	e, err := r.q.EnqueueWriteBuffer(b, true, 0, h.bytes, nil)
	if err != nil {
		return nil, err
	}
	r.transfers = append(r.transfers, e)
	return b, nil
}

// uploadAll uploads each host slice to a pooled device buffer.
func (r *run) uploadAll(hs []HostSlice) ([]*cl.MemObject, error) {
	bs := make([]*cl.MemObject, len(hs))
	for i, h := range hs {
		b, err := r.upload(h)
		if err != nil {
			return nil, err
		}
		bs[i] = b
	}
	return bs, nil
}

// buffersFor takes a pooled device buffer of each host slice's size.
func (r *run) buffersFor(hs []HostSlice) ([]*cl.MemObject, error) {
	bs := make([]*cl.MemObject, len(hs))
	for i, h := range hs {
		b, err := r.buffer(len(h.bytes))
		if err != nil {
			return nil, err
		}
		bs[i] = b
	}
	return bs, nil
}

func (r *run) download(b *cl.MemObject, h HostSlice) error {
	e, err := r.q.EnqueueReadBuffer(b, true, 0, h.bytes, nil)
	if err != nil {
		return err
	}
	r.transfers = append(r.transfers, e)
	return nil
}

// finish waits for the run, sums its times and releases its events and
// pooled buffers.
func (r *run) finish(err error) (Timing, error) {
	var t Timing
	if ferr := r.q.Finish(); err == nil {
		err = ferr
	}
	sum := func(es []*cl.Event) int64 {
		var ns int64
		for _, e := range es {
			if d, derr := e.Duration(); derr == nil {
				ns += int64(d)
			} else if err == nil {
				err = derr
			}
			e.Release()
		}
		return ns
	}
	t.Kernel = durationNS(sum(r.kernels))
	t.Transfer = durationNS(sum(r.transfers))
	t.Launches = len(r.kernels)
	r.dev.Recycle(r.recycle...)
	return t, err
}
