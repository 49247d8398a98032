package skel

// This file emits OpenCL C for the canonical map-reduce kernel that every
// skeleton builds on. It checks names but not the element code, which the
// OpenCL compiler checks when the program is built.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

// body is the element code of a skeleton: the inputs read at one index,
// the statements, and the variables they assign. It becomes the function
// soac_body returning a soac_res struct with one field per result.
type body struct {
	inputs  []Param
	results []Param // outputs and reduction values, each name once
	keep    bool    // the statements set int keep (filters)
	code    string
	args    []Arg // kernel arguments the statements read (Redomap.Args)
}

// newBody collects the results of outputs and reductions, sharing a name
// between an output and a reduction that folds it.
func newBody(inputs, outputs []Param, reds []Reduction, keep bool, code string) (body, error) {
	b := body{inputs: inputs, keep: keep, code: code}
	seen := map[string]Type{}
	for _, p := range inputs {
		if !ident.MatchString(p.Name) || strings.HasPrefix(p.Name, "soac_") {
			return b, fmt.Errorf("input name %q is not a usable C identifier", p.Name)
		}
		if _, dup := seen[p.Name]; dup {
			return b, fmt.Errorf("input %q repeated", p.Name)
		}
		seen[p.Name] = p.Type
	}
	add := func(p Param) error {
		if !ident.MatchString(p.Name) || strings.HasPrefix(p.Name, "soac_") || p.Name == "keep" {
			return fmt.Errorf("result name %q is not a usable C identifier", p.Name)
		}
		if t, ok := seen[p.Name]; ok {
			if t.Name != p.Type.Name {
				return fmt.Errorf("%q is %s and %s", p.Name, t.Name, p.Type.Name)
			}
			for _, r := range b.results {
				if r.Name == p.Name {
					return nil
				}
			}
		}
		seen[p.Name] = p.Type
		b.results = append(b.results, p)
		return nil
	}
	for _, p := range outputs {
		for _, q := range b.results {
			if q.Name == p.Name {
				return b, fmt.Errorf("output %q repeated", p.Name)
			}
		}
		if err := add(p); err != nil {
			return b, err
		}
	}
	for _, r := range reds {
		if err := add(Param{r.Name, r.Type}); err != nil {
			return b, err
		}
	}
	return b, nil
}

// checkArgs checks the names of a skeleton's Args: C identifiers outside
// the skeleton's soac_ names.
func checkArgs(args []Arg) error {
	for _, a := range args {
		if !ident.MatchString(a.Name) || strings.HasPrefix(a.Name, "soac_") {
			return fmt.Errorf("argument name %q is not a usable C identifier", a.Name)
		}
	}
	return nil
}

// checkVals checks that a run passes one value per argument.
func checkVals(vals []any, args []Arg) error {
	if len(vals) != len(args) {
		return fmt.Errorf("%d argument values for %d arguments", len(vals), len(args))
	}
	return nil
}

// params writes the kernel parameters of the arguments, each after a
// comma and a new line.
func (b body) params(w *strings.Builder) {
	for _, a := range b.args {
		fmt.Fprintf(w, ",\n\t%s", a.Decl)
	}
}

// isInput reports whether name is one of the inputs.
func (b body) isInput(name string) bool {
	for _, p := range b.inputs {
		if p.Name == name {
			return true
		}
	}
	return false
}

// emit writes soac_res and soac_body.
func (b body) emit(w *strings.Builder) {
	w.WriteString("typedef struct {")
	for _, r := range b.results {
		fmt.Fprintf(w, " %s %s;", r.Type.Name, r.Name)
	}
	if b.keep || len(b.results) == 0 {
		w.WriteString(" int keep;")
	}
	w.WriteString(" } soac_res;\n")
	w.WriteString("static inline soac_res soac_body(")
	for _, p := range b.inputs {
		fmt.Fprintf(w, "const %s %s, ", p.Type.Name, p.Name)
	}
	for _, a := range b.args {
		fmt.Fprintf(w, "%s, ", a.Decl)
	}
	w.WriteString("const long soac_index) {\n")
	for _, r := range b.results {
		if !b.isInput(r.Name) {
			fmt.Fprintf(w, "\t%s %s;\n", r.Type.Name, r.Name)
		}
	}
	if b.keep || len(b.results) == 0 {
		w.WriteString("\tint keep = 1;\n")
	}
	fmt.Fprintf(w, "\t{\n%s\n\t}\n\tsoac_res soac_r;\n", indent(b.code, "\t\t"))
	for _, r := range b.results {
		fmt.Fprintf(w, "\tsoac_r.%s = %s;\n", r.Name, r.Name)
	}
	if b.keep || len(b.results) == 0 {
		w.WriteString("\tsoac_r.keep = keep;\n")
	}
	w.WriteString("\treturn soac_r;\n}\n")
}

// call returns the expression calling soac_body on the inputs at index
// expression i.
func (b body) call(i string) string {
	var args []string
	for _, p := range b.inputs {
		args = append(args, fmt.Sprintf("in_%s[%s]", p.Name, i))
	}
	for _, a := range b.args {
		args = append(args, a.Name)
	}
	args = append(args, i)
	return "soac_body(" + strings.Join(args, ", ") + ")"
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = pre + strings.TrimSpace(l)
	}
	return strings.Join(lines, "\n")
}

// emitOps writes soac_op<k> and soac_neutral<k> for each reduction; a
// neutral element given at run time (Reduction.NeutralArg) is a macro
// reading its kernel argument, in scope in every kernel that calls it.
func emitOps(w *strings.Builder, reds []Reduction) {
	for k, r := range reds {
		fmt.Fprintf(w, "static inline %[2]s soac_op%[1]d(const %[2]s a, const %[2]s b) {\n\t%[2]s r;\n\t{\n%[3]s\n\t}\n\treturn r;\n}\n", k, r.Type.Name, indent(r.Op, "\t\t"))
		if r.NeutralArg {
			fmt.Fprintf(w, "#define soac_neutral%d() (%s)\n", k, r.Neutral)
			continue
		}
		fmt.Fprintf(w, "static inline %[2]s soac_neutral%[1]d(void) {\n\t%[2]s v = %[3]s;\n\treturn v;\n}\n", k, r.Type.Name, r.Neutral)
	}
}

// neutralArgs returns the Args that reductions' neutral elements name
// (Reduction.NeutralArg), in the order of args, and their indexes there;
// an error when one names no Arg.
func neutralArgs(reds []Reduction, args []Arg) ([]Arg, []int, error) {
	var out []Arg
	var idx []int
	for _, r := range reds {
		if !r.NeutralArg {
			continue
		}
		i := slices.IndexFunc(args, func(a Arg) bool { return a.Name == r.Neutral })
		if i < 0 {
			return nil, nil, fmt.Errorf("the neutral element of %s names %q, which is not an argument", r.Name, r.Neutral)
		}
		if !slices.Contains(idx, i) {
			out, idx = append(out, args[i]), append(idx, i)
		}
	}
	return out, idx, nil
}

// refuseNeutralArgs returns an error when a reduction's neutral element
// is given at run time: skeletons other than Redomap build it in.
func refuseNeutralArgs(name string, reds []Reduction) error {
	for _, r := range reds {
		if r.NeutralArg {
			return fmt.Errorf("%s: the neutral element of %s is an argument; only a Redomap takes one", name, r.Name)
		}
	}
	return nil
}

// prelude returns the extension pragma, the struct typedefs and the user's
// preamble.
func prelude(types []Type, preamble string) string {
	var w strings.Builder
	if needsFP64(types...) {
		w.WriteString("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
	}
	w.WriteString(typedefs(types...))
	if preamble != "" {
		w.WriteString(preamble)
		w.WriteString("\n")
	}
	return w.String()
}

// stage1 describes the first kernel of a map-reduce: each group folds its
// block of local*chunk elements into one partial per reduction, writing
// the map outputs on the way.
type stage1 struct {
	name    string
	b       body
	outputs []Param // written at each index (none for a filter's count pass)
	reds    []Reduction
	fields  []func(res string) string // the value each reduction folds, from the soac_res named res
	layout  Layout                    // Chunked or Interleaved
	// based adds two parameters after chunk: soac_base, the index of the
	// first element (the kernel covers soac_base..n-1), and soac_pbase,
	// the first slot of the partials it writes. A map-reduce run in
	// pieces (overlap.go) launches it once per piece; alone, both are 0.
	based bool
}

// unroll is how many elements an interleaved work-item loads before it
// combines them: four independent loads in flight per work-item are what
// a streaming loop needs to cover memory latency at full occupancy.
const unroll = 4

func (s stage1) emit(w *strings.Builder) {
	fmt.Fprintf(w, "__kernel void %s_stage1(const long n, const long chunk", s.name)
	if s.based {
		w.WriteString(", const long soac_base, const long soac_pbase")
	}
	s.b.params(w)
	for _, p := range s.b.inputs {
		fmt.Fprintf(w, ",\n\t__global const %s *restrict in_%s", p.Type.Name, p.Name)
	}
	for _, p := range s.outputs {
		fmt.Fprintf(w, ",\n\t__global %s *restrict out_%s", p.Type.Name, p.Name)
	}
	for k, r := range s.reds {
		fmt.Fprintf(w, ",\n\t__global %s *restrict part%d", r.Type.Name, k)
	}
	for k, r := range s.reds {
		fmt.Fprintf(w, ",\n\t__local %s *lred%d", r.Type.Name, k)
	}
	if s.layout == Tiled {
		for k, r := range s.reds {
			fmt.Fprintf(w, ",\n\t__local %s *lt%d", r.Type.Name, k)
		}
	}
	w.WriteString(") {\n")
	w.WriteString("\tconst int lid = get_local_id(0);\n\tconst int L = get_local_size(0);\n")
	base, slot := "", "(long)get_group_id(0)"
	if s.based {
		base, slot = "soac_base + ", "soac_pbase + (long)get_group_id(0)"
	}
	fmt.Fprintf(w, "\tconst long bs = %s(long)get_group_id(0) * L * chunk;\n\tconst long be = min(n, bs + L * chunk);\n", base)
	for k, r := range s.reds {
		fmt.Fprintf(w, "\t%s acc%d = soac_neutral%d();\n", r.Type.Name, k, k)
	}
	consume := func(res, idx, pre string) {
		for _, p := range s.outputs {
			fmt.Fprintf(w, "%sout_%s[%s] = %s.%s;\n", pre, p.Name, idx, res, p.Name)
		}
		for k, r := range s.reds {
			v := s.fields[k](res)
			if s.b.keep && !r.All {
				v = fmt.Sprintf("(%s.keep ? %s : soac_neutral%d())", res, v, k)
			}
			fmt.Fprintf(w, "%sacc%d = soac_op%d(acc%d, %s);\n", pre, k, k, k, v)
		}
	}
	if s.layout == Tiled {
		s.emitTiled(w)
	} else if s.layout == Interleaved {
		w.WriteString("\tlong i = bs + lid;\n")
		fmt.Fprintf(w, "\tfor (; i + %d * L < be; i += %d * L) {\n", unroll-1, unroll)
		for u := range unroll {
			fmt.Fprintf(w, "\t\tconst soac_res r%d = %s;\n", u, s.b.call(fmt.Sprintf("i + %d * L", u)))
		}
		for u := range unroll {
			consume(fmt.Sprintf("r%d", u), fmt.Sprintf("i + %d * L", u), "\t\t")
		}
		w.WriteString("\t}\n\tfor (; i < be; i += L) {\n")
		fmt.Fprintf(w, "\t\tconst soac_res r = %s;\n", s.b.call("i"))
		consume("r", "i", "\t\t")
		w.WriteString("\t}\n")
	} else {
		w.WriteString("\tconst long ts = bs + lid * chunk;\n\tconst long te = min(be, ts + chunk);\n")
		w.WriteString("\tfor (long i = ts; i < te; i++) {\n")
		fmt.Fprintf(w, "\t\tconst soac_res r = %s;\n", s.b.call("i"))
		consume("r", "i", "\t\t")
		w.WriteString("\t}\n")
	}
	emitTree(w, s.reds, slot)
	w.WriteString("}\n")
}

// emitTiled writes the Tiled loop: rounds of tiledRun elements per
// work-item, loaded by the whole group (element off of round r0 of
// work-item run's chunk goes to lt<k>[run * (tk+1) + off], padded by one
// so that the folds read distinct banks), then folded per work-item in
// order. The round count is the same for every work-item (barriers).
func (s stage1) emitTiled(w *strings.Builder) {
	tk := tiledRun()
	w.WriteString("\tconst long my = bs + (long)lid * chunk;\n")
	fmt.Fprintf(w, "\tfor (long r0 = 0; r0 < chunk; r0 += %d) {\n", tk)
	fmt.Fprintf(w, "\t\tfor (int j = 0; j < %[1]d; j++) {\n\t\t\tconst int q = j * L + lid;\n\t\t\tconst int run = q / %[1]d, off = q %% %[1]d;\n", tk)
	w.WriteString("\t\t\tconst long i = bs + run * chunk + r0 + off;\n\t\t\tif (r0 + off < chunk && i < be) {\n")
	fmt.Fprintf(w, "\t\t\t\tconst soac_res r = %s;\n", s.b.call("i"))
	for _, p := range s.outputs {
		fmt.Fprintf(w, "\t\t\t\tout_%s[i] = r.%s;\n", p.Name, p.Name)
	}
	for k, r := range s.reds {
		v := s.fields[k]("r")
		if s.b.keep && !r.All {
			v = fmt.Sprintf("(r.keep ? %s : soac_neutral%d())", v, k)
		}
		fmt.Fprintf(w, "\t\t\t\tlt%d[run * %d + off] = %s;\n", k, tk+1, v)
	}
	w.WriteString("\t\t\t}\n\t\t}\n\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	fmt.Fprintf(w, "\t\tfor (int j = 0; j < %d; j++) {\n\t\t\tif (r0 + j < chunk && my + r0 + j < be) {\n", tk)
	for k := range s.reds {
		fmt.Fprintf(w, "\t\t\t\tacc%[1]d = soac_op%[1]d(acc%[1]d, lt%[1]d[lid * %[2]d + j]);\n", k, tk+1)
	}
	w.WriteString("\t\t\t}\n\t\t}\n\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t}\n")
}

// stage1Locals returns the local-memory arguments of a stage1 kernel
// with local work-items: the tree's slots and, for Tiled, the rounds'.
func stage1Locals(local int, reds []Reduction, lay Layout) []any {
	var args []any
	for _, r := range reds {
		args = append(args, cl.LocalBuffer(local*r.Type.Size))
	}
	if lay == Tiled {
		tk := tiledRun()
		for _, r := range reds {
			args = append(args, cl.LocalBuffer(local*(tk+1)*r.Type.Size))
		}
	}
	return args
}

// emitTree writes the work-group reduction of acc<k> into part<k>[slot].
// Commutative reductions use the halving tree (work-items 0..s-1 stay
// busy, no divergence inside warps); the others combine neighbours only,
// which keeps the order of the operands.
func emitTree(w *strings.Builder, reds []Reduction, slot string) {
	if len(reds) == 0 {
		return
	}
	for k := range reds {
		fmt.Fprintf(w, "\tlred%d[lid] = acc%d;\n", k, k)
	}
	w.WriteString("\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	if commutative(reds) {
		w.WriteString("\tfor (int s = L / 2; s > 0; s >>= 1) {\n\t\tif (lid < s) {\n")
		for k := range reds {
			fmt.Fprintf(w, "\t\t\tlred%[1]d[lid] = soac_op%[1]d(lred%[1]d[lid], lred%[1]d[lid + s]);\n", k)
		}
	} else {
		w.WriteString("\tfor (int s = 1; s < L; s <<= 1) {\n\t\tif ((lid & (2 * s - 1)) == 0) {\n")
		for k := range reds {
			fmt.Fprintf(w, "\t\t\tlred%[1]d[lid] = soac_op%[1]d(lred%[1]d[lid], lred%[1]d[lid + s]);\n", k)
		}
	}
	w.WriteString("\t\t}\n\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t}\n")
	w.WriteString("\tif (lid == 0) {\n")
	for k := range reds {
		fmt.Fprintf(w, "\t\tpart%d[%s] = lred%d[0];\n", k, slot, k)
	}
	w.WriteString("\t}\n")
}

// emitStage2 writes the kernel that one group runs over the m partials of
// each reduction: each work-item folds a contiguous run (in order), then
// the group tree combines the runs. m = 0 yields the neutral elements.
// neutrals are the Args of run-time neutral elements (neutralArgs), its
// last parameters.
func emitStage2(w *strings.Builder, name string, reds []Reduction, neutrals []Arg) {
	fmt.Fprintf(w, "__kernel void %s_stage2(const long m", name)
	for k, r := range reds {
		fmt.Fprintf(w, ",\n\t__global const %s *restrict in%d", r.Type.Name, k)
	}
	for k, r := range reds {
		fmt.Fprintf(w, ",\n\t__global %s *restrict part%d", r.Type.Name, k)
	}
	for k, r := range reds {
		fmt.Fprintf(w, ",\n\t__local %s *lred%d", r.Type.Name, k)
	}
	for _, a := range neutrals {
		fmt.Fprintf(w, ",\n\t%s", a.Decl)
	}
	w.WriteString(") {\n\tconst int lid = get_local_id(0);\n\tconst int L = get_local_size(0);\n")
	w.WriteString("\tconst long c = (m + L - 1) / L;\n\tconst long ts = lid * c;\n\tconst long te = min(m, ts + c);\n")
	for k, r := range reds {
		fmt.Fprintf(w, "\t%s acc%d = soac_neutral%d();\n", r.Type.Name, k, k)
	}
	w.WriteString("\tfor (long i = ts; i < te; i++) {\n")
	for k := range reds {
		fmt.Fprintf(w, "\t\tacc%[1]d = soac_op%[1]d(acc%[1]d, in%[1]d[i]);\n", k)
	}
	w.WriteString("\t}\n")
	// The runs are in order, so the tree must keep order unless all
	// operators commute; emitTree decides.
	emitTree(w, reds, "0")
	w.WriteString("}\n")
}
