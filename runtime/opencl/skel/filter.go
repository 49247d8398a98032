package skel

import (
	"fmt"
	"strings"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// Filter is the order-preserving compaction skeleton with maps and
// reductions of the kept elements. Body sets the int variable keep (it
// starts as 1) and assigns every output and reduction name; only the
// elements with keep != 0 are written, in their original order, to the
// front of the outputs, and only they are folded.
//
// It runs in four kernels: a counting pass (the Redomap first stage with
// an extra reduction counting kept elements per block, and the user's
// reductions folded with a select, so no element is read twice for
// them), a reduction of the user's partials, an inclusive scan of the
// per-block counts, and a scatter pass in which each block scans its keep
// flags tile by tile and writes its kept elements from its offset.
type Filter struct {
	Name       string
	Inputs     []Param
	Outputs    []Param
	Reductions []Reduction
	Body       string
	Preamble   string
}

// countRed counts kept elements. Its index is len(Reductions), after the
// user's, so that the user's keep indices 0.. in every kernel.
var countRed = Reduction{Name: "soac_count", Type: Int64, Op: "r = a + b;", Neutral: "0", Commutative: true}

func (f Filter) generate(gpu bool) (string, error) {
	if !ident.MatchString(f.Name) {
		return "", fmt.Errorf("skeleton name %q is not a C identifier", f.Name)
	}
	if len(f.Inputs) == 0 {
		return "", fmt.Errorf("%s: no inputs", f.Name)
	}
	b, err := newBody(f.Inputs, f.Outputs, f.Reductions, true, f.Body)
	if err != nil {
		return "", fmt.Errorf("%s: %w", f.Name, err)
	}
	reds := append(append([]Reduction(nil), f.Reductions...), countRed)
	fields := make([]func(string) string, len(reds))
	lay := Chunked
	if gpu {
		lay = Interleaved
	}
	for k, red := range f.Reductions {
		fields[k] = field(red.Name)
		if !red.Commutative {
			lay = Chunked
		}
	}
	fields[len(f.Reductions)] = func(string) string { return "1L" }
	var w strings.Builder
	w.WriteString(prelude(allTypes(f.Inputs, f.Outputs, reds), f.Preamble))
	emitOps(&w, reds)
	b.emit(&w)
	stage1{name: f.Name, b: b, reds: reds, fields: fields, layout: lay}.emit(&w)
	if len(f.Reductions) > 0 {
		emitStage2(&w, f.Name, f.Reductions)
	}
	ci := len(f.Reductions)
	emitScanPartials(&w, f.Name, "long", ci)
	var hdr strings.Builder
	fmt.Fprintf(&hdr, "__kernel void %s_scatter(const long n, const long chunk, const int K", f.Name)
	for _, p := range f.Inputs {
		fmt.Fprintf(&hdr, ",\n\t__global const %s *restrict in_%s", p.Type.Name, p.Name)
	}
	for _, p := range f.Outputs {
		fmt.Fprintf(&hdr, ",\n\t__global %s *restrict out_%s", p.Type.Name, p.Name)
	}
	hdr.WriteString(",\n\t__global const long *restrict counts, __local long *lt, __local long *ls) {")
	tileScan{
		typ:    "long",
		op:     ci,
		load:   func(i string) string { return "(" + b.call(i) + ".keep ? 1L : 0L)" },
		carry:  "g > 0 ? counts[g - 1] : 0L",
		header: hdr.String(),
		store: func(i, v string) string {
			// The flag is recomputed: the body is inlined, so only the
			// keep test and the outputs' code run, on inputs that the
			// load phase of this tile has just brought into cache.
			var s strings.Builder
			fmt.Fprintf(&s, "const soac_res r = %s;\n", b.call(i))
			s.WriteString("if (r.keep) {\n")
			fmt.Fprintf(&s, "const long pos = %s - 1;\n", v)
			for _, p := range f.Outputs {
				fmt.Fprintf(&s, "out_%s[pos] = r.%s;\n", p.Name, p.Name)
			}
			s.WriteString("}")
			return s.String()
		},
	}.emit(&w)
	return w.String(), nil
}

// Source returns the OpenCL C program of the skeleton for a GPU (gpu) or
// another device.
func (f Filter) Source(gpu bool) (string, error) { return f.generate(gpu) }

// FilterKernel is a Filter built for one device.
type FilterKernel struct {
	spec Filter
	prog *program
}

// Build generates the program and builds it on d.
func (f Filter) Build(d *device.Device) (*FilterKernel, error) {
	src, err := f.generate(d.Info.IsGPU())
	if err != nil {
		return nil, err
	}
	names := []string{f.Name + "_stage1", f.Name + "_scanpart", f.Name + "_scatter"}
	if len(f.Reductions) > 0 {
		names = append(names, f.Name+"_stage2")
	}
	p, err := buildProgram(d, src, names...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	return &FilterKernel{spec: f, prog: p}, nil
}

// RunDevice filters n elements of the device-resident inputs into outputs
// (each with room for n elements) and the reductions into results (one
// element each). It returns the number of kept elements, read back from
// the device with a blocking 8-byte read.
func (k *FilterKernel) RunDevice(n int, inputs, outputs, results []*cl.MemObject) (int, Timing, error) {
	k.prog.mu.Lock()
	defer k.prog.mu.Unlock()
	r := newRun(k.prog.dev)
	kept, err := k.enqueue(r, n, inputs, outputs, results)
	t, err := r.finish(err)
	return kept, t, err
}

func (k *FilterKernel) enqueue(r *run, n int, inputs, outputs, results []*cl.MemObject) (int, error) {
	f := k.spec
	if len(inputs) != len(f.Inputs) || len(outputs) != len(f.Outputs) || len(results) != len(f.Reductions) {
		return 0, fmt.Errorf("%s: got %d inputs, %d outputs, %d results; want %d, %d, %d", f.Name, len(inputs), len(outputs), len(results), len(f.Inputs), len(f.Outputs), len(f.Reductions))
	}
	for i, b := range inputs {
		if b.Size() < n*f.Inputs[i].Type.Size {
			return 0, fmt.Errorf("%s: input %s too small for %d elements", f.Name, f.Inputs[i].Name, n)
		}
	}
	for i, b := range outputs {
		if b.Size() < n*f.Outputs[i].Type.Size {
			return 0, fmt.Errorf("%s: output %s too small for %d elements", f.Name, f.Outputs[i].Name, n)
		}
	}
	info := k.prog.dev.Info
	perItem := 16 // the count's local slots: lt (K longs) and ls
	for _, red := range f.Reductions {
		perItem += red.Type.Size
	}
	p := newPlan(info, k.prog.wg, k.prog.pref, int64(n), perItem)
	nr := len(f.Reductions)
	parts := make([]*cl.MemObject, nr+1)
	for i, red := range append(append([]Reduction(nil), f.Reductions...), countRed) {
		b, err := r.buffer(p.groups * red.Type.Size)
		if err != nil {
			return 0, err
		}
		parts[i] = b
	}
	if n > 0 {
		args := []any{int64(n), p.chunk}
		for _, b := range inputs {
			args = append(args, b)
		}
		for _, b := range parts {
			args = append(args, b)
		}
		for _, red := range append(append([]Reduction(nil), f.Reductions...), countRed) {
			args = append(args, cl.LocalBuffer(p.local*red.Type.Size))
		}
		if err := r.launch(k.prog.kernels[f.Name+"_stage1"], p.groups*p.local, p.local, args...); err != nil {
			return 0, err
		}
	}
	if nr > 0 {
		m := int64(p.groups)
		if n == 0 {
			m = 0
		}
		args := []any{m}
		for _, b := range parts[:nr] {
			args = append(args, b)
		}
		for _, b := range results {
			args = append(args, b)
		}
		for _, red := range f.Reductions {
			args = append(args, cl.LocalBuffer(p.local*red.Type.Size))
		}
		if err := r.launch(k.prog.kernels[f.Name+"_stage2"], p.local, p.local, args...); err != nil {
			return 0, err
		}
	}
	if n == 0 {
		return 0, nil
	}
	K := scanK(info.LocalMemSize, p.local, 8)
	counts := parts[nr]
	m := int64(p.groups)
	if err := r.launch(k.prog.kernels[f.Name+"_scanpart"], p.local, p.local,
		m, (m+int64(p.local)-1)/int64(p.local), int32(K), counts, cl.LocalBuffer(p.local*K*8), cl.LocalBuffer(p.local*8)); err != nil {
		return 0, err
	}
	args := []any{int64(n), p.chunk, int32(K)}
	for _, b := range inputs {
		args = append(args, b)
	}
	for _, b := range outputs {
		args = append(args, b)
	}
	args = append(args, counts, cl.LocalBuffer(p.local*K*8), cl.LocalBuffer(p.local*8))
	if err := r.launch(k.prog.kernels[f.Name+"_scatter"], p.groups*p.local, p.local, args...); err != nil {
		return 0, err
	}
	total := make([]int64, 1)
	e, err := r.q.EnqueueReadBuffer(counts, true, (p.groups-1)*8, cl.Bytes(total), nil)
	if err != nil {
		return 0, err
	}
	e.Release()
	return int(total[0]), nil
}

// Run uploads the inputs, filters, and downloads the kept elements into
// the front of outputs (each of the inputs' length) and the reductions
// into results (one element each). It returns the number kept.
func (k *FilterKernel) Run(inputs, outputs, results []HostSlice) (int, Timing, error) {
	f := k.spec
	if err := checkHost("inputs", inputs, f.Inputs); err != nil {
		return 0, Timing{}, fmt.Errorf("%s: %w", f.Name, err)
	}
	if err := checkHost("outputs", outputs, f.Outputs); err != nil {
		return 0, Timing{}, fmt.Errorf("%s: %w", f.Name, err)
	}
	reds := make([]Param, len(f.Reductions))
	for i, red := range f.Reductions {
		reds[i] = Param{red.Name, red.Type}
	}
	if err := checkHost("results", results, reds); err != nil {
		return 0, Timing{}, fmt.Errorf("%s: %w", f.Name, err)
	}
	n := inputs[0].n
	for _, h := range append(append([]HostSlice(nil), inputs...), outputs...) {
		if h.n != n {
			return 0, Timing{}, fmt.Errorf("%s: lengths differ: %d and %d", f.Name, n, h.n)
		}
	}
	for _, h := range results {
		if h.n != 1 {
			return 0, Timing{}, fmt.Errorf("%s: a result slice must have one element, not %d", f.Name, h.n)
		}
	}
	k.prog.mu.Lock()
	defer k.prog.mu.Unlock()
	r := newRun(k.prog.dev)
	kept := 0
	err := func() error {
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
		if kept, err = k.enqueue(r, n, ins, outs, res); err != nil {
			return err
		}
		for i, h := range outputs {
			// Only the kept prefix is meaningful; download just that.
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
	}()
	t, err := r.finish(err)
	return kept, t, err
}
