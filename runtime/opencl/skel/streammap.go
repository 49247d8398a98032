package skel

// This file is the stream-map skeleton: a StreamMap whose chunk function
// makes a row of its chunk's length and returns it (examples/prefixsum's
// 3x+1 a chunk at a time). The input is split into chunks, and one
// work-item per chunk runs the chunk code into the chunk's own part of
// the output, its row at the chunk's offset. The chunking depends on the
// length of the input only, never on the device, so a run writes the
// same output on every device; the spec promises that the result does
// not depend on the chunking (docs/contract.md). It does not translate
// anything: the chunk code is OpenCL C from the caller (package
// rewrite/clc through the opencl backend).

import (
	"fmt"
	"strings"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// StreamMap is the stream-map skeleton. Chunk c covers the input's
// indices [c·chunk, min((c+1)·chunk, n)) (StreamMapChunk gives the
// chunk length) and writes the same indices of the output.
//
// Chunk is OpenCL C statements run once per chunk. They read the inputs
// as in_NAME (global pointers to the n elements), the chunk's index
// range [soac_lo, soac_hi), the Args by name, each Scratch buffer as
// scratch_NAME (n elements the statements may write, at the chunk's
// indices only), soac_row (a global pointer to the output's elements
// from soac_lo on, soac_room = soac_hi - soac_lo of them, which they
// must write in full) and soac_room; they set int soac_err to a
// positive panic site ID where Go would panic, or where the chunk
// function's result is not its chunk's length (the caller's CPU code
// then runs).
type StreamMap struct {
	Name    string // kernel name prefix, a C identifier
	Inputs  []Param
	Scratch []Param
	Out     Type // the element type of the output
	Args    []Arg
	Chunk   string
	// Preamble holds helper OpenCL C functions, emitted first.
	Preamble string
	// Options are the build options ("" for none).
	Options string
}

// The geometry of a stream map, from the length of the input only (so
// that every device chunks alike).
const (
	// streamMapMaxChunks is the most chunks: enough work-items to fill
	// a large GPU several times over.
	streamMapMaxChunks = 1 << 20
	// streamMapMinChunk is the fewest elements of a chunk (the last may
	// have fewer): short chunks keep the work-items' reads and writes
	// close together, long enough ones pay a chunk function's own work
	// (its row's zeroing, what it computes once per chunk).
	streamMapMinChunk = 16
)

// StreamMapChunk returns the chunk length a run over n elements (n > 0)
// uses.
func StreamMapChunk(n int) int {
	return max(streamMapMinChunk, (n+streamMapMaxChunks-1)/streamMapMaxChunks)
}

// Source returns the OpenCL C program of the skeleton.
func (s StreamMap) Source() (string, error) {
	head, err := streamChunksHead(s.Name, s.Inputs, s.Scratch, s.Args, s.Out, "output", s.Preamble, "const long soac_chunks", "soac_out")
	if err != nil {
		return "", err
	}
	var w strings.Builder
	w.WriteString(head)
	w.WriteString("\tconst long soac_g = get_global_id(0);\n\tif (soac_g >= soac_chunks) return;\n")
	w.WriteString("\tconst long soac_lo = soac_g * soac_chunk;\n\tconst long soac_hi = min(soac_lo + soac_chunk, soac_n);\n")
	fmt.Fprintf(&w, "\t__global %s *soac_row = soac_out + soac_lo;\n\tconst long soac_room = soac_hi - soac_lo;\n\tint soac_err = 0;\n", s.Out.Name)
	fmt.Fprintf(&w, "\t{\n%s\n\t}\n\tif (soac_err != 0) atomic_max(soac_flag, soac_err);\n}\n", indent(s.Chunk, "\t\t"))
	return w.String(), nil
}

// StreamMapKernel is a StreamMap built for one device.
type StreamMapKernel struct {
	spec StreamMap
	prog *program
}

// Build generates the skeleton's program and builds it on d.
func (s StreamMap) Build(d *device.Device) (*StreamMapKernel, error) {
	src, err := s.Source()
	if err != nil {
		return nil, err
	}
	p, err := buildProgram(d, src, s.Options, s.Name+"_chunks")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	return &StreamMapKernel{spec: s, prog: p}, nil
}

// local returns the work-group size of the kernel.
func (k *StreamMapKernel) local() int {
	l := min(k.prog.wg, 128)
	if k.prog.pref > 0 && l > k.prog.pref {
		l -= l % k.prog.pref
	}
	return max(l, 1)
}

// RunArgs runs the skeleton with the values of its Args over inputs (all
// of one length n > 0), writing the n elements of the output into out.
// It reports whether a work-item set its panic flag (out is then not
// written).
func (k *StreamMapKernel) RunArgs(vals []any, inputs []HostSlice, out HostSlice) (bool, Timing, error) {
	return rowRun(k.run).hostArgs(k.spec.Name, k.spec.Inputs, vals, inputs, out)
}

// RunDeviceArgs is RunArgs on inputs already in device buffers (n
// elements each, of the skeleton's input types; the caller checked
// both): they are read, not written, and stay the caller's.
func (k *StreamMapKernel) RunDeviceArgs(vals []any, n int, inputs []*cl.MemObject, out HostSlice) (bool, Timing, error) {
	return rowRun(k.run).deviceArgs(k.spec.Name, len(k.spec.Inputs), vals, n, inputs, out)
}

// RunDevice is RunDeviceArgs writing the output into device buffer out
// (room for n elements of the output type), which stays the caller's:
// nothing is downloaded. After a panic flag out holds no output.
func (k *StreamMapKernel) RunDevice(vals []any, n int, inputs []*cl.MemObject, out *cl.MemObject) (bool, Timing, error) {
	if err := deviceInputs(k.spec.Name, inputs, len(k.spec.Inputs)); err != nil {
		return false, Timing{}, err
	}
	if out == nil || out.Size() < n*k.spec.Out.Size {
		return false, Timing{}, fmt.Errorf("%s: no output buffer of %d elements", k.spec.Name, n)
	}
	return k.run(vals, n, func(*run) ([]*cl.MemObject, error) { return inputs, nil }, HostSlice{n: n, elem: k.spec.Out.Size}, out)
}

// run is RunArgs, RunDeviceArgs and RunDevice: inputs gives the input
// buffers of n elements within the run; the output goes to dev when it
// is not nil, else to a buffer of the run downloaded into out.
func (k *StreamMapKernel) run(vals []any, n int, inputs func(r *run) ([]*cl.MemObject, error), out HostSlice, dev *cl.MemObject) (bool, Timing, error) {
	s := k.spec
	if err := checkHost("output", []HostSlice{out}, []Param{{"out", s.Out}}); err != nil {
		return false, Timing{}, fmt.Errorf("%s: %w", s.Name, err)
	}
	if len(vals) != len(s.Args) {
		return false, Timing{}, fmt.Errorf("%s: %d argument values for %d arguments", s.Name, len(vals), len(s.Args))
	}
	if n == 0 || out.n != n {
		return false, Timing{}, fmt.Errorf("%s: an empty input, or an output of %d elements for %d", s.Name, out.n, n)
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
		chunk := StreamMapChunk(n)
		chunks := (n + chunk - 1) / chunk
		ob := dev
		if ob == nil {
			if ob, err = r.buffer(n * s.Out.Size); err != nil {
				return err
			}
		}
		args := append([]any{int64(n), int64(chunk), int64(chunks)}, vals...)
		for _, b := range ins {
			args = append(args, b)
		}
		for _, p := range s.Scratch {
			b, err := r.buffer(n * p.Type.Size)
			if err != nil {
				return err
			}
			args = append(args, b)
		}
		args = append(args, ob, fb)
		local := k.local()
		if err := r.launch(k.prog.kernels[s.Name+"_chunks"], (chunks+local-1)/local*local, local, args...); err != nil {
			return err
		}
		if err := r.download(fb, Slice(flag[:])); err != nil {
			return err
		}
		if flag[0] != 0 || dev != nil {
			return nil
		}
		return r.download(ob, out)
	})
	return flag[0] != 0, t, err
}

// streamChunksHead returns the start of the OpenCL C program of a stream
// skeleton named name: the prelude of its types (elem, the output's or a
// row's, first) and the head of its NAME_chunks kernel, whose
// parameters are soac_n, soac_chunk and params, the args, the inputs
// (in_NAME), the scratch buffers (scratch_NAME), the buffer out of elem
// and soac_flag; or why the names are not usable (what names elem when
// it is missing).
func streamChunksHead(name string, inputs, scratch []Param, args []Arg, elem Type, what, preamble, params, out string) (string, error) {
	if !ident.MatchString(name) {
		return "", fmt.Errorf("skeleton name %q is not a C identifier", name)
	}
	if len(inputs) == 0 {
		return "", fmt.Errorf("%s: no inputs", name)
	}
	if elem.Size == 0 {
		return "", fmt.Errorf("%s: no %s type", name, what)
	}
	seen := map[string]bool{}
	for _, ps := range [][]Param{inputs, scratch} {
		for _, p := range ps {
			if !ident.MatchString(p.Name) || seen[p.Name] {
				return "", fmt.Errorf("%s: bad or repeated name %q", name, p.Name)
			}
			seen[p.Name] = true
		}
	}
	for _, a := range args {
		if !ident.MatchString(a.Name) || strings.HasPrefix(a.Name, "soac_") {
			return "", fmt.Errorf("%s: argument name %q is not a usable C identifier", name, a.Name)
		}
	}
	ts := []Type{elem}
	for _, ps := range [][]Param{inputs, scratch} {
		for _, p := range ps {
			ts = append(ts, p.Type)
		}
	}
	var w strings.Builder
	w.WriteString(prelude(ts, preamble))
	fmt.Fprintf(&w, "__kernel void %s_chunks(const long soac_n, const long soac_chunk, %s) {\n", name, streamParams(params, inputs, scratch, args, elem, out))
	return w.String(), nil
}

// streamParams returns the parameters of a stream kernel after params:
// the Args, the inputs, the scratch buffers, the output out of element
// type elem and the panic flag.
func streamParams(params string, inputs, scratch []Param, args []Arg, elem Type, out string) string {
	var w strings.Builder
	w.WriteString(params)
	for _, a := range args {
		fmt.Fprintf(&w, ",\n\t%s", a.Decl)
	}
	for _, p := range inputs {
		fmt.Fprintf(&w, ",\n\t__global const %s *restrict in_%s", p.Type.Name, p.Name)
	}
	for _, p := range scratch {
		fmt.Fprintf(&w, ",\n\t__global %s *restrict scratch_%s", p.Type.Name, p.Name)
	}
	fmt.Fprintf(&w, ",\n\t__global %s *restrict %s,\n\t__global int *restrict soac_flag", elem.Name, out)
	return w.String()
}
