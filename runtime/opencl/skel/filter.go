package skel

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// Filter is the order-preserving compaction skeleton with maps and
// reductions of the kept elements. Body sets the int variable keep (it
// starts as 1) and assigns every output and reduction name; only the
// elements with keep != 0 are written, in their original order, to the
// front of the outputs, and only they are folded, except by reductions
// marked All, which fold every element.
//
// By default (Algorithm AutoAlgorithm) it runs on GPUs as one single-pass kernel
// (filteronepass.go) that evaluates Body once per element, compacts each tile
// by a scan of 32-bit keep flags with decoupled look-back, writes the
// kept elements staged through local memory (coalesced), and folds the
// kept elements' reductions into one partial per tile, which a second
// small kernel combines. That needs n < 2^31 and commutative reductions
// (a work-item folds elements L apart); otherwise, or with
// ReduceThenScan, it runs the multi-pass form below (FilterKernel.Why
// says which and why).
//
// A filter without outputs (filter-then-reduce) needs no compaction: under
// AutoAlgorithm it runs only the multi-pass form's counting pass and the
// reductions' combining kernel, a map-reduce at the speed of Redomap.
//
// The multi-pass form runs in four kernels: a counting pass (the Redomap first stage with
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
	// Options are the build options (e.g. "-cl-fp32-correctly-rounded-divide-sqrt"
	// for Go's float32 division); "" for none.
	Options string
	// Algorithm chooses the single-pass or the multi-pass kernels;
	// AutoAlgorithm (the zero value) prefers the single pass.
	Algorithm Algorithm
	// Args are values passed to every launch (RunArgs), in order, as
	// Redomap's: every kernel that evaluates Body takes them after its
	// sizes, and Body reads each by its name.
	Args []Arg
	// Scan, when set, is an inclusive scan of the kept elements (a
	// filter then a scan): Body assigns Scan.Name for every element, as
	// for a reduction, and one more output after Outputs, named
	// Scan.Name, receives at kept position j the combination, in order,
	// of the kept elements 0..j (Op need only be associative). It runs
	// on the single pass only: Build refuses it elsewhere, saying why.
	Scan *Reduction
}

// outputs returns the arrays the filter writes: Outputs, then the
// scan's.
func (f Filter) outputs() []Param {
	if f.Scan == nil {
		return f.Outputs
	}
	return append(append([]Param(nil), f.Outputs...), Param{f.Scan.Name, f.Scan.Type})
}

// countRed counts kept elements. Its index is len(Reductions), after the
// user's, so that the user's keep indices 0.. in every kernel.
var countRed = Reduction{Name: "soac_count", Type: Int64, Op: "r = a + b;", Neutral: "0", Commutative: true}

// reductions returns the user's reductions followed by countRed.
func (f Filter) reductions() []Reduction {
	return append(append([]Reduction(nil), f.Reductions...), countRed)
}

// check validates the parts of a Filter that both algorithms need.
func (f Filter) check() error {
	if !ident.MatchString(f.Name) {
		return fmt.Errorf("skeleton name %q is not a C identifier", f.Name)
	}
	if len(f.Inputs) == 0 {
		return fmt.Errorf("%s: no inputs", f.Name)
	}
	if err := checkArgs(f.Args); err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	if f.Scan != nil {
		for _, p := range f.Outputs {
			if p.Name == f.Scan.Name {
				return fmt.Errorf("%s: the scan's output %s is also an output: the scan writes its own", f.Name, p.Name)
			}
		}
		if err := refuseNeutralArgs(f.Name, []Reduction{*f.Scan}); err != nil {
			return err
		}
	}
	return refuseNeutralArgs(f.Name, f.Reductions)
}

func (f Filter) generate(gpu bool) (string, error) {
	if err := f.check(); err != nil {
		return "", err
	}
	b, err := newBody(f.Inputs, f.Outputs, f.Reductions, true, f.Body)
	if err != nil {
		return "", fmt.Errorf("%s: %w", f.Name, err)
	}
	b.args = f.Args
	reds := f.reductions()
	fields := make([]func(string) string, len(reds))
	for k, red := range f.Reductions {
		fields[k] = field(red.Name)
	}
	lay := autoLayout(gpu, f.Reductions)
	fields[len(f.Reductions)] = func(string) string { return "1L" }
	var w strings.Builder
	w.WriteString(prelude(allTypes(f.Inputs, f.Outputs, reds), f.Preamble))
	emitOps(&w, reds)
	b.emit(&w)
	stage1{name: f.Name, b: b, reds: reds, fields: fields, layout: lay}.emit(&w)
	if len(f.Reductions) > 0 {
		emitStage2(&w, f.Name, f.Reductions, nil)
	}
	ci := len(f.Reductions)
	emitScanPartials(&w, f.Name, "long", ci)
	var hdr strings.Builder
	fmt.Fprintf(&hdr, "__kernel void %s_scatter(const long n, const long chunk, const int K", f.Name)
	b.params(&hdr)
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
// another device: the single-pass program (for a default device of that
// kind) where Build would choose it.
func (f Filter) Source(gpu bool) (string, error) {
	if f.Scan != nil || singlePassFor(f.Algorithm, gpu) && f.spRefusal() == "" && (len(f.Outputs) > 0 || f.Algorithm == SinglePass) {
		src, _, err := f.generateSP(f.spTarget(nil, gpu))
		return src, err
	}
	return f.generate(gpu)
}

// FilterKernel is a Filter built for one device.
type FilterKernel struct {
	spec Filter
	dev  *device.Device
	sp   *spKernel // the single pass, or nil
	why  string

	twoOnce sync.Once
	two     *program // the multi-pass kernels, built on first need
	twoErr  error
}

// Build generates the program and builds it on d: the single pass where
// Algorithm, the reductions and the device allow it, else the multi-pass
// kernels.
func (f Filter) Build(d *device.Device) (*FilterKernel, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	if f.Scan != nil {
		return f.buildScan(d)
	}
	k := &FilterKernel{spec: f, dev: d, why: "reduce-then-scan asked for"}
	if f.Algorithm == AutoAlgorithm && len(f.Outputs) == 0 {
		k.why = "no outputs: the counting pass (a map-reduce with the kept count as one more reduction) is the whole filter"
	} else if f.Algorithm == AutoAlgorithm && !d.Info.IsGPU() {
		k.why = cpuMultiPass
	} else if f.Algorithm != ReduceThenScan {
		sp, why, err := f.buildSP(d)
		if err != nil {
			return nil, err
		}
		k.sp, k.why = sp, why
		if sp != nil {
			return k, nil
		}
		if f.Algorithm == SinglePass {
			return nil, fmt.Errorf("%s: single-pass filter not possible: %s", f.Name, why)
		}
	}
	if _, err := k.twoPass(); err != nil {
		return nil, err
	}
	return k, nil
}

// twoPass returns the multi-pass program, building it on first use (a
// single-pass kernel needs it only for n ≥ 2^31).
func (k *FilterKernel) twoPass() (*program, error) {
	k.twoOnce.Do(func() {
		f := k.spec
		src, err := f.generate(k.dev.Info.IsGPU())
		if err != nil {
			k.twoErr = err
			return
		}
		names := []string{f.Name + "_stage1", f.Name + "_scanpart", f.Name + "_scatter"}
		if len(f.Reductions) > 0 {
			names = append(names, f.Name+"_stage2")
		}
		k.two, err = buildProgram(k.dev, src, f.Options, names...)
		if err != nil {
			k.twoErr = fmt.Errorf("%s: %w", f.Name, err)
		}
	})
	return k.two, k.twoErr
}

// Algorithm returns the algorithm the kernel runs for n < 2^31 elements:
// SinglePass or ReduceThenScan.
func (k *FilterKernel) Algorithm() Algorithm {
	if k.sp != nil {
		return SinglePass
	}
	return ReduceThenScan
}

// Why says why the kernel runs its algorithm.
func (k *FilterKernel) Why() string { return k.why }

// RunDevice filters n elements of the device-resident inputs into outputs
// (each with room for n elements) and the reductions into results (one
// element each). It returns the number of kept elements, read back from
// the device with a blocking read.
func (k *FilterKernel) RunDevice(n int, inputs, outputs, results []*cl.MemObject) (int, Timing, error) {
	return k.RunDeviceArgs(n, nil, inputs, outputs, results)
}

// RunDeviceArgs is RunDevice with the values of the skeleton's Args (as
// for RunArgs).
func (k *FilterKernel) RunDeviceArgs(n int, vals []any, inputs, outputs, results []*cl.MemObject) (int, Timing, error) {
	var kept int
	t, err := k.do(n, func(r *run) (err error) {
		kept, err = k.enqueue(r, n, vals, inputs, outputs, results)
		return err
	})
	return kept, t, err
}

// useSP reports whether a run over n elements takes the single pass: its
// counts and positions are 32-bit.
func (k *FilterKernel) useSP(n int) bool { return k.sp != nil && n <= math.MaxInt32 }

// do runs f under the lock of the program a run over n elements uses.
func (k *FilterKernel) do(n int, f func(r *run) error) (Timing, error) {
	if k.useSP(n) {
		return k.sp.prog.do(f)
	}
	if k.spec.Scan != nil {
		return Timing{}, fmt.Errorf("%s: a filter with a scan runs on the single pass only, whose counts are 32-bit: %d elements is 2^31 or more", k.spec.Name, n)
	}
	p, err := k.twoPass()
	if err != nil {
		return Timing{}, err
	}
	return p.do(f)
}

func (k *FilterKernel) enqueue(r *run, n int, vals []any, inputs, outputs, results []*cl.MemObject) (int, error) {
	f := k.spec
	if err := checkBuffers(n, inputs, outputs, results, f.Inputs, f.outputs(), f.Reductions); err != nil {
		return 0, fmt.Errorf("%s: %w", f.Name, err)
	}
	if err := checkVals(vals, f.Args); err != nil {
		return 0, fmt.Errorf("%s: %w", f.Name, err)
	}
	if k.useSP(n) {
		return k.enqueueSP(r, n, vals, inputs, outputs, results)
	}
	prog, err := k.twoPass()
	if err != nil {
		return 0, err
	}
	info := k.dev.Info
	perItem := 16 // the count's local slots: lt (K longs) and ls
	for _, red := range f.Reductions {
		perItem += red.Type.Size
	}
	p := newPlan(info, prog.wg, prog.pref, int64(n), perItem)
	nr := len(f.Reductions)
	reds := f.reductions()
	parts := make([]*cl.MemObject, len(reds))
	for i, red := range reds {
		b, err := r.buffer(p.groups * red.Type.Size)
		if err != nil {
			return 0, err
		}
		parts[i] = b
	}
	if n > 0 {
		args := append([]any{int64(n), p.chunk}, vals...)
		for _, b := range inputs {
			args = append(args, b)
		}
		for _, b := range parts {
			args = append(args, b)
		}
		for _, red := range reds {
			args = append(args, cl.LocalBuffer(p.local*red.Type.Size))
		}
		if err := r.launch(prog.kernels[f.Name+"_stage1"], p.groups*p.local, p.local, args...); err != nil {
			return 0, err
		}
	}
	if nr > 0 {
		m := int64(p.groups)
		if n == 0 {
			m = 0
		}
		if err := r.launchStage2(prog.kernels[f.Name+"_stage2"], p.local, m, parts[:nr], results, f.Reductions); err != nil {
			return 0, err
		}
	}
	if n == 0 {
		return 0, nil
	}
	K := scanK(info.LocalMemSize, p.local, 8)
	counts := parts[nr]
	m := int64(p.groups)
	if err := r.launch(prog.kernels[f.Name+"_scanpart"], p.local, p.local,
		m, (m+int64(p.local)-1)/int64(p.local), int32(K), counts, cl.LocalBuffer(p.local*K*8), cl.LocalBuffer(p.local*8)); err != nil {
		return 0, err
	}
	args := append([]any{int64(n), p.chunk, int32(K)}, vals...)
	for _, b := range inputs {
		args = append(args, b)
	}
	for _, b := range outputs {
		args = append(args, b)
	}
	args = append(args, counts, cl.LocalBuffer(p.local*K*8), cl.LocalBuffer(p.local*8))
	if len(f.Outputs) > 0 { // without outputs the counts are all we need
		if err := r.launch(prog.kernels[f.Name+"_scatter"], p.groups*p.local, p.local, args...); err != nil {
			return 0, err
		}
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
	return k.RunArgs(nil, inputs, outputs, results)
}

// RunArgs is Run with the values of the skeleton's Args (each a value
// cl.Kernel.SetArg takes: a sized number, a buffer, or the bytes of the C
// value).
func (k *FilterKernel) RunArgs(vals []any, inputs, outputs, results []HostSlice) (int, Timing, error) {
	f := k.spec
	n, err := checkRun(inputs, outputs, results, f.Inputs, f.outputs(), f.Reductions)
	if err != nil {
		return 0, Timing{}, fmt.Errorf("%s: %w", f.Name, err)
	}
	var kept int
	t, err := k.do(n, func(r *run) error {
		// Only the kept prefix of each output is meaningful; hostRun
		// downloads just that.
		return r.hostRun(inputs, outputs, results, func(ins, outs, res []*cl.MemObject) (int, error) {
			var err error
			kept, err = k.enqueue(r, n, vals, ins, outs, res)
			return kept, err
		})
	})
	return kept, t, err
}
