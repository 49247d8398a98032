package skel

// This file builds and launches the single-pass scan: one kernel in which
// each group scans one tile of SOAC_L × SOAC_K elements and takes its
// carry-in by decoupled look-back (lookback.go). It does not hold the
// reduce-then-scan path (scan.go) nor choose between them (Scan.Build).

import (
	"fmt"
	"math"
	"strings"

	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// spKernel is a built single-pass program: <name>_init clears the
// look-back state, <name>_sp does the work, one group per tile.
type spKernel struct {
	prog   *program
	name   string
	target spTarget
	lb     lookback
}

// buildSP builds a single-pass program and checks that the device runs
// its kernels with the tile's group size. A nil kernel with a reason says
// the device cannot; extra names further kernels of the program.
func buildSP(d *device.Device, name, src, options string, t spTarget, lb lookback, extra ...string) (*spKernel, string, error) {
	if why := t.refusal(); why != "" {
		return nil, why, nil
	}
	p, err := buildProgram(d, src, options, append([]string{name + "_sp", name + "_init"}, extra...)...)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	if p.wg < t.local {
		return nil, fmt.Sprintf("the device runs its kernels with at most %d work-items per group, the tile needs %d", p.wg, t.local), nil
	}
	form := "status packed with the value in one 64-bit atomic word"
	if !lb.packed() {
		form = fmt.Sprintf("aggregate and prefix as %d status-tagged 64-bit words each", lb.words)
	}
	return &spKernel{prog: p, name: name, target: t, lb: lb},
		fmt.Sprintf("single pass: tiles of %d work-items × %d elements, look-back over %d tiles, %s", t.local, t.k, min(lookbackWindow, t.local), form), nil
}

// launch enqueues the clearing of the look-back state and the tile kernel
// over n > 0 elements. args are the tile kernel's arguments after n and
// before the look-back state.
func (k *spKernel) launch(r *run, n int64, args []any) error {
	m := k.target.tiles(n)
	if m > math.MaxInt32 {
		return fmt.Errorf("%s: %d tiles exceed the 32-bit tile counter", k.name, m)
	}
	ctr, err := r.buffer(4)
	if err != nil {
		return err
	}
	st, err := r.buffer(k.lb.stateBytes(m))
	if err != nil {
		return err
	}
	L := int64(k.target.local)
	// Enough groups to clear the words in a few strides, no more: the
	// clearing is a tiny fraction of the tile kernel's traffic.
	words := m * k.lb.slots()
	g := min((words+L-1)/L, 1024)
	if err := r.launch(k.prog.kernels[k.name+"_init"], int(g*L), int(L), words, ctr, st); err != nil {
		return err
	}
	all := append(append([]any{n}, args...), ctr, st)
	return r.launch(k.prog.kernels[k.name+"_sp"], int(m*L), int(L), all...)
}

// check validates the parts of a Scan that both algorithms need.
func (s Scan) check() error {
	if !ident.MatchString(s.Name) {
		return fmt.Errorf("skeleton name %q is not a C identifier", s.Name)
	}
	if len(s.Inputs) == 0 {
		return fmt.Errorf("%s: no inputs", s.Name)
	}
	if err := checkArgs(s.Args); err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	return refuseNeutralArgs(s.Name, []Reduction{s.Op})
}

// buildSP builds the single-pass scan on d, or says why it cannot run
// there (nil kernel). Under AutoAlgorithm a failed build is such a
// reason, so that the reduce-then-scan program can still serve.
func (s Scan) buildSP(d *device.Device) (*spKernel, string, error) {
	t := newSPTarget(d, false, s.Op.Type.Size)
	src, lb, err := s.generateSP(t)
	if err != nil {
		return nil, "", err
	}
	k, why, err := buildSP(d, s.Name, src, s.Options, t, lb)
	if err != nil && s.Algorithm == AutoAlgorithm {
		return nil, fmt.Sprintf("the single-pass program failed to build: %v", err), nil
	}
	return k, why, err
}

// generateSP returns the single-pass scan program for target t.
func (s Scan) generateSP(t spTarget) (string, lookback, error) {
	if err := s.check(); err != nil {
		return "", lookback{}, err
	}
	reds := []Reduction{s.Op}
	b, err := newBody(s.Inputs, nil, reds, false, s.Body)
	if err != nil {
		return "", lookback{}, fmt.Errorf("%s: %w", s.Name, err)
	}
	b.args = s.Args
	lb := newLookback(s.Op.Type, 0)
	T := s.Op.Type.Name
	var w strings.Builder
	w.WriteString(prelude(allTypes(s.Inputs, nil, reds), s.Preamble))
	w.WriteString(lb.prelude())
	w.WriteString(t.defines())
	emitOps(&w, reds)
	b.emit(&w)
	lb.emitInit(&w, s.Name)
	fmt.Fprintf(&w, "__kernel %s void %s_sp(const long n", spAttr, s.Name)
	b.params(&w)
	for _, p := range s.Inputs {
		fmt.Fprintf(&w, ",\n\t__global const %s *restrict in_%s", p.Type.Name, p.Name)
	}
	fmt.Fprintf(&w, ",\n\t__global %s *restrict out%s) {\n", T, lb.params())
	fmt.Fprintf(&w, "\t__local %[1]s lt[SOAC_L * SOAC_K];\n\t__local %[1]s ls[SOAC_L];\n", T)
	lb.emitLocals(&w)
	w.WriteString("\tconst int lid = get_local_id(0);\n")
	lb.emitTileID(&w)
	w.WriteString("\tconst long ts = tile * (SOAC_L * SOAC_K);\n\tconst long te = min(n, ts + SOAC_L * SOAC_K);\n")
	// Coalesced loads into the tile (the full-tile branch has no bounds
	// tests), then each work-item scans its SOAC_K consecutive elements.
	load := b.call("i") + "." + s.Op.Name
	fmt.Fprintf(&w, "\tif (te - ts == SOAC_L * SOAC_K) {\n\t\tfor (int j = 0; j < SOAC_K; j++) {\n\t\t\tconst long i = ts + j * SOAC_L + lid;\n\t\t\tlt[j * SOAC_L + lid] = %s;\n\t\t}\n", load)
	fmt.Fprintf(&w, "\t} else {\n\t\tfor (int j = 0; j < SOAC_K; j++) {\n\t\t\tconst long i = ts + j * SOAC_L + lid;\n\t\t\tlt[j * SOAC_L + lid] = i < te ? %s : soac_neutral0();\n\t\t}\n\t}\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n", load)
	fmt.Fprintf(&w, "\t%s acc = lt[lid * SOAC_K];\n\tfor (int j = 1; j < SOAC_K; j++) {\n\t\tacc = soac_op0(acc, lt[lid * SOAC_K + j]);\n\t\tlt[lid * SOAC_K + j] = acc;\n\t}\n\tls[lid] = acc;\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n", T)
	emitGroupScan(&w, T, 0)
	fmt.Fprintf(&w, "\tconst %s total = ls[SOAC_L - 1];\n", T)
	lb.emit(&w, "total")
	fmt.Fprintf(&w, "\tconst %s pre = lid > 0 ? soac_op0(prefix, ls[lid - 1]) : prefix;\n", T)
	w.WriteString("\tfor (int j = 0; j < SOAC_K; j++) lt[lid * SOAC_K + j] = soac_op0(pre, lt[lid * SOAC_K + j]);\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	w.WriteString("\tfor (int j = 0; j < SOAC_K; j++) {\n\t\tconst long i = ts + j * SOAC_L + lid;\n\t\tif (i < te) out[i] = lt[j * SOAC_L + lid];\n\t}\n}\n")
	return w.String(), lb, nil
}
