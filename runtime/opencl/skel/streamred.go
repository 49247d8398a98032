package skel

// This file is the stream-reduce skeleton: a StreamRed whose chunk
// function builds a row of a length known before the launch (k-means'
// counts per centre, a histogram's bins). The input is split into chunks,
// one work-item per chunk runs the chunk code into its own row of a
// scratch buffer of rows, and the rows are then combined by the
// operator in chunk order, a contiguous run of rows per work-item,
// level by level, until one row is left, which is downloaded. The
// chunking depends on the length of the input and of a row only, never
// on the device, so a run gives the same result on every device. It does
// not translate anything: the chunk code and the operator are OpenCL C
// from the caller (package rewrite/clc through the opencl backend).

import (
	"fmt"
	"strings"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// StreamRed is the stream-reduce skeleton. Row 0 is the chunk code's
// result on the empty chunk (the spec's f(xs[:0])), row c+1 its result
// on chunk c; the result is row 0 ⊕ row 1 ⊕ ... in that order, grouped
// as the combine levels go (the operator is associative).
//
// Chunk is OpenCL C statements run once per row. They read the inputs
// as in_NAME (global pointers to the n elements), the chunk's index
// range [soac_lo, soac_hi) (empty for row 0), the Args by name, each Scratch
// buffer as scratch_NAME (n elements the statements may write, at the
// chunk's indices only), soac_row (a global pointer to the row's
// soac_room elements, which they must write in full) and soac_room; they
// set int soac_err to a positive panic site ID where Go would panic.
//
// Combine is OpenCL C statements that write soac_out (soac_room
// elements) from soac_a and soac_b (global pointers to rows of soac_room
// elements, never soac_out's memory), setting soac_err likewise.
type StreamRed struct {
	Name    string // kernel name prefix, a C identifier
	Inputs  []Param
	Scratch []Param
	Row     Type // the element type of a row
	Args    []Arg
	Chunk   string
	Combine string
	// Preamble holds helper OpenCL C functions, emitted first.
	Preamble string
	// Options are the build options ("" for none).
	Options string
}

// The geometry of a stream reduction, from the lengths of the input and
// of a row only (so that every device chunks alike).
const (
	// streamRedRowBytes bounds the scratch buffer of rows.
	streamRedRowBytes = 64 << 20
	// streamRedMaxChunks is the most chunks: enough work-items to fill a
	// large GPU.
	streamRedMaxChunks = 1 << 16
	// streamRedMinChunk is the fewest elements of a chunk (the last may
	// have fewer): below it a row costs more to combine than to build.
	streamRedMinChunk = 32
	// streamRedFan is the number of rows one work-item of a combine
	// level folds.
	streamRedFan = 32
)

// StreamRedChunk returns the chunk length a run over n elements (n > 0)
// with rows of room elements of size bytes uses.
func StreamRedChunk(n, room, size int) int {
	most := max(1, min(streamRedMaxChunks, streamRedRowBytes/max(1, room*size)))
	return max(streamRedMinChunk, (n+most-1)/most)
}

// Source returns the OpenCL C program of the skeleton.
func (s StreamRed) Source() (string, error) {
	head, err := streamChunksHead(s.Name, s.Inputs, s.Scratch, s.Args, s.Row, "row", s.Preamble, "const long soac_rows_n, const long soac_room", "soac_rows")
	if err != nil {
		return "", err
	}
	var w strings.Builder
	w.WriteString(head)
	row := s.Row.Name
	w.WriteString("\tconst long soac_g = get_global_id(0);\n\tif (soac_g >= soac_rows_n) return;\n")
	w.WriteString("\tlong soac_lo = 0, soac_hi = 0;\n\tif (soac_g > 0) {\n\t\tsoac_lo = (soac_g - 1) * soac_chunk;\n\t\tsoac_hi = min(soac_lo + soac_chunk, soac_n);\n\t}\n")
	fmt.Fprintf(&w, "\t__global %s *soac_row = soac_rows + soac_g * soac_room;\n\tint soac_err = 0;\n", row)
	fmt.Fprintf(&w, "\t{\n%s\n\t}\n\tif (soac_err != 0) atomic_max(soac_flag, soac_err);\n}\n", indent(s.Chunk, "\t\t"))
	fmt.Fprintf(&w, "__kernel void %[1]s_combine(const long soac_m, const long soac_fan, const long soac_room,\n\t__global const %[2]s *restrict soac_src,\n\t__global %[2]s *restrict soac_dst,\n\t__global %[2]s *restrict soac_tmp,\n\t__global int *restrict soac_flag) {\n", s.Name, row)
	w.WriteString("\tconst long soac_g = get_global_id(0);\n\tconst long soac_lo = soac_g * soac_fan;\n\tif (soac_lo >= soac_m) return;\n\tconst long soac_cnt = min(soac_fan, soac_m - soac_lo);\n")
	fmt.Fprintf(&w, "\t__global %[1]s *soac_d = soac_dst + soac_g * soac_room;\n\t__global %[1]s *soac_t = soac_tmp + soac_g * soac_room;\n\t__global const %[1]s *soac_a = soac_src + soac_lo * soac_room;\n", row)
	w.WriteString("\tif (soac_cnt == 1) {\n\t\tfor (long soac_i = 0; soac_i < soac_room; soac_i++) soac_d[soac_i] = soac_a[soac_i];\n\t\treturn;\n\t}\n\tint soac_err = 0;\n")
	// The last of the cnt-1 combines writes soac_d; they alternate
	// between soac_d and soac_t, so that no combine writes the row it
	// reads.
	fmt.Fprintf(&w, "\tfor (long soac_j = 1; soac_j < soac_cnt && soac_err == 0; soac_j++) {\n\t\t__global const %[1]s *soac_b = soac_src + (soac_lo + soac_j) * soac_room;\n\t\t__global %[1]s *soac_out = (soac_cnt - 1 - soac_j) %% 2 == 0 ? soac_d : soac_t;\n", row)
	fmt.Fprintf(&w, "\t\t{\n%s\n\t\t}\n\t\tsoac_a = soac_out;\n\t}\n\tif (soac_err != 0) atomic_max(soac_flag, soac_err);\n}\n", indent(s.Combine, "\t\t\t"))
	return w.String(), nil
}

// StreamRedKernel is a StreamRed built for one device.
type StreamRedKernel struct {
	spec StreamRed
	prog *program
}

// Build generates the skeleton's program and builds it on d.
func (s StreamRed) Build(d *device.Device) (*StreamRedKernel, error) {
	src, err := s.Source()
	if err != nil {
		return nil, err
	}
	p, err := buildProgram(d, src, s.Options, s.Name+"_chunks", s.Name+"_combine")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	return &StreamRedKernel{spec: s, prog: p}, nil
}

// Fits reports whether rows of room elements are small enough for the
// device run: two of them within the scratch budget of rows (a larger
// row would leave one chunk, run by one work-item, and risk buffers
// beyond the device's allocation limit; the CPU code serves it better).
func (k *StreamRedKernel) Fits(room int) bool {
	return room > 0 && room <= streamRedRowBytes/(2*k.spec.Row.Size)
}

// local returns the work-group size of the kernels.
func (k *StreamRedKernel) local() int {
	l := min(k.prog.wg, 64)
	if k.prog.pref > 0 && l > k.prog.pref {
		l -= l % k.prog.pref
	}
	return max(l, 1)
}

// RunArgs runs the skeleton with the values of its Args over inputs (all
// of one length n > 0), writing the combined row into result (room > 0
// elements). It reports whether a work-item set its panic flag (result
// is then not written).
func (k *StreamRedKernel) RunArgs(vals []any, inputs []HostSlice, result HostSlice) (bool, Timing, error) {
	return rowRun(k.run).hostArgs(k.spec.Name, k.spec.Inputs, vals, inputs, result)
}

// RunDeviceArgs is RunArgs on inputs already in device buffers (n
// elements each, of the skeleton's input types; the caller checked
// both): they are read, not written, and stay the caller's.
func (k *StreamRedKernel) RunDeviceArgs(vals []any, n int, inputs []*cl.MemObject, result HostSlice) (bool, Timing, error) {
	return rowRun(k.run).deviceArgs(k.spec.Name, len(k.spec.Inputs), vals, n, inputs, result)
}

// RunDeviceTo is RunDeviceArgs writing the combined row of room
// elements into the device buffer out (room × the row element's size
// bytes, the caller's) instead of downloading it: out holds the row
// when it reports no panic and returns no error.
func (k *StreamRedKernel) RunDeviceTo(vals []any, n int, inputs []*cl.MemObject, room int, out *cl.MemObject) (bool, Timing, error) {
	return rowRun(k.run).deviceTo(k.spec.Name, len(k.spec.Inputs), vals, n, inputs, room, out)
}

// run is RunArgs, RunDeviceArgs and RunDeviceTo: inputs gives the input
// buffers of n elements within the run; the row is downloaded into
// result, or, when out is set, written there (result then only gives
// its length).
func (k *StreamRedKernel) run(vals []any, n int, inputs func(r *run) ([]*cl.MemObject, error), result HostSlice, out *cl.MemObject) (bool, Timing, error) {
	s := k.spec
	if out == nil {
		if err := checkHost("result", []HostSlice{result}, []Param{{"row", s.Row}}); err != nil {
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
		chunk := StreamRedChunk(n, room, s.Row.Size)
		rows := 1 + (n+chunk-1)/chunk
		size := s.Row.Size * room
		src, err := r.buffer(rows * size)
		if err != nil {
			return err
		}
		args := append([]any{int64(n), int64(chunk), int64(rows), int64(room)}, vals...)
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
		args = append(args, src, fb)
		local := k.local()
		roundUp := func(x int) int { return (x + local - 1) / local * local }
		if err := r.launch(k.prog.kernels[s.Name+"_chunks"], roundUp(rows), local, args...); err != nil {
			return err
		}
		for m := rows; m > 1; {
			groups := (m + streamRedFan - 1) / streamRedFan
			// The last level writes the row (rows > 1: there is one).
			dst := out
			if groups > 1 || out == nil {
				if dst, err = r.buffer(groups * size); err != nil {
					return err
				}
			}
			tmp, err := r.buffer(groups * size)
			if err != nil {
				return err
			}
			if err := r.launch(k.prog.kernels[s.Name+"_combine"], roundUp(groups), local, int64(m), int64(streamRedFan), int64(room), src, dst, tmp, fb); err != nil {
				return err
			}
			src, m = dst, groups
		}
		if err := r.download(fb, Slice(flag[:])); err != nil {
			return err
		}
		if flag[0] != 0 || out != nil {
			return nil
		}
		return r.download(src, result)
	})
	return flag[0] != 0, t, err
}
