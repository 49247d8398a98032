package skel

import (
	"fmt"
	"sync"
	"time"
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

// Prefix returns the first n elements of h (n <= h.Len()).
func (h HostSlice) Prefix(n int) HostSlice {
	return HostSlice{bytes: h.bytes[:n*h.elem], n: n, elem: h.elem}
}

// checkHost verifies the number of slices and their element sizes against
// params.
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

// checkRun checks the host slices of a Run against a skeleton's inputs,
// outputs and reductions: element sizes, one length shared by the inputs
// and outputs, and one element per result. It returns that length.
func checkRun(inputs, outputs, results []HostSlice, ins, outs []Param, reds []Reduction) (int, error) {
	if err := checkHost("inputs", inputs, ins); err != nil {
		return 0, err
	}
	if err := checkHost("outputs", outputs, outs); err != nil {
		return 0, err
	}
	rps := make([]Param, len(reds))
	for i, red := range reds {
		rps[i] = Param{red.Name, red.Type}
	}
	if err := checkHost("results", results, rps); err != nil {
		return 0, err
	}
	n := inputs[0].n
	for _, hs := range [][]HostSlice{inputs, outputs} {
		for _, h := range hs {
			if h.n != n {
				return 0, fmt.Errorf("lengths differ: %d and %d", n, h.n)
			}
		}
	}
	for _, h := range results {
		if h.n != 1 {
			return 0, fmt.Errorf("a result slice must have one element, not %d", h.n)
		}
	}
	return n, nil
}

// checkBuffers checks the device buffers of a run over n elements against a
// skeleton's inputs, outputs and number of reductions: as many buffers as
// declared, and room for n elements in each input and output.
func checkBuffers(n int, inputs, outputs, results []*cl.MemObject, ins, outs []Param, reds []Reduction) error {
	if len(inputs) != len(ins) || len(outputs) != len(outs) || len(results) != len(reds) {
		return fmt.Errorf("got %d inputs, %d outputs, %d results; want %d, %d, %d", len(inputs), len(outputs), len(results), len(ins), len(outs), len(reds))
	}
	for i, b := range results {
		if b.Size() < reds[i].Type.Size {
			return fmt.Errorf("result %s: buffer of %d bytes for one %d-byte value", reds[i].Name, b.Size(), reds[i].Type.Size)
		}
	}
	for _, c := range []struct {
		what string
		bs   []*cl.MemObject
		ps   []Param
	}{{"input", inputs, ins}, {"output", outputs, outs}} {
		for i, b := range c.bs {
			if b.Size() < n*c.ps[i].Type.Size {
				return fmt.Errorf("%s %s: buffer of %d bytes for %d elements", c.what, c.ps[i].Name, b.Size(), n)
			}
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

// buildProgram builds src with options (the skeleton's Options: never
// fast-math flags, since results must match the CPU reference up to
// reassociation only) and creates the kernels names.
func buildProgram(d *device.Device, src, options string, names ...string) (*program, error) {
	p, err := d.Program(src, options)
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

// do runs f on a new run while holding the program's lock, then finishes
// the run and returns its device times.
func (p *program) do(f func(r *run) error) (Timing, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := newRun(p.dev)
	return r.finish(f(r))
}

// run records the events of one run to sum their device times.
type run struct {
	q         *cl.CommandQueue
	kernels   []*cl.Event
	transfers []*cl.Event // uploads
	reads     []*cl.Event // downloads
	recycle   []*cl.MemObject
	dev       *device.Device
}

func newRun(d *device.Device) *run { return &run{q: d.Queue, dev: d} }

func (r *run) launch(k *cl.Kernel, global, local int, args ...any) error {
	_, err := r.launchAfter(k, global, local, nil, args...)
	return err
}

// launchAfter is launch once the commands of wait have completed (on
// any queue); it returns the kernel's event, which finish releases.
func (r *run) launchAfter(k *cl.Kernel, global, local int, wait []*cl.Event, args ...any) (*cl.Event, error) {
	if err := k.SetArgs(args...); err != nil {
		return nil, err
	}
	e, err := r.q.EnqueueNDRangeKernel(k, nil, []int{global}, []int{local}, wait)
	if err != nil {
		return nil, err
	}
	r.kernels = append(r.kernels, e)
	return e, nil
}

// buffer takes a pooled buffer that finish returns to the pool.
func (r *run) buffer(size int) (*cl.MemObject, error) {
	b, err := r.dev.Buffer(size)
	if err == nil {
		r.recycle = append(r.recycle, b)
	}
	return b, err
}

// upload copies h to a pooled device buffer (run.write: directly from
// pinned memory, through staging where the device's policy says so).
func (r *run) upload(h HostSlice) (*cl.MemObject, error) {
	b, err := r.buffer(len(h.bytes))
	if err != nil {
		return nil, err
	}
	return b, r.write(b, h.bytes)
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

// hostRun is the device part of a Run: it uploads inputs, takes buffers
// for outputs and results, calls enqueue on them, and downloads the first
// kept elements of each output (kept is what enqueue returns) and every
// result.
func (r *run) hostRun(inputs, outputs, results []HostSlice, enqueue func(ins, outs, res []*cl.MemObject) (kept int, err error)) error {
	ins, err := r.uploadAll(inputs)
	if err != nil {
		return err
	}
	outs, err := r.buffersFor(outputs)
	if err != nil {
		return err
	}
	res, err := r.buffersFor(results)
	if err != nil {
		return err
	}
	kept, err := enqueue(ins, outs, res)
	if err != nil {
		return err
	}
	for i, h := range outputs {
		part := HostSlice{bytes: h.bytes[:kept*h.elem], n: kept, elem: h.elem}
		if err := r.download(outs[i], part); err != nil {
			return err
		}
	}
	for i, h := range results {
		if err := r.download(res[i], h); err != nil {
			return err
		}
	}
	return nil
}

// launchStage2 launches a <name>_stage2 kernel: one group of local
// work-items folds the m partials in parts of each reduction into results;
// neutrals are the values of the run-time neutral elements' Args
// (neutralArgs), nil when there are none.
func (r *run) launchStage2(k *cl.Kernel, local int, m int64, parts, results []*cl.MemObject, reds []Reduction, neutrals ...any) error {
	args := []any{m}
	for _, b := range parts {
		args = append(args, b)
	}
	for _, b := range results {
		args = append(args, b)
	}
	for _, red := range reds {
		args = append(args, cl.LocalBuffer(local*red.Type.Size))
	}
	args = append(args, neutrals...)
	return r.launch(k, local, local, args...)
}

// download copies the first len(h.bytes) bytes of b into h (run.read).
func (r *run) download(b *cl.MemObject, h HostSlice) error {
	return r.read(b, h.bytes)
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
	t.Kernel = time.Duration(sum(r.kernels))
	t.Up = time.Duration(sum(r.transfers))
	t.Down = time.Duration(sum(r.reads))
	t.Transfer = t.Up + t.Down
	t.Launches = len(r.kernels)
	r.dev.Recycle(r.recycle...)
	return t, err
}
