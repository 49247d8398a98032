package skel

// This file builds and launches the single-pass filter: one kernel in
// which each group takes one tile, evaluates the body once per element
// with coalesced loads (keeping the results in private memory), counts
// each work-item's consecutive keep flags through local memory, scans
// the counts across the group, learns the kept count of all earlier
// tiles by decoupled look-back (lookback.go), and writes its kept
// elements from there: staged in local memory at their places in the
// tile, then copied out by consecutive work-items to consecutive
// addresses, so the writes coalesce whatever the keep ratio. It folds its
// kept elements' reductions into one partial per tile; the <name>_stage2
// kernel of redomap.go's kind then combines the partials. With a scan of
// the kept elements (Filter.Scan) the look-back carries the kept count
// and the scan's value together.
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
	t := f.spTarget(d, false)
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

// spTarget sizes the single-pass filter's tile for a device (nil: a
// default GPU-like or CPU-like device, as newSPTarget): the work-items of
// newSPTarget, and as many elements per work-item, at most 15 and odd, as
// let the local arrays fit in the device's local memory: the staging
// array (SOAC_T elements of the widest output, at least the 32-bit keep
// flags), the group scan's two buffers, one value per work-item of each
// reduction, and a margin for the look-back's few words. The tile then
// keeps the scan's 15 elements per work-item for outputs of up to 8
// bytes on a GPU's 48 KiB (BenchmarkFilterSweep checks it on a device).
func (f Filter) spTarget(d *device.Device, gpu bool) spTarget {
	t := newSPTarget(d, gpu, 4)
	localMem := int64(48 << 10)
	if d != nil {
		localMem = d.Info.LocalMemSize
	}
	L := int64(t.local)
	avail := localMem - 8*L - 1024
	for _, r := range f.Reductions {
		avail -= L * int64(r.Type.Size)
	}
	per := int64(stageBytes(f.outputs()))
	if f.Scan != nil {
		// The kept elements' scan values, one per element, and the
		// group scan's two buffers of them.
		per += int64(f.Scan.Type.Size)
		avail -= 2 * L * int64(f.Scan.Type.Size)
	}
	k := int(min(max(avail/(L*per), 1), 15))
	if k > 1 && k%2 == 0 {
		k--
	}
	t.k = k
	if spOverride != nil {
		spOverride(&t)
	}
	return t
}

// generateSP returns the single-pass filter program for target t.
func (f Filter) generateSP(t spTarget) (string, lookback, error) {
	if err := f.check(); err != nil {
		return "", lookback{}, err
	}
	nr := len(f.Reductions)
	reds := append([]Reduction(nil), f.Reductions...)
	var typedef string
	lb := newLookback(Int32, nr)
	if f.Scan != nil {
		// The look-back carries the kept count and the scan together.
		cs := scanPair(*f.Scan, nr)
		typedef = fmt.Sprintf("typedef struct { int c; %s s; } %s;\n", f.Scan.Type.Name, cs.Type.Name)
		reds = append(reds, *f.Scan, cs)
		lb = newLookback(cs.Type, nr+1)
	} else {
		reds = append(reds, countRed32)
	}
	b, err := newBody(f.Inputs, f.Outputs, reds[:len(reds)-1], true, f.Body)
	if err != nil {
		return "", lookback{}, fmt.Errorf("%s: %w", f.Name, err)
	}
	b.args = f.Args
	var w strings.Builder
	w.WriteString(prelude(allTypes(f.Inputs, f.outputs(), reds[:len(reds)-1]), f.Preamble))
	w.WriteString(typedef)
	w.WriteString(lb.prelude())
	w.WriteString(t.defines())
	fmt.Fprintf(&w, "#define SOAC_T (SOAC_L * SOAC_K)\n#define SOAC_SB %d\n", stageBytes(f.outputs()))
	emitOps(&w, reds)
	b.emit(&w)
	lb.emitInit(&w, f.Name)
	if nr > 0 {
		emitStage2(&w, f.Name, f.Reductions, nil)
	}
	g := spFilterGen{f: f, b: b, lb: lb, si: nr}
	g.header(&w)
	g.evaluate(&w)
	g.groupScan(&w)
	g.compact(&w)
	return w.String(), lb, nil
}

// stageBytes returns the bytes per element of the local array a tile
// stages its kept elements in, one output at a time (it first holds the
// tile's 32-bit keep flags).
func stageBytes(outs []Param) int {
	s := 4
	for _, p := range outs {
		s = max(s, p.Type.Size)
	}
	return s
}

// scanPair is the value the look-back of a filter with a scan carries:
// the kept count and the scan's value (C type soac_cs), combined by
// soac_op<si+1> from the scan's operator soac_op<si>.
func scanPair(scan Reduction, si int) Reduction {
	a := max(4, scan.Type.Align)
	t := Type{Name: "soac_cs", Size: alignUp(alignUp(4, scan.Type.Align)+scan.Type.Size, a), Align: a}
	return Reduction{Name: "soac_cs", Type: t, Op: fmt.Sprintf("r.c = a.c + b.c;\nr.s = soac_op%d(a.s, b.s);", si),
		Neutral: fmt.Sprintf("{0, %s}", scan.Neutral)}
}

// spFilterGen writes the parts of the single-pass filter kernel.
type spFilterGen struct {
	f  Filter
	b  body
	lb lookback
	si int // the index of the scan's operator, when f.Scan is set
}

// header writes the kernel's parameters, its local arrays and the tile's
// bounds: ts, its first element, and m, its number of elements.
func (g spFilterGen) header(w *strings.Builder) {
	f := g.f
	fmt.Fprintf(w, "__kernel %s void %s_sp(const long n", spAttr, f.Name)
	g.b.params(w)
	for _, p := range f.Inputs {
		fmt.Fprintf(w, ",\n\t__global const %s *restrict in_%s", p.Type.Name, p.Name)
	}
	for _, p := range f.outputs() {
		fmt.Fprintf(w, ",\n\t__global %s *restrict out_%s", p.Type.Name, p.Name)
	}
	for k, r := range f.Reductions {
		fmt.Fprintf(w, ",\n\t__global %s *restrict part%d", r.Type.Name, k)
	}
	fmt.Fprintf(w, ",\n\t__global int *restrict soac_kept%s) {\n", g.lb.params())
	// soac_lm holds the tile's keep flags, then each output's kept
	// elements in turn; ls the two buffers of the group scan.
	w.WriteString("\t__local ulong soac_lm[(SOAC_T * SOAC_SB + 7) / 8];\n\t__local int *lt = (__local int *)soac_lm;\n\t__local int ls[2 * SOAC_L];\n")
	for k, r := range f.Reductions {
		fmt.Fprintf(w, "\t__local %s lred%d[SOAC_L];\n", r.Type.Name, k)
	}
	if f.Scan != nil {
		// lv: each element's scan value (the neutral element for a
		// dropped one), then the kept elements' inclusive scan; lsv: the
		// group scan's buffers of the work-items' values.
		fmt.Fprintf(w, "\t__local %[1]s lv[SOAC_T];\n\t__local %[1]s lsv[2 * SOAC_L];\n", f.Scan.Type.Name)
	}
	g.lb.emitLocals(w)
	w.WriteString("\tconst int lid = get_local_id(0);\n")
	g.lb.emitTileID(w)
	w.WriteString("\tconst long ts = tile * SOAC_T;\n\tconst int soac_m = (int)min((long)SOAC_T, n - ts);\n")
	for k, r := range f.Reductions {
		fmt.Fprintf(w, "\t%s acc%d = soac_neutral%d();\n", r.Type.Name, k, k)
	}
}

// evaluate writes the evaluation of the body once per element, coalesced
// (element e = j*SOAC_L + lid of the tile is r[j] of work-item lid), the
// folds of the reductions, and the keep flags into lt; a full tile runs
// without bounds tests.
func (g spFilterGen) evaluate(w *strings.Builder) {
	w.WriteString("\tsoac_res r[SOAC_K];\n\tif (soac_m == SOAC_T) {\n")
	g.evalLoop(w, false)
	w.WriteString("\t} else {\n")
	g.evalLoop(w, true)
	w.WriteString("\t}\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
}

func (g spFilterGen) evalLoop(w *strings.Builder, partial bool) {
	in := "\t\t\t"
	w.WriteString("#pragma unroll\n\t\tfor (int j = 0; j < SOAC_K; j++) {\n\t\t\tconst int e = j * SOAC_L + lid;\n")
	if partial {
		w.WriteString("\t\t\tint f = 0;\n\t\t\tif (e < soac_m) {\n")
		in = "\t\t\t\t"
		fmt.Fprintf(w, "%sr[j] = %s;\n%sf = r[j].keep != 0;\n", in, g.b.call("ts + e"), in)
	} else {
		fmt.Fprintf(w, "%sr[j] = %s;\n%sconst int f = r[j].keep != 0;\n", in, g.b.call("ts + e"), in)
	}
	for k, red := range g.f.Reductions {
		if red.All {
			fmt.Fprintf(w, "%sacc%[2]d = soac_op%[2]d(acc%[2]d, r[j].%[3]s);\n", in, k, red.Name)
			continue
		}
		fmt.Fprintf(w, "%sacc%[2]d = soac_op%[2]d(acc%[2]d, f ? r[j].%[3]s : soac_neutral%[2]d());\n", in, k, red.Name)
	}
	if sc := g.f.Scan; sc != nil {
		fmt.Fprintf(w, "%slv[e] = f ? r[j].%s : soac_neutral%d();\n", in, sc.Name, g.si)
	}
	if partial {
		w.WriteString("\t\t\t} else {\n\t\t\t\tr[j].keep = 0;\n")
		if g.f.Scan != nil {
			fmt.Fprintf(w, "\t\t\t\tlv[e] = soac_neutral%d();\n", g.si)
		}
		w.WriteString("\t\t\t}\n")
	}
	w.WriteString("\t\t\tlt[e] = f;\n\t\t}\n")
}

// groupScan writes the count c of each work-item's SOAC_K consecutive
// flags, the group's scan of the counts in two buffers (one barrier a
// step), leaving the work-item's exclusive count in soac_ex and the tile's
// in total, and the halving trees of the reductions, which share the
// scan's barriers (step s of the scan is step SOAC_L/(2s) of the trees).
func (g spFilterGen) groupScan(w *strings.Builder) {
	sc := g.f.Scan
	w.WriteString("\tint c = 0;\n")
	if sc != nil {
		// The work-item's kept elements folded in order: a dropped
		// element's neutral value is skipped, not folded.
		fmt.Fprintf(w, "\t%s soac_a = soac_neutral%d();\n", sc.Type.Name, g.si)
		fmt.Fprintf(w, "#pragma unroll\n\tfor (int j = 0; j < SOAC_K; j++) {\n\t\tconst int f = lt[lid * SOAC_K + j];\n\t\tc += f;\n\t\tif (f) soac_a = soac_op%d(soac_a, lv[lid * SOAC_K + j]);\n\t}\n\tlsv[lid] = soac_a;\n", g.si)
	} else {
		w.WriteString("#pragma unroll\n\tfor (int j = 0; j < SOAC_K; j++) c += lt[lid * SOAC_K + j];\n")
	}
	w.WriteString("\tint v = c;\n\tls[lid] = v;\n")
	for k := range g.f.Reductions {
		fmt.Fprintf(w, "\tlred%[1]d[lid] = acc%[1]d;\n", k)
	}
	w.WriteString("\tbarrier(CLK_LOCAL_MEM_FENCE);\n\tint src = 0;\n")
	w.WriteString("\tfor (int s = 1; s < SOAC_L; s <<= 1) {\n\t\tif (lid >= s) {\n\t\t\tv += ls[src * SOAC_L + lid - s];\n")
	if sc != nil {
		fmt.Fprintf(w, "\t\t\tsoac_a = soac_op%d(lsv[src * SOAC_L + lid - s], soac_a);\n", g.si)
	}
	w.WriteString("\t\t}\n")
	if len(g.f.Reductions) > 0 {
		w.WriteString("\t\tconst int h = SOAC_L / (2 * s);\n\t\tif (lid < h) {\n")
		for k := range g.f.Reductions {
			fmt.Fprintf(w, "\t\t\tlred%[1]d[lid] = soac_op%[1]d(lred%[1]d[lid], lred%[1]d[lid + h]);\n", k)
		}
		w.WriteString("\t\t}\n")
	}
	w.WriteString("\t\tsrc ^= 1;\n\t\tls[src * SOAC_L + lid] = v;\n")
	if sc != nil {
		w.WriteString("\t\tlsv[src * SOAC_L + lid] = soac_a;\n")
	}
	w.WriteString("\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t}\n")
	w.WriteString("\tconst int soac_ex = v - c;\n")
	if sc != nil {
		fmt.Fprintf(w, "\tsoac_cs total;\n\ttotal.c = ls[src * SOAC_L + SOAC_L - 1];\n\ttotal.s = lsv[src * SOAC_L + SOAC_L - 1];\n")
		fmt.Fprintf(w, "\tconst %s soac_sx = lid > 0 ? lsv[src * SOAC_L + lid - 1] : soac_neutral%d();\n", sc.Type.Name, g.si)
	} else {
		w.WriteString("\tconst int total = ls[src * SOAC_L + SOAC_L - 1];\n")
	}
	if len(g.f.Reductions) > 0 {
		w.WriteString("\tif (lid == 0) {\n")
		for k := range g.f.Reductions {
			fmt.Fprintf(w, "\t\tpart%[1]d[tile] = lred%[1]d[0];\n", k)
		}
		w.WriteString("\t}\n")
	}
}

// compact writes the look-back, the tile-local positions of the kept
// elements (the work-items' consecutive flags rewritten as positions,
// read back in the evaluation's order) and, with a scan, the kept
// elements' inclusive scan in lv, and, per output, the kept elements
// staged in local memory at their positions and copied from there to the
// output with consecutive work-items writing consecutive elements.
func (g spFilterGen) compact(w *strings.Builder) {
	sc := g.f.Scan
	g.lb.emit(w, "total")
	if sc != nil {
		w.WriteString("\tconst int soac_at = prefix.c, soac_cnt = total.c;\n")
		fmt.Fprintf(w, "\t%s soac_sa = soac_op%d(prefix.s, soac_sx);\n", sc.Type.Name, g.si)
	} else {
		w.WriteString("\tconst int soac_at = prefix, soac_cnt = total;\n")
	}
	w.WriteString("\tint q = soac_ex;\n#pragma unroll\n\tfor (int j = 0; j < SOAC_K; j++) {\n\t\tconst int f = lt[lid * SOAC_K + j];\n\t\tlt[lid * SOAC_K + j] = q;\n\t\tq += f;\n")
	if sc != nil {
		fmt.Fprintf(w, "\t\tif (f) {\n\t\t\tsoac_sa = soac_op%d(soac_sa, lv[lid * SOAC_K + j]);\n\t\t\tlv[lid * SOAC_K + j] = soac_sa;\n\t\t}\n", g.si)
	}
	w.WriteString("\t}\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	outs := g.f.outputs()
	if len(outs) > 0 {
		w.WriteString("\tint p[SOAC_K];\n#pragma unroll\n\tfor (int j = 0; j < SOAC_K; j++) p[j] = r[j].keep ? lt[j * SOAC_L + lid] : -1;\n")
	}
	for i, o := range outs {
		// The scan's values come from lv, the outputs' from the
		// work-item's results.
		val := "r[j]." + o.Name
		if sc != nil && i == len(outs)-1 {
			val = "lv[j * SOAC_L + lid]"
		}
		fmt.Fprintf(w, "\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t{\n\t\t__local %[1]s *st = (__local %[1]s *)soac_lm;\n", o.Type.Name)
		fmt.Fprintf(w, "#pragma unroll\n\t\tfor (int j = 0; j < SOAC_K; j++) if (p[j] >= 0) st[p[j]] = %s;\n", val)
		fmt.Fprintf(w, "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t\tfor (int e = lid; e < soac_cnt; e += SOAC_L) out_%s[soac_at + e] = st[e];\n\t}\n", o.Name)
	}
	w.WriteString("\tif (lid == 0 && ts + soac_m == n) *soac_kept = soac_at + soac_cnt;\n}\n")
}

// buildScan builds a filter with a scan, which runs on the single pass
// only, or says why it cannot.
func (f Filter) buildScan(d *device.Device) (*FilterKernel, error) {
	if f.Algorithm == ReduceThenScan {
		return nil, fmt.Errorf("%s: a filter with a scan runs on the single pass only, and reduce-then-scan was asked for", f.Name)
	}
	sp, why, err := f.buildSP(d)
	if err != nil {
		return nil, err
	}
	if sp == nil {
		return nil, fmt.Errorf("%s: a filter with a scan runs on the single pass only, which is not possible: %s", f.Name, why)
	}
	if f.Algorithm == AutoAlgorithm && !d.Info.IsGPU() {
		why += " (a scan of the kept elements has no multi-pass form, even on a CPU device)"
	}
	return &FilterKernel{spec: f, dev: d, sp: sp, why: why}, nil
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
