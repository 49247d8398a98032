package skel

// This file is the grid skeleton: a two-dimensional map with one
// work-item per element (i, j) of a rows × cols result, the shape of a
// matrix product's outer two maps. Its element is either general OpenCL
// C (Body) or a dot product (Dot): a fold, left to right, of the
// products of row i of one matrix and row j of another, whose operands
// the work-group loads through local memory in square tiles. Tiling
// changes where the operands are read from, never the order of the
// fold: each work-item still combines k = 0, 1, ..., K-1 in order, so the
// result is the sequential fold's, bit for bit. A work-item that reaches
// a panic site records it in the run's flag (the largest site ID), which
// Run returns.

import (
	"fmt"
	"strings"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// Grid is the skeleton of a two-dimensional map over rows × cols
// elements, written row-major into the buffer Out at i*cols + j.
type Grid struct {
	Name string // kernel name, a C identifier
	// Args are the kernel's arguments after rows, cols and k, in order;
	// the element code reads each by its name.
	Args []Arg
	// Result is the C type of an element of the result.
	Result string
	// Out is the name of the argument (among Args) of the result buffer,
	// declared __global Result *.
	Out string
	// Body is OpenCL C statements computing the element at (soac_i,
	// soac_j), both long, into soac_v (declared Result). They may read
	// soac_rows, soac_cols and the Args, and set the int soac_err (0 on
	// entry) to a panic site's ID. Unused with Dot.
	Body string
	// Dot, when set, computes every element as a dot product instead of
	// Body.
	Dot *Dot
	// Preamble is helper OpenCL C emitted before the kernel.
	Preamble string
	// Options are the program's build options ("" for none).
	Options string
}

// Dot is the element of a Grid as a fold of k products: element (i, j)
// is the left fold, from Neutral, of Op over Prod(A[i*k + l], B[j*k +
// l]) for l = 0 .. k-1, with A rows × k and B cols × k row-major.
type Dot struct {
	// A and B are the names of the arguments (among Args) of the two
	// operands' element buffers, declared __global const AType * and
	// __global const BType *.
	A, B string
	// AType and BType are the operands' scalar C element types.
	AType, BType string
	// Prod is a C expression of type Result: the product of soac_x
	// (AType) and soac_y (BType). Op is a C expression of type Result
	// combining the accumulator soac_s with the product soac_t. Both may
	// set soac_err through &soac_err.
	Prod, Op string
	// Neutral is the fold's start, a C expression of type Result.
	Neutral string
}

// The geometry of the grid kernels: work-groups of gridTile ×
// gridTile work-items, dimension 0 along j (consecutive work-items of a
// warp write consecutive elements of a row). A Dot work-item computes
// gridRows elements, rows gridTile apart, so that the operand of B it
// reads from local memory serves gridRows products (the tile of A is
// gridRows·gridTile rows of gridTile elements, the tile of B gridTile
// rows).
const (
	gridTile = 16
	gridRows = 4
)

// Source returns the skeleton's OpenCL C program.
func (g Grid) Source() (string, error) {
	return g.generate()
}

func (g Grid) generate() (string, error) {
	if !ident.MatchString(g.Name) {
		return "", fmt.Errorf("skeleton name %q is not a C identifier", g.Name)
	}
	names := map[string]bool{}
	for _, a := range g.Args {
		if !ident.MatchString(a.Name) || strings.HasPrefix(a.Name, "soac_") {
			return "", fmt.Errorf("%s: argument name %q is not a usable C identifier", g.Name, a.Name)
		}
		names[a.Name] = true
	}
	if !names[g.Out] {
		return "", fmt.Errorf("%s: the output %q is not an argument", g.Name, g.Out)
	}
	if g.Result == "" {
		return "", fmt.Errorf("%s: no result type", g.Name)
	}
	if d := g.Dot; d != nil && (!names[d.A] || !names[d.B]) {
		return "", fmt.Errorf("%s: the operands %q and %q are not both arguments", g.Name, d.A, d.B)
	}
	var w strings.Builder
	if g.Preamble != "" {
		w.WriteString(g.Preamble)
		w.WriteString("\n")
	}
	fmt.Fprintf(&w, "__kernel void %s(const long soac_rows, const long soac_cols, const long soac_k", g.Name)
	for _, a := range g.Args {
		fmt.Fprintf(&w, ",\n\t%s", a.Decl)
	}
	w.WriteString(",\n\t__global int *restrict soac_flag) {\n")
	if g.Dot == nil {
		g.emitBody(&w)
	} else {
		g.emitDot(&w)
	}
	w.WriteString("}\n")
	return w.String(), nil
}

// emitBody writes the general kernel: one element per work-item.
func (g Grid) emitBody(w *strings.Builder) {
	w.WriteString("\tconst long soac_j = get_global_id(0);\n\tconst long soac_i = get_global_id(1);\n")
	w.WriteString("\tif (soac_i >= soac_rows || soac_j >= soac_cols) {\n\t\treturn;\n\t}\n")
	fmt.Fprintf(w, "\tint soac_err = 0;\n\t%s soac_v;\n\t{\n%s\n\t}\n", g.Result, indent(g.Body, "\t\t"))
	fmt.Fprintf(w, "\t%s[soac_i * soac_cols + soac_j] = soac_v;\n", g.Out)
	w.WriteString("\tif (soac_err != 0) {\n\t\tatomic_max(soac_flag, soac_err);\n\t}\n")
}

// emitDot writes the tiled dot-product kernel. Each round loads
// gridTile columns (k) of the group's rows of A and B into local memory
// (rows padded by one element, so that work-items reading one column of
// different rows hit different banks); each work-item then folds them
// into its accumulators in order of k. Work-items outside the result
// load (zeros past the ends) and wait at the barriers, but evaluate no
// lambda.
func (g Grid) emitDot(w *strings.Builder) {
	d := g.Dot
	T, R := gridTile, gridRows
	fmt.Fprintf(w, "\t__local %s soac_ta[%d][%d];\n\t__local %s soac_tb[%d][%d];\n", d.AType, R*T, T+1, d.BType, T, T+1)
	w.WriteString("\tconst int soac_tx = get_local_id(0), soac_ty = get_local_id(1);\n")
	fmt.Fprintf(w, "\tconst long soac_j0 = (long)get_group_id(0) * %d, soac_i0 = (long)get_group_id(1) * %d;\n", T, R*T)
	w.WriteString("\tconst long soac_j = soac_j0 + soac_tx;\n\tint soac_err = 0;\n")
	fmt.Fprintf(w, "\t%s soac_acc[%d];\n", g.Result, R)
	fmt.Fprintf(w, "\tfor (int w = 0; w < %d; w++) {\n\t\tsoac_acc[w] = %s;\n\t}\n", R, d.Neutral)
	fmt.Fprintf(w, "\tfor (long soac_k0 = 0; soac_k0 < soac_k; soac_k0 += %d) {\n", T)
	w.WriteString("\t\tconst long soac_kk = soac_k0 + soac_tx;\n")
	fmt.Fprintf(w, "\t\tfor (int w = 0; w < %d; w++) {\n", R)
	fmt.Fprintf(w, "\t\t\tconst long ia = soac_i0 + soac_ty + %d * w;\n", T)
	fmt.Fprintf(w, "\t\t\tsoac_ta[soac_ty + %d * w][soac_tx] = ia < soac_rows && soac_kk < soac_k ? %s[ia * soac_k + soac_kk] : (%s)0;\n\t\t}\n", T, d.A, d.AType)
	w.WriteString("\t\tconst long jb = soac_j0 + soac_ty;\n")
	fmt.Fprintf(w, "\t\tsoac_tb[soac_ty][soac_tx] = jb < soac_cols && soac_kk < soac_k ? %s[jb * soac_k + soac_kk] : (%s)0;\n", d.B, d.BType)
	w.WriteString("\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t\tif (soac_j < soac_cols) {\n")
	fmt.Fprintf(w, "\t\t\tconst int kn = (int)min((long)%d, soac_k - soac_k0);\n", T)
	w.WriteString("\t\t\tfor (int k = 0; k < kn; k++) {\n")
	fmt.Fprintf(w, "\t\t\t\tconst %s soac_y = soac_tb[soac_tx][k];\n", d.BType)
	fmt.Fprintf(w, "\t\t\t\tfor (int w = 0; w < %d; w++) {\n", R)
	fmt.Fprintf(w, "\t\t\t\t\tif (soac_i0 + soac_ty + %d * w < soac_rows) {\n", T)
	fmt.Fprintf(w, "\t\t\t\t\t\tconst %s soac_x = soac_ta[soac_ty + %d * w][k];\n", d.AType, T)
	fmt.Fprintf(w, "\t\t\t\t\t\tconst %s soac_s = soac_acc[w];\n", g.Result)
	fmt.Fprintf(w, "\t\t\t\t\t\tconst %s soac_t = %s;\n", g.Result, d.Prod)
	fmt.Fprintf(w, "\t\t\t\t\t\tsoac_acc[w] = %s;\n", d.Op)
	w.WriteString("\t\t\t\t\t}\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t}\n")
	w.WriteString("\tif (soac_j < soac_cols) {\n")
	fmt.Fprintf(w, "\t\tfor (int w = 0; w < %d; w++) {\n", R)
	fmt.Fprintf(w, "\t\t\tconst long i = soac_i0 + soac_ty + %d * w;\n", T)
	fmt.Fprintf(w, "\t\t\tif (i < soac_rows) {\n\t\t\t\t%s[i * soac_cols + soac_j] = soac_acc[w];\n\t\t\t}\n\t\t}\n", g.Out)
	w.WriteString("\t\tif (soac_err != 0) {\n\t\t\tatomic_max(soac_flag, soac_err);\n\t\t}\n\t}\n")
}

// GridKernel is a Grid built for one device.
type GridKernel struct {
	spec Grid
	prog *program
}

// Build generates the skeleton's program and builds it on d. It fails
// when the device cannot run work-groups of gridTile × gridTile.
func (g Grid) Build(d *device.Device) (*GridKernel, error) {
	src, err := g.generate()
	if err != nil {
		return nil, err
	}
	p, err := buildProgram(d, src, g.Options, g.Name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", g.Name, err)
	}
	if p.wg < gridTile*gridTile {
		return nil, fmt.Errorf("%s: work-groups of %d work-items at most, the grid needs %d", g.Name, p.wg, gridTile*gridTile)
	}
	return &GridKernel{spec: g, prog: p}, nil
}

// Run runs the kernel over rows × cols elements (both > 0) with inner
// length k (the Dot's; passed to Body as soac_k) and the values of the
// Args (each a value cl.Kernel.SetArg takes: a sized number, a buffer,
// or the bytes of the C value). It returns the panic flag: 0, or the
// largest site ID a work-item recorded.
func (k *GridKernel) Run(rows, cols, inner int, vals []any) (int32, Timing, error) {
	s := k.spec
	if rows <= 0 || cols <= 0 || inner < 0 {
		return 0, Timing{}, fmt.Errorf("%s: a grid of %d × %d elements of inner length %d", s.Name, rows, cols, inner)
	}
	if len(vals) != len(s.Args) {
		return 0, Timing{}, fmt.Errorf("%s: %d argument values for %d arguments", s.Name, len(vals), len(s.Args))
	}
	var flag [1]int32
	t, err := k.prog.do(func(r *run) error {
		fb, err := r.buffer(4)
		if err != nil {
			return err
		}
		e, err := r.q.EnqueueWriteBuffer(fb, true, 0, cl.Bytes(flag[:]), nil)
		if err != nil {
			return err
		}
		e.Release()
		args := append(append([]any{int64(rows), int64(cols), int64(inner)}, vals...), fb)
		kern := r.kern(k.prog.kernels[s.Name])
		if err := kern.SetArgs(args...); err != nil {
			return err
		}
		ty := gridTile
		if s.Dot != nil {
			ty *= gridRows
		}
		global := []int{roundUp(cols, gridTile), roundUp(rows, ty) / ty * gridTile}
		ev, err := r.q.EnqueueNDRangeKernel(kern, nil, global, []int{gridTile, gridTile}, nil)
		if err != nil {
			return err
		}
		r.kernels = append(r.kernels, ev)
		return r.download(fb, Slice(flag[:]))
	})
	return flag[0], t, err
}

// roundUp returns n rounded up to a multiple of m.
func roundUp(n, m int) int { return (n + m - 1) / m * m }
