package skel

import (
	"fmt"
	"strings"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// Scan is the map-scan skeleton: an inclusive scan with an associative
// operator of the values Body computes from the inputs at each index.
// Op.Name is the variable Body assigns; the output has Op.Type.
//
// By default (Algorithm AutoAlgorithm) it runs on GPUs as one single-pass kernel
// (scanonepass.go): each group scans one tile, finds the tile's carry-in by
// decoupled look-back, and writes it, so each element is read once and
// written once. The body is the map fused before the scan (a scanomap).
//
// With ReduceThenScan, or where the single-pass kernel cannot run (see
// ScanKernel.Why), it runs in three kernels: the first folds each group's
// block into a partial (the Redomap first stage, reading n elements), the
// second scans the partials in one group, the third scans each block
// again from its carry-in and writes it (reading and writing n elements):
// 3n element transfers in all.
type Scan struct {
	Name     string
	Inputs   []Param
	Op       Reduction
	Body     string
	Preamble string
	// Options are the build options (e.g. "-cl-fp32-correctly-rounded-divide-sqrt"
	// for Go's float32 division); "" for none.
	Options string
	// Algorithm chooses the single-pass or the reduce-then-scan kernels;
	// AutoAlgorithm (the zero value) prefers the single pass.
	Algorithm Algorithm
	// Args are values passed to every launch (RunArgs), in order, as
	// Redomap's: every kernel that evaluates Body takes them after its
	// sizes, and Body reads each by its name.
	Args []Arg
}

func (s Scan) generate(gpu bool) (Layout, string, error) {
	if err := s.check(); err != nil {
		return 0, "", err
	}
	reds := []Reduction{s.Op}
	lay := autoLayout(gpu, reds)
	b, err := newBody(s.Inputs, nil, reds, false, s.Body)
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w", s.Name, err)
	}
	b.args = s.Args
	var w strings.Builder
	w.WriteString(prelude(allTypes(s.Inputs, nil, reds), s.Preamble))
	emitOps(&w, reds)
	b.emit(&w)
	stage1{name: s.Name, b: b, reds: reds, fields: []func(string) string{field(s.Op.Name)}, layout: lay}.emit(&w)
	emitScanPartials(&w, s.Name, s.Op.Type.Name, 0)
	var hdr strings.Builder
	fmt.Fprintf(&hdr, "__kernel void %s_final(const long n, const long chunk, const int K", s.Name)
	b.params(&hdr)
	for _, p := range s.Inputs {
		fmt.Fprintf(&hdr, ",\n\t__global const %s *restrict in_%s", p.Type.Name, p.Name)
	}
	t := s.Op.Type.Name
	fmt.Fprintf(&hdr, ",\n\t__global const %s *restrict part, __global %s *restrict out, __local %s *lt, __local %s *ls) {", t, t, t, t)
	tileScan{
		typ:    t,
		op:     0,
		load:   func(i string) string { return b.call(i) + "." + s.Op.Name },
		carry:  "g > 0 ? part[g - 1] : soac_neutral0()",
		header: hdr.String(),
		store:  func(i, v string) string { return fmt.Sprintf("out[%s] = %s;", i, v) },
	}.emit(&w)
	return lay, w.String(), nil
}

// Source returns the OpenCL C program of the skeleton for a GPU (gpu) or
// another device: the single-pass program (for a default device of that
// kind) where Algorithm chooses it for that kind (Build's choice).
func (s Scan) Source(gpu bool) (string, error) {
	if singlePassFor(s.Algorithm, gpu) {
		src, _, err := s.generateSP(newSPTarget(nil, gpu, s.Op.Type.Size))
		return src, err
	}
	_, src, err := s.generate(gpu)
	return src, err
}

// ScanKernel is a Scan built for one device.
type ScanKernel struct {
	spec Scan
	prog *program // the reduce-then-scan kernels, or nil
	sp   *spKernel
	why  string
}

// Build generates the program and builds it on d: the single-pass kernel
// where Algorithm and the device allow it, else reduce-then-scan.
func (s Scan) Build(d *device.Device) (*ScanKernel, error) {
	k := &ScanKernel{spec: s}
	if s.Algorithm == AutoAlgorithm && !d.Info.IsGPU() {
		k.why = cpuMultiPass
	} else if s.Algorithm != ReduceThenScan {
		sp, why, err := s.buildSP(d)
		if err != nil {
			return nil, err
		}
		if sp != nil {
			k.sp, k.why = sp, why
			return k, nil
		}
		if s.Algorithm == SinglePass {
			return nil, fmt.Errorf("%s: single-pass scan not possible: %s", s.Name, why)
		}
		k.why = why
	} else {
		k.why = "reduce-then-scan asked for"
	}
	_, src, err := s.generate(d.Info.IsGPU())
	if err != nil {
		return nil, err
	}
	p, err := buildProgram(d, src, s.Options, s.Name+"_stage1", s.Name+"_scanpart", s.Name+"_final")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	k.prog = p
	return k, nil
}

// Algorithm returns the algorithm the kernel was built with: SinglePass
// or ReduceThenScan.
func (k *ScanKernel) Algorithm() Algorithm {
	if k.sp != nil {
		return SinglePass
	}
	return ReduceThenScan
}

// Why says why the kernel runs its algorithm (e.g. what kept a device from
// the single pass).
func (k *ScanKernel) Why() string { return k.why }

// RunDevice scans n elements of the device-resident inputs into out.
func (k *ScanKernel) RunDevice(n int, inputs []*cl.MemObject, out *cl.MemObject) (Timing, error) {
	return k.RunDeviceArgs(n, nil, inputs, out)
}

// RunDeviceArgs is RunDevice with the values of the skeleton's Args (as
// for RunArgs).
func (k *ScanKernel) RunDeviceArgs(n int, vals []any, inputs []*cl.MemObject, out *cl.MemObject) (Timing, error) {
	return k.do(func(r *run) error { return k.enqueue(r, n, vals, inputs, out) })
}

// do runs f under the lock of the kernel's program.
func (k *ScanKernel) do(f func(r *run) error) (Timing, error) {
	if k.sp != nil {
		return k.sp.prog.do(f)
	}
	return k.prog.do(f)
}

func (k *ScanKernel) enqueue(r *run, n int, vals []any, inputs []*cl.MemObject, out *cl.MemObject) error {
	s := k.spec
	size := s.Op.Type.Size
	if err := checkBuffers(n, inputs, []*cl.MemObject{out}, nil, s.Inputs, []Param{{s.Op.Name, s.Op.Type}}, nil); err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	if err := checkVals(vals, s.Args); err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	if n == 0 {
		return nil
	}
	if k.sp != nil {
		args := append(make([]any, 0, len(vals)+len(inputs)+1), vals...)
		for _, b := range inputs {
			args = append(args, b)
		}
		return k.sp.launch(r, int64(n), append(args, out))
	}
	info := k.prog.dev.Info
	p := newPlan(info, k.prog.wg, k.prog.pref, int64(n), 2*size)
	K := scanK(info.LocalMemSize, p.local, size)
	part, err := r.buffer(p.groups * size)
	if err != nil {
		return err
	}
	args := append([]any{int64(n), p.chunk}, vals...)
	for _, b := range inputs {
		args = append(args, b)
	}
	args = append(args, part, cl.LocalBuffer(p.local*size))
	if err := r.launch(k.prog.kernels[s.Name+"_stage1"], p.groups*p.local, p.local, args...); err != nil {
		return err
	}
	m := int64(p.groups)
	if err := r.launch(k.prog.kernels[s.Name+"_scanpart"], p.local, p.local,
		m, (m+int64(p.local)-1)/int64(p.local), int32(K), part, cl.LocalBuffer(p.local*K*size), cl.LocalBuffer(p.local*size)); err != nil {
		return err
	}
	args = append([]any{int64(n), p.chunk, int32(K)}, vals...)
	for _, b := range inputs {
		args = append(args, b)
	}
	args = append(args, part, out, cl.LocalBuffer(p.local*K*size), cl.LocalBuffer(p.local*size))
	return r.launch(k.prog.kernels[s.Name+"_final"], p.groups*p.local, p.local, args...)
}

// Run uploads the inputs, scans, and downloads the result into out, which
// must have the inputs' length.
func (k *ScanKernel) Run(inputs []HostSlice, out HostSlice) (Timing, error) {
	return k.RunArgs(nil, inputs, out)
}

// RunArgs is Run with the values of the skeleton's Args (each a value
// cl.Kernel.SetArg takes: a sized number, a buffer, or the bytes of the C
// value).
func (k *ScanKernel) RunArgs(vals []any, inputs []HostSlice, out HostSlice) (Timing, error) {
	s := k.spec
	n, err := checkRun(inputs, []HostSlice{out}, nil, s.Inputs, []Param{{s.Op.Name, s.Op.Type}}, nil)
	if err != nil {
		return Timing{}, fmt.Errorf("%s: %w", s.Name, err)
	}
	return k.do(func(r *run) error {
		return r.hostRun(inputs, []HostSlice{out}, nil, func(ins, outs, _ []*cl.MemObject) (int, error) {
			return n, k.enqueue(r, n, vals, ins, outs[0])
		})
	})
}
