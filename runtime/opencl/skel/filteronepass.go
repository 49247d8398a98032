package skel

// This file builds and launches the single-pass filter: one kernel in
// which each group takes one tile, evaluates the body once per element
// (keeping the results in private memory), scans the tile's 32-bit keep
// flags, learns the kept count of all earlier tiles by decoupled
// look-back (lookback.go), writes its kept elements from there, and
// folds its kept elements' reductions into one partial per tile; the
// <name>_stage2 kernel of redomap.go's kind then combines the partials.
// It does not hold the multi-pass filter (filter.go) nor choose between
// them (Filter.Build).

import (
	"fmt"
	"strings"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// countRed32 counts kept elements in the single pass: 32-bit, since the
// single pass runs only for n < 2^31.
var countRed32 = Reduction{Name: "soac_count", Type: Int32, Op: "r = a + b;", Neutral: "0", Commutative: true}

// spRefusal says why the filter cannot take the single pass on any
// device, or "".
func (f Filter) spRefusal() string {
	for _, r := range f.Reductions {
		if !r.Commutative {
			return fmt.Sprintf("reduction %s is not commutative, and a work-item of the single pass folds elements a group apart", r.Name)
		}
	}
	return ""
}

// buildSP builds the single-pass filter on d, or says why it cannot run
// there (nil kernel), as Scan.buildSP does.
func (f Filter) buildSP(d *device.Device) (*spKernel, string, error) {
	if why := f.spRefusal(); why != "" {
		return nil, why, nil
	}
	t := newSPTarget(d, false, 4)
	src, lb, err := f.generateSP(t)
	if err != nil {
		return nil, "", err
	}
	var extra []string
	if len(f.Reductions) > 0 {
		extra = append(extra, f.Name+"_stage2")
	}
	k, why, err := buildSP(d, f.Name, src, f.Options, t, lb, extra...)
	if err != nil && f.Algorithm == AutoAlgorithm {
		return nil, fmt.Sprintf("the single-pass program failed to build: %v", err), nil
	}
	return k, why, err
}

// generateSP returns the single-pass filter program for target t.
func (f Filter) generateSP(t spTarget) (string, lookback, error) {
	if err := f.check(); err != nil {
		return "", lookback{}, err
	}
	b, err := newBody(f.Inputs, f.Outputs, f.Reductions, true, f.Body)
	if err != nil {
		return "", lookback{}, fmt.Errorf("%s: %w", f.Name, err)
	}
	b.args = f.Args
	nr := len(f.Reductions)
	reds := append(append([]Reduction(nil), f.Reductions...), countRed32)
	lb := newLookback(Int32, nr)
	var w strings.Builder
	w.WriteString(prelude(allTypes(f.Inputs, f.Outputs, reds), f.Preamble))
	w.WriteString(lb.prelude())
	w.WriteString(t.defines())
	emitOps(&w, reds)
	b.emit(&w)
	lb.emitInit(&w, f.Name)
	if nr > 0 {
		emitStage2(&w, f.Name, f.Reductions, nil)
	}
	fmt.Fprintf(&w, "__kernel %s void %s_sp(const long n", spAttr, f.Name)
	b.params(&w)
	for _, p := range f.Inputs {
		fmt.Fprintf(&w, ",\n\t__global const %s *restrict in_%s", p.Type.Name, p.Name)
	}
	for _, p := range f.Outputs {
		fmt.Fprintf(&w, ",\n\t__global %s *restrict out_%s", p.Type.Name, p.Name)
	}
	for k, r := range f.Reductions {
		fmt.Fprintf(&w, ",\n\t__global %s *restrict part%d", r.Type.Name, k)
	}
	fmt.Fprintf(&w, ",\n\t__global int *restrict soac_kept%s) {\n", lb.params())
	w.WriteString("\t__local int lt[SOAC_L * SOAC_K];\n\t__local int ls[SOAC_L];\n")
	for k, r := range f.Reductions {
		fmt.Fprintf(&w, "\t__local %s lred%d[SOAC_L];\n", r.Type.Name, k)
	}
	lb.emitLocals(&w)
	w.WriteString("\tconst int lid = get_local_id(0);\n")
	lb.emitTileID(&w)
	w.WriteString("\tconst long ts = tile * (SOAC_L * SOAC_K);\n\tconst long te = min(n, ts + SOAC_L * SOAC_K);\n")
	for k, r := range f.Reductions {
		fmt.Fprintf(&w, "\t%s acc%d = soac_neutral%d();\n", r.Type.Name, k, k)
	}
	// One evaluation per element, coalesced: element j*L + lid of the
	// tile is r[j] of work-item lid; its keep flag goes to local memory.
	w.WriteString("\tsoac_res r[SOAC_K];\n#pragma unroll\n\tfor (int j = 0; j < SOAC_K; j++) {\n\t\tconst long i = ts + j * SOAC_L + lid;\n\t\tint f = 0;\n")
	fmt.Fprintf(&w, "\t\tif (i < te) {\n\t\t\tr[j] = %s;\n\t\t\tf = r[j].keep != 0;\n", b.call("i"))
	for k, red := range f.Reductions {
		if red.All {
			fmt.Fprintf(&w, "\t\t\tacc%[1]d = soac_op%[1]d(acc%[1]d, r[j].%[2]s);\n", k, red.Name)
			continue
		}
		fmt.Fprintf(&w, "\t\t\tacc%[1]d = soac_op%[1]d(acc%[1]d, f ? r[j].%[2]s : soac_neutral%[1]d());\n", k, red.Name)
	}
	w.WriteString("\t\t} else {\n\t\t\tr[j].keep = 0;\n\t\t}\n\t\tlt[j * SOAC_L + lid] = f;\n\t}\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	// Exclusive counts over each work-item's SOAC_K consecutive flags,
	// then the group scan of the work-items' totals.
	w.WriteString("\tint c = 0;\n\tfor (int j = 0; j < SOAC_K; j++) {\n\t\tconst int f = lt[lid * SOAC_K + j];\n\t\tlt[lid * SOAC_K + j] = c;\n\t\tc += f;\n\t}\n\tls[lid] = c;\n")
	for k := range f.Reductions {
		fmt.Fprintf(&w, "\tlred%[1]d[lid] = acc%[1]d;\n", k)
	}
	w.WriteString("\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	// The group scan of the counts and the halving trees of the
	// reductions share their barriers: step s of the scan is step
	// SOAC_L/(2s) of the trees.
	w.WriteString("\tfor (int s = 1; s < SOAC_L; s <<= 1) {\n\t\tint v = ls[lid];\n\t\tif (lid >= s) v = ls[lid - s] + v;\n")
	if nr > 0 {
		w.WriteString("\t\tconst int h = SOAC_L / (2 * s);\n\t\tif (lid < h) {\n")
		for k := range f.Reductions {
			fmt.Fprintf(&w, "\t\t\tlred%[1]d[lid] = soac_op%[1]d(lred%[1]d[lid], lred%[1]d[lid + h]);\n", k)
		}
		w.WriteString("\t\t}\n")
	}
	w.WriteString("\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t\tls[lid] = v;\n\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t}\n")
	if nr > 0 {
		w.WriteString("\tif (lid == 0) {\n")
		for k := range f.Reductions {
			fmt.Fprintf(&w, "\t\tpart%[1]d[tile] = lred%[1]d[0];\n", k)
		}
		w.WriteString("\t}\n")
	}
	w.WriteString("\tconst int total = ls[SOAC_L - 1];\n")
	lb.emit(&w, "total")
	w.WriteString("\tconst int pre = prefix + (lid > 0 ? ls[lid - 1] : 0);\n\tfor (int j = 0; j < SOAC_K; j++) lt[lid * SOAC_K + j] += pre;\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	w.WriteString("#pragma unroll\n\tfor (int j = 0; j < SOAC_K; j++) {\n\t\tif (r[j].keep) {\n\t\t\tconst int pos = lt[j * SOAC_L + lid];\n")
	for _, p := range f.Outputs {
		fmt.Fprintf(&w, "\t\t\tout_%s[pos] = r[j].%s;\n", p.Name, p.Name)
	}
	w.WriteString("\t\t}\n\t}\n\tif (lid == 0 && te == n) *soac_kept = prefix + total;\n}\n")
	return w.String(), lb, nil
}

// enqueueSP runs the single pass over n < 2^31 elements and returns the
// number kept.
func (k *FilterKernel) enqueueSP(r *run, n int, vals []any, inputs, outputs, results []*cl.MemObject) (int, error) {
	f := k.spec
	m := k.sp.target.tiles(int64(n))
	parts := make([]*cl.MemObject, len(f.Reductions))
	copy(parts, results) // stand-ins when n = 0: stage2 reads none of them
	kept, err := r.buffer(4)
	if err != nil {
		return 0, err
	}
	if n > 0 {
		args := append(make([]any, 0, len(vals)+len(inputs)+len(outputs)+len(parts)+1), vals...)
		for _, b := range inputs {
			args = append(args, b)
		}
		for _, b := range outputs {
			args = append(args, b)
		}
		for i, red := range f.Reductions {
			if parts[i], err = r.buffer(int(m) * red.Type.Size); err != nil {
				return 0, err
			}
			args = append(args, parts[i])
		}
		if err := k.sp.launch(r, int64(n), append(args, kept)); err != nil {
			return 0, err
		}
	} else {
		m = 0
	}
	if len(f.Reductions) > 0 {
		if err := r.launchStage2(k.sp.prog.kernels[f.Name+"_stage2"], k.sp.target.local, m, parts, results, f.Reductions); err != nil {
			return 0, err
		}
	}
	if n == 0 {
		return 0, nil
	}
	total := make([]int32, 1)
	e, err := r.q.EnqueueReadBuffer(kept, true, 0, cl.Bytes(total), nil)
	if err != nil {
		return 0, err
	}
	e.Release()
	return int(total[0]), nil
}
