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
// of one skeleton. Kernel arguments are state, so each run sets them on a
// kernel set of its own (kernelSet): runs of one skeleton proceed at once,
// on queues of their own.
type program struct {
	dev *device.Device
	src string
	cl  *cl.Program
	// kernels are the first set's kernels by name; their pointers name
	// the kernels in every set (run.kern).
	kernels map[string]*cl.Kernel
	wg      int // smallest CL_KERNEL_WORK_GROUP_SIZE over the kernels
	pref    int // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of the first
	mu      sync.Mutex
	free    []kernelSet // sets no run holds
}

// kernelSet maps each of a program's kernels (by its first set's
// pointer) to the kernel object a run sets arguments on.
type kernelSet map[*cl.Kernel]*cl.Kernel

// buildProgram builds src with options (the skeleton's Options: never
// fast-math flags, since results must match the CPU reference up to
// reassociation only) and creates the kernels names.
func buildProgram(d *device.Device, src, options string, names ...string) (*program, error) {
	p, err := d.Program(src, options)
	if err != nil {
		return nil, err
	}
	pr := &program{dev: d, src: src, cl: p, kernels: map[string]*cl.Kernel{}, wg: d.Info.MaxWorkGroupSize}
	first := kernelSet{}
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
		first[k] = k
	}
	pr.free = []kernelSet{first}
	return pr, nil
}

// takeSet returns a kernel set no other run holds, creating its kernels
// when every set is taken.
func (p *program) takeSet() (kernelSet, error) {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		ks := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return ks, nil
	}
	p.mu.Unlock()
	ks := kernelSet{}
	for name, k := range p.kernels {
		c, err := p.cl.CreateKernel(name)
		if err != nil {
			for _, c := range ks {
				c.Release()
			}
			return nil, err
		}
		ks[k] = c
	}
	return ks, nil
}

// putSet makes ks free for the next run.
func (p *program) putSet(ks kernelSet) {
	p.mu.Lock()
	p.free = append(p.free, ks)
	p.mu.Unlock()
}

// Source returns the OpenCL C text of the program.
func (p *program) Source() string { return p.src }

// do runs f on a new run, with a kernel set and a queue of its own, then
// finishes the run and returns its device times.
func (p *program) do(f func(r *run) error) (Timing, error) {
	ks, err := p.takeSet()
	if err != nil {
		return Timing{}, err
	}
	defer p.putSet(ks)
	r, err := newRun(p.dev)
	if err != nil {
		return Timing{}, err
	}
	r.set = ks
	return r.finish(f(r))
}

// run records the events of one run to sum their device times. It
// enqueues on a queue of the device's that it holds from newRun to
// finish.
type run struct {
	q         *cl.CommandQueue
	set       kernelSet // the run's kernels (program.do), nil outside a program
	kernels   []*cl.Event
	transfers []*cl.Event // uploads
	reads     []*cl.Event // downloads
	recycle   []*cl.MemObject
	dev       *device.Device
}

// newRun takes a queue of d for a run, which finish gives back.
func newRun(d *device.Device) (*run, error) {
	q, err := d.TakeQueue()
	if err != nil {
		return nil, err
	}
	return &run{q: q, dev: d}, nil
}

// doRun runs f on a new run of d outside a program (transfers only),
// then finishes the run and returns its device times.
func doRun(d *device.Device, f func(r *run) error) (Timing, error) {
	r, err := newRun(d)
	if err != nil {
		return Timing{}, err
	}
	return r.finish(f(r))
}

// kern returns the run's own object of a program's kernel k (k as the
// program's kernels map holds it).
func (r *run) kern(k *cl.Kernel) *cl.Kernel {
	if c := r.set[k]; c != nil {
		return c
	}
	return k
}

func (r *run) launch(k *cl.Kernel, global, local int, args ...any) error {
	_, err := r.launchAfter(k, global, local, nil, args...)
	return err
}

// launchAfter is launch once the commands of wait have completed (on
// any queue); it returns the kernel's event, which finish releases.
func (r *run) launchAfter(k *cl.Kernel, global, local int, wait []*cl.Event, args ...any) (*cl.Event, error) {
	k = r.kern(k)
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

// finish waits for the run, sums its times, releases its events and
// gives its pooled buffers and its queue back to the device (after the
// wait: device.FinishQueue).
func (r *run) finish(err error) (Timing, error) {
	var t Timing
	if ferr := r.dev.FinishQueue(r.q, r.recycle...); err == nil {
		err = ferr
	}
	r.q, r.recycle = nil, nil
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
	return t, err
}

// hostInputs checks the host inputs of skeleton name against its input
// parameters and returns their one length (0 when there are none).
func hostInputs(name string, inputs []HostSlice, params []Param) (int, error) {
	if err := checkHost("inputs", inputs, params); err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	n := 0
	if len(inputs) > 0 {
		n = inputs[0].n
	}
	for _, h := range inputs {
		if h.n != n {
			return 0, fmt.Errorf("%s: lengths differ: %d and %d", name, n, h.n)
		}
	}
	return n, nil
}

// deviceInputs checks that skeleton name, of want inputs, was given as
// many device buffers.
func deviceInputs(name string, inputs []*cl.MemObject, want int) error {
	if len(inputs) != want {
		return fmt.Errorf("%s: %d inputs given, %d expected", name, len(inputs), want)
	}
	return nil
}

// rowRun is the run of a skeleton that reads inputs of n elements, given
// within the run by inputs, into a row or an output: downloaded into
// result, or, when out is set, written into that device buffer (result
// then only gives its length). The entry points of the stream skeletons
// check their arguments and call it.
type rowRun func(vals []any, n int, inputs func(r *run) ([]*cl.MemObject, error), result HostSlice, out *cl.MemObject) (bool, Timing, error)

// hostArgs runs f over host inputs, checked against params.
func (f rowRun) hostArgs(name string, params []Param, vals []any, inputs []HostSlice, result HostSlice) (bool, Timing, error) {
	n, err := hostInputs(name, inputs, params)
	if err != nil {
		return false, Timing{}, err
	}
	return f(vals, n, func(r *run) ([]*cl.MemObject, error) { return r.uploadAll(inputs) }, result, nil)
}

// deviceArgs runs f over inputs in device buffers (want of them), which
// stay the caller's, downloading the result into result.
func (f rowRun) deviceArgs(name string, want int, vals []any, n int, inputs []*cl.MemObject, result HostSlice) (bool, Timing, error) {
	if err := deviceInputs(name, inputs, want); err != nil {
		return false, Timing{}, err
	}
	return f(vals, n, func(*run) ([]*cl.MemObject, error) { return inputs, nil }, result, nil)
}

// deviceTo is deviceArgs writing the result of room elements into the
// device buffer out instead of downloading it.
func (f rowRun) deviceTo(name string, want int, vals []any, n int, inputs []*cl.MemObject, room int, out *cl.MemObject) (bool, Timing, error) {
	if err := deviceInputs(name, inputs, want); err != nil {
		return false, Timing{}, err
	}
	if out == nil || room <= 0 {
		return false, Timing{}, fmt.Errorf("%s: no buffer for a result of %d elements", name, room)
	}
	return f(vals, n, func(*run) ([]*cl.MemObject, error) { return inputs, nil }, HostSlice{n: room}, out)
}
