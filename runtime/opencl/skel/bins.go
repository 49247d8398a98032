package skel

// This file is the bins skeleton: a stream reduction whose chunk function
// adds, for each element, an amount to one bin of an integer row, and
// whose operator adds rows element-wise (a histogram, k-means' cluster
// sizes). Integer addition wraps alike in any order, so the elements
// need no chunks: each work-item walks its elements (grid-stride, so
// that a warp reads consecutive ones), computes the element's bin and
// amount, and adds the amount atomically to a bin in local memory (the
// work-group's copies of the row, work-item t adding to copy t mod
// copies, so that fewer work-items contend for a bin); after a barrier
// the group adds its bins to the result with global atomics. A row too
// long for local memory is added to in global memory directly. The
// amount, the bin and the range check are the caller's OpenCL C
// (package rewrite/clc's Unit.Bins through the opencl backend).

import (
	"fmt"
	"strings"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// BinsRangeFlag is the panic flag a work-item sets when an element's bin
// is outside the row: Go panics there with an index out of range, which
// the caller's CPU code then raises.
const BinsRangeFlag = 1<<30 + 1

// Bins is the bins skeleton. The result is the row of room bins, zero,
// plus for each element its amount at its bin.
//
// Elem is OpenCL C statements run once per element: they read the
// inputs' elements as in_NAME[soac_index], the Args by name and
// soac_room, and set long soac_bin and Bin soac_add (declared, zero);
// they set int soac_err to a positive panic site ID where Go would
// panic. A bin outside [0, soac_room) sets BinsRangeFlag.
type Bins struct {
	Name   string // kernel name prefix, a C identifier
	Inputs []Param
	Bin    Type // Int32, Uint32, Int64 or Uint64
	Args   []Arg
	Elem   string
	// Preamble holds helper OpenCL C functions, emitted first.
	Preamble string
	// Options are the build options ("" for none).
	Options string
}

// wide reports whether t is a 64-bit bin type, whose atomic addition
// needs cl_khr_int64_base_atomics.
func (s Bins) wide() bool { return s.Bin.Size == 8 }

// Unsupported returns why device info cannot run the skeleton (a 64-bit
// bin type without cl_khr_int64_base_atomics), or "".
func (s Bins) Unsupported(d cl.Device) string {
	if s.wide() && !d.HasExtension("cl_khr_int64_base_atomics") {
		return "the device lacks cl_khr_int64_base_atomics, which 64-bit bins need"
	}
	return ""
}

// Source returns the OpenCL C program of the skeleton: the kernels
// NAME_zero, NAME_local and NAME_global.
func (s Bins) Source() (string, error) {
	u, ok := map[string]string{"int": "uint", "uint": "uint", "long": "ulong", "ulong": "ulong"}[s.Bin.Name]
	if !ok {
		return "", fmt.Errorf("%s: bins of %s: only 32- and 64-bit integers are added atomically", s.Name, s.Bin.Name)
	}
	head, err := streamChunksHead(s.Name, s.Inputs, nil, s.Args, s.Bin, "bin", s.Preamble, "const long soac_room", "soac_out")
	if err != nil {
		return "", err
	}
	add := "atomic_add"
	var w strings.Builder
	if s.wide() {
		add = "atom_add"
		w.WriteString("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n")
	}
	bin := s.Bin.Name
	params := streamParams("const long soac_room", s.Inputs, nil, s.Args, s.Bin, "soac_out")
	// The checks and the prelude of the stream skeletons, without their
	// chunk kernel's head.
	w.WriteString(head[:strings.Index(head, "__kernel void "+s.Name+"_chunks(")])
	fmt.Fprintf(&w, "__kernel void %s_zero(const long soac_room, __global %s *restrict soac_out) {\n\tconst long soac_i = get_global_id(0);\n\tif (soac_i < soac_room) soac_out[soac_i] = 0;\n}\n", s.Name, bin)
	elem := func(dst string) string {
		return fmt.Sprintf("\tint soac_err = 0;\n\tfor (long soac_index = get_global_id(0); soac_index < soac_n; soac_index += get_global_size(0)) {\n"+
			"\t\tlong soac_bin = 0;\n\t\t%[1]s soac_add = 0;\n\t\t{\n%[2]s\n\t\t}\n"+
			"\t\tif (soac_err == 0 && (ulong)soac_bin >= (ulong)soac_room) soac_err = %[3]d;\n\t\tif (soac_err != 0) break;\n"+
			"\t\t%[4]s((volatile %[5]s)&%[6]s[soac_bin], soac_add);\n\t}\n", bin, indent(s.Elem, "\t\t\t"), BinsRangeFlag, add, "__"+dst+" "+bin+" *", map[string]string{"local": "soac_mine", "global": "soac_out"}[dst])
	}
	fmt.Fprintf(&w, "__kernel void %s_local(const long soac_n, %s,\n\tconst long soac_copies, __local %s *soac_bins) {\n", s.Name, params, bin)
	w.WriteString("\tconst long soac_lid = get_local_id(0), soac_lsz = get_local_size(0);\n")
	w.WriteString("\tfor (long soac_i = soac_lid; soac_i < soac_room * soac_copies; soac_i += soac_lsz) soac_bins[soac_i] = 0;\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	fmt.Fprintf(&w, "\t__local %s *soac_mine = soac_bins + (soac_lid %% soac_copies) * soac_room;\n", bin)
	w.WriteString(elem("local"))
	w.WriteString("\tbarrier(CLK_LOCAL_MEM_FENCE);\n\tfor (long soac_i = soac_lid; soac_i < soac_room; soac_i += soac_lsz) {\n")
	fmt.Fprintf(&w, "\t\t%[1]s soac_s = 0;\n\t\tfor (long soac_c = 0; soac_c < soac_copies; soac_c++) soac_s += (%[1]s)soac_bins[soac_c * soac_room + soac_i];\n", u)
	fmt.Fprintf(&w, "\t\tif (soac_s != 0) %s((volatile __global %s *)&soac_out[soac_i], (%s)soac_s);\n\t}\n", add, bin, bin)
	w.WriteString("\tif (soac_err != 0) atomic_max(soac_flag, soac_err);\n}\n")
	fmt.Fprintf(&w, "__kernel void %s_global(const long soac_n, %s) {\n", s.Name, params)
	w.WriteString(elem("global"))
	w.WriteString("\tif (soac_err != 0) atomic_max(soac_flag, soac_err);\n}\n")
	return w.String(), nil
}

// BinsKernel is a Bins built for one device.
type BinsKernel struct {
	spec Bins
	prog *program
}

// Build generates the skeleton's program and builds it on d.
func (s Bins) Build(d *device.Device) (*BinsKernel, error) {
	src, err := s.Source()
	if err != nil {
		return nil, err
	}
	p, err := buildProgram(d, src, s.Options, s.Name+"_zero", s.Name+"_local", s.Name+"_global")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	return &BinsKernel{spec: s, prog: p}, nil
}

// The local memory of a run of the bins skeleton.
const (
	// binsLocalShare: a row fits local memory when it takes at most
	// this share of it; longer rows are added to in global memory.
	binsLocalShare = 2
	// binsCopiesShare: the copies of a row take at most this share of
	// local memory, so that the eight groups a GPU compute unit runs
	// for a streaming loop (gpuGroupsPerCU) fit together.
	binsCopiesShare = 8
	// binsMaxCopies bounds the copies of a row in a group: past a few,
	// a copy's bins are contended no more than global memory's.
	binsMaxCopies = 16
)

// copies returns how many copies of a row of room bins a work-group of
// local work-items keeps in local memory, or 0 when the row is added to
// in global memory.
func (k *BinsKernel) copies(room, local int) int {
	lm := int(k.prog.dev.Info.LocalMemSize)
	size := room * k.spec.Bin.Size
	if size > lm/binsLocalShare {
		return 0
	}
	return max(1, min(lm/binsCopiesShare/size, binsMaxCopies, local))
}

// RunArgs runs the skeleton with the values of its Args over inputs (all
// of one length n > 0), writing the row of bins into result (room > 0
// elements). It reports whether a work-item set its panic flag (result
// is then not written).
func (k *BinsKernel) RunArgs(vals []any, inputs []HostSlice, result HostSlice) (bool, Timing, error) {
	return rowRun(k.run).hostArgs(k.spec.Name, k.spec.Inputs, vals, inputs, result)
}

// RunDeviceArgs is RunArgs on inputs already in device buffers (n
// elements each, of the skeleton's input types; the caller checked
// both): they are read, not written, and stay the caller's.
func (k *BinsKernel) RunDeviceArgs(vals []any, n int, inputs []*cl.MemObject, result HostSlice) (bool, Timing, error) {
	return rowRun(k.run).deviceArgs(k.spec.Name, len(k.spec.Inputs), vals, n, inputs, result)
}

// RunDeviceTo is RunDeviceArgs writing the row of room bins into the
// device buffer out (room × the bin's size bytes, the caller's) instead
// of downloading it: out holds the row when it reports no panic and
// returns no error.
func (k *BinsKernel) RunDeviceTo(vals []any, n int, inputs []*cl.MemObject, room int, out *cl.MemObject) (bool, Timing, error) {
	return rowRun(k.run).deviceTo(k.spec.Name, len(k.spec.Inputs), vals, n, inputs, room, out)
}

// run is RunArgs, RunDeviceArgs and RunDeviceTo: inputs gives the input
// buffers of n elements within the run; the row is downloaded into
// result, or, when out is set, written there (result then only gives
// its length).
func (k *BinsKernel) run(vals []any, n int, inputs func(r *run) ([]*cl.MemObject, error), result HostSlice, out *cl.MemObject) (bool, Timing, error) {
	s := k.spec
	if out == nil {
		if err := checkHost("result", []HostSlice{result}, []Param{{"row", s.Bin}}); err != nil {
			return false, Timing{}, fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	if len(vals) != len(s.Args) {
		return false, Timing{}, fmt.Errorf("%s: %d argument values for %d arguments", s.Name, len(vals), len(s.Args))
	}
	room := result.n
	if n == 0 || room == 0 {
		return false, Timing{}, fmt.Errorf("%s: empty input or row", s.Name)
	}
	var flag [1]int32
	t, err := k.prog.do(func(r *run) error {
		ins, err := inputs(r)
		if err != nil {
			return err
		}
		fb, err := r.upload(Slice(flag[:]))
		if err != nil {
			return err
		}
		dst := out
		if dst == nil {
			if dst, err = r.buffer(room * s.Bin.Size); err != nil {
				return err
			}
		}
		p := newPlan(k.prog.dev.Info, k.prog.wg, k.prog.pref, int64(n), 0)
		if err := r.launch(k.prog.kernels[s.Name+"_zero"], (room+p.local-1)/p.local*p.local, p.local, int64(room), dst); err != nil {
			return err
		}
		args := append([]any{int64(n), int64(room)}, vals...)
		for _, b := range ins {
			args = append(args, b)
		}
		args = append(args, dst, fb)
		kernel := s.Name + "_global"
		if c := k.copies(room, p.local); c > 0 {
			kernel = s.Name + "_local"
			args = append(args, int64(c), cl.LocalBuffer(c*room*s.Bin.Size))
		}
		if err := r.launch(k.prog.kernels[kernel], p.groups*p.local, p.local, args...); err != nil {
			return err
		}
		if err := r.download(fb, Slice(flag[:])); err != nil {
			return err
		}
		if flag[0] != 0 || out != nil {
			return nil
		}
		return r.download(dst, result)
	})
	return flag[0] != 0, t, err
}
