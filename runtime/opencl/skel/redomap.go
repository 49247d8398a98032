package skel

import (
	"fmt"
	"strings"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// Redomap is the canonical map-reduce skeleton: one pass over the inputs
// that evaluates Body at every index, writes each of Outputs element-wise
// and folds each of Reductions. With no reductions it is a map (several
// inputs, several outputs); with no outputs a map-reduce; with both, or
// several reductions, a horizontally fused kernel.
//
// Body is OpenCL C statements. Each input is a constant of its name and
// type, soac_index the element's index; the statements must assign every
// output and every reduction's Name (a reduction may fold an input or an
// output by naming it).
type Redomap struct {
	Name       string // kernel name prefix, a C identifier
	Inputs     []Param
	Outputs    []Param
	Reductions []Reduction
	Body       string
	Preamble   string // helper OpenCL C functions, emitted first
	// Options are the build options (e.g. "-cl-fp32-correctly-rounded-divide-sqrt"
	// for Go's float32 division); "" for none.
	Options string
	Layout  Layout // Auto unless measuring
	// Args are values passed to every launch (RunArgs), in order, after
	// n and chunk; the element code reads each by its name.
	Args []Arg
}

// Source returns the OpenCL C program of the skeleton for a GPU (gpu) or
// another device.
func (r Redomap) Source(gpu bool) (string, error) {
	_, src, err := r.generate(gpu)
	return src, err
}

// layout resolves Auto with autoLayout and checks that an Interleaved
// layout asked for has commutative operators.
func (r Redomap) layout(gpu bool) (Layout, error) {
	switch r.Layout {
	case Interleaved:
		if !commutative(r.Reductions) {
			return 0, fmt.Errorf("%s: interleaved layout needs commutative operators", r.Name)
		}
		return Interleaved, nil
	case Auto:
		return redomapLayout(gpu, r.Reductions), nil
	case Tiled:
		if len(r.Reductions) == 0 {
			return Chunked, nil // a map has nothing to fold in order
		}
		return Tiled, nil
	}
	return Chunked, nil
}

func (r Redomap) generate(gpu bool) (Layout, string, error) {
	if !ident.MatchString(r.Name) {
		return 0, "", fmt.Errorf("skeleton name %q is not a C identifier", r.Name)
	}
	if len(r.Outputs) == 0 && len(r.Reductions) == 0 {
		return 0, "", fmt.Errorf("%s: neither outputs nor reductions", r.Name)
	}
	lay, err := r.layout(gpu)
	if err != nil {
		return 0, "", err
	}
	b, err := newBody(r.Inputs, r.Outputs, r.Reductions, false, r.Body)
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w", r.Name, err)
	}
	if err := checkArgs(r.Args); err != nil {
		return 0, "", fmt.Errorf("%s: %w", r.Name, err)
	}
	b.args = r.Args
	neutrals, _, err := neutralArgs(r.Reductions, r.Args)
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w", r.Name, err)
	}
	var w strings.Builder
	w.WriteString(prelude(allTypes(r.Inputs, r.Outputs, r.Reductions), r.Preamble))
	emitOps(&w, r.Reductions)
	b.emit(&w)
	fields := make([]func(string) string, len(r.Reductions))
	for k, red := range r.Reductions {
		fields[k] = field(red.Name)
	}
	stage1{name: r.Name, b: b, outputs: r.Outputs, reds: r.Reductions, fields: fields, layout: lay, based: true}.emit(&w)
	if len(r.Reductions) > 0 {
		emitStage2(&w, r.Name, r.Reductions, neutrals)
	}
	return lay, w.String(), nil
}

// neutralVals returns, of the values of the skeleton's Args, those of its
// run-time neutral elements, in the stage-2 kernel's order (neutralArgs).
func (r Redomap) neutralVals(vals []any) []any {
	_, idx, _ := neutralArgs(r.Reductions, r.Args) // checked by generate
	var out []any
	for _, i := range idx {
		if i < len(vals) {
			out = append(out, vals[i])
		}
	}
	return out
}

// field returns the accessor of a soac_res field.
func field(name string) func(string) string {
	return func(res string) string { return res + "." + name }
}

func allTypes(inputs, outputs []Param, reds []Reduction) []Type {
	var ts []Type
	for _, p := range inputs {
		ts = append(ts, p.Type)
	}
	for _, p := range outputs {
		ts = append(ts, p.Type)
	}
	for _, r := range reds {
		ts = append(ts, r.Type)
	}
	return ts
}

// RedomapKernel is a Redomap built for one device.
type RedomapKernel struct {
	spec   Redomap
	layout Layout
	prog   *program
}

// Build generates the skeleton's program and builds it on d (once per
// process and device: the program cache serves later builds).
func (r Redomap) Build(d *device.Device) (*RedomapKernel, error) {
	lay, src, err := r.generate(d.Info.IsGPU())
	if err != nil {
		return nil, err
	}
	names := []string{r.Name + "_stage1"}
	if len(r.Reductions) > 0 {
		names = append(names, r.Name+"_stage2")
	}
	p, err := buildProgram(d, src, r.Options, names...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Name, err)
	}
	return &RedomapKernel{spec: r, layout: lay, prog: p}, nil
}

// Layout returns the layout the kernel was built with.
func (k *RedomapKernel) Layout() Layout { return k.layout }

func (k *RedomapKernel) localPerItem() int {
	s := 0
	for _, r := range k.spec.Reductions {
		s += r.Type.Size
	}
	if k.layout == Tiled {
		s *= tiledRun() + 2
	}
	return s
}

// Plan describes the launch geometry for n elements.
func (k *RedomapKernel) Plan(n int) string { return k.plan(n).String() }

// plan is the launch geometry for n elements; Tiled chunks are whole
// rounds.
func (k *RedomapKernel) plan(n int) plan {
	p := newPlan(k.prog.dev.Info, k.prog.wg, k.prog.pref, int64(n), k.localPerItem())
	if k.layout == Tiled {
		p = p.alignChunk(int64(tiledRun()), int64(n))
	}
	return p
}

// RunDevice runs the skeleton on device-resident buffers: n elements of
// each input, outputs of n elements, and one element per reduction in
// results. It returns the kernels' device time.
func (k *RedomapKernel) RunDevice(n int, inputs, outputs, results []*cl.MemObject) (Timing, error) {
	return k.prog.do(func(r *run) error { return k.enqueue(r, n, nil, inputs, outputs, results) })
}

func (k *RedomapKernel) enqueue(r *run, n int, vals []any, inputs, outputs, results []*cl.MemObject) error {
	s := k.spec
	if err := checkBuffers(n, inputs, outputs, results, s.Inputs, s.Outputs, s.Reductions); err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	if err := checkVals(vals, s.Args); err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	p := k.plan(n)
	parts := make([]*cl.MemObject, len(s.Reductions))
	if n > 0 {
		args := append([]any{int64(n), p.chunk, int64(0), int64(0)}, vals...)
		for _, b := range inputs {
			args = append(args, b)
		}
		for _, b := range outputs {
			args = append(args, b)
		}
		for i, red := range s.Reductions {
			b, err := r.buffer(p.groups * red.Type.Size)
			if err != nil {
				return err
			}
			parts[i] = b
			args = append(args, b)
		}
		args = append(args, stage1Locals(p.local, s.Reductions, k.layout)...)
		if err := r.launch(k.prog.kernels[s.Name+"_stage1"], p.groups*p.local, p.local, args...); err != nil {
			return err
		}
	}
	if len(s.Reductions) == 0 {
		return nil
	}
	m := int64(p.groups)
	if n == 0 {
		m = 0
		copy(parts, results) // not read when m = 0, but must be valid buffers
	}
	return r.launchStage2(k.prog.kernels[s.Name+"_stage2"], p.local, m, parts, results, s.Reductions, s.neutralVals(vals)...)
}

// Run uploads the inputs, runs the skeleton and downloads the outputs and
// the reductions' results (each a slice of one element). All inputs and
// outputs must have the same length.
func (k *RedomapKernel) Run(inputs, outputs, results []HostSlice) (Timing, error) {
	return k.RunArgs(nil, inputs, outputs, results)
}

// RunArgsN is RunArgs for a skeleton without inputs, over n elements
// that its Body computes from soac_index alone (a map or fold of an
// index space): outputs of n elements each, one element per result.
func (k *RedomapKernel) RunArgsN(n int, vals []any, outputs, results []HostSlice) (Timing, error) {
	s := k.spec
	if len(s.Inputs) > 0 {
		return Timing{}, fmt.Errorf("%s: RunArgsN of a skeleton with inputs", s.Name)
	}
	if n < 0 {
		return Timing{}, fmt.Errorf("%s: negative length %d", s.Name, n)
	}
	if err := checkHost("outputs", outputs, s.Outputs); err != nil {
		return Timing{}, fmt.Errorf("%s: %w", s.Name, err)
	}
	for _, h := range outputs {
		if h.n != n {
			return Timing{}, fmt.Errorf("%s: an output has %d elements, not %d", s.Name, h.n, n)
		}
	}
	rps := make([]Param, len(s.Reductions))
	for i, red := range s.Reductions {
		rps[i] = Param{red.Name, red.Type}
	}
	if err := checkHost("results", results, rps); err != nil {
		return Timing{}, fmt.Errorf("%s: %w", s.Name, err)
	}
	for _, h := range results {
		if h.n != 1 {
			return Timing{}, fmt.Errorf("%s: a result slice must have one element, not %d", s.Name, h.n)
		}
	}
	return k.prog.do(func(r *run) error {
		return r.hostRun(nil, outputs, results, func(ins, outs, res []*cl.MemObject) (int, error) {
			return n, k.enqueue(r, n, vals, ins, outs, res)
		})
	})
}

// RunArgs is Run with the values of the skeleton's Args (each a value
// cl.Kernel.SetArg takes: a sized number, or the bytes of the C value).
// On a GPU, a run whose moved host arrays all lie in pinned memory
// (package pinned) and whose smallest moved array has 32 MiB or more is
// cut into pieces whose transfers overlap the kernel's other pieces
// (overlap.go).
func (k *RedomapKernel) RunArgs(vals []any, inputs, outputs, results []HostSlice) (Timing, error) {
	s := k.spec
	n, err := checkRun(inputs, outputs, results, s.Inputs, s.Outputs, s.Reductions)
	if err != nil {
		return Timing{}, fmt.Errorf("%s: %w", s.Name, err)
	}
	pol := piecePolicyFor(k.prog.dev)
	if size := runPieceLen(pol, n, k.leastElem()); size > 0 && pol.cuts(k.prog.dev, inputs, outputs) {
		return k.prog.do(func(r *run) error { return k.runPieces(r, size, vals, inputs, outputs, results) })
	}
	return k.prog.do(func(r *run) error {
		return r.hostRun(inputs, outputs, results, func(ins, outs, res []*cl.MemObject) (int, error) {
			return n, k.enqueue(r, n, vals, ins, outs, res)
		})
	})
}

// leastElem returns the size of the smallest element the run moves
// over the link (of an input up or an output down), 0 when it moves
// none.
func (k *RedomapKernel) leastElem() int {
	least := 0
	for _, ps := range [][]Param{k.spec.Inputs, k.spec.Outputs} {
		for _, p := range ps {
			if least == 0 || p.Type.Size < least {
				least = p.Type.Size
			}
		}
	}
	return least
}
