package skel

// This file emits the parts of a single-pass kernel that tiles share:
// the geometry baked into the source, dynamic tile ids, and the decoupled
// look-back of Merrill and Garland ("Single-pass Parallel Prefix Scan
// with Decoupled Look-back", 2016) by which each tile learns the scan of
// all tiles before it. It does not emit the tile's own work (scan.go,
// filteronepass.go do) and chooses no geometry at run time (newPlan does that
// for the other kernels).
//
// Protocol. A group takes the next tile id from a global counter (atomic
// increment), so tile t is only ever waited for by groups that started
// after the group owning t: no group waits for one that has not started,
// whatever the device's scheduling order (PoCL runs groups one after
// another per thread). Each tile publishes, per tile slot, a status:
// X (0, nothing yet), A (1, its own aggregate) as soon as it has reduced
// its elements, then P (2, its inclusive prefix: everything up to and
// including it). A tile looks back over a window of W predecessors at
// once (one work-item each, spinning while a status is X), and combines
// the window in order from the nearest until it meets a P; if none, it
// moves the window back. Operators need only be associative: values are
// combined as earlier ∘ later throughout.
//
// Memory ordering. Every word a tile publishes carries its own status:
// the value is cut into 32-bit words, and each is stored as one 64-bit
// word (status in the high half, the value's word in the low half) with
// atom_xchg and read with atom_add(p, 0) (cl_khr_int64_base_atomics). A
// 4-byte value is one word whose status says A or P. A larger value has
// two sets of words per tile, one for the aggregate (status 1) and one
// for the inclusive prefix (status 2); a reader takes a set only when
// every word of it carries its status. Each word validates itself, so no
// fence and no ordering between different addresses is needed: the
// protocol relies only on single-word atomicity. (A first version with a
// separate status array, volatile value arrays and mem_fence failed on
// the H100: NVIDIA's OpenCL does not order the value before the flag for
// other multiprocessors. Devices without 64-bit atomics run
// reduce-then-scan.)

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// Algorithm says how Scan and Filter run.
type Algorithm int

const (
	// AutoAlgorithm runs the single-pass kernel where the device and the
	// skeleton allow it and reduce-then-scan otherwise.
	AutoAlgorithm Algorithm = iota
	// SinglePass is one kernel that reads each element once and finds
	// each tile's carry-in by decoupled look-back. Build fails where it
	// cannot be used.
	SinglePass
	// ReduceThenScan is the multi-kernel path: a reduction pass, a scan
	// of the per-group partials, and a pass that reads the input again.
	ReduceThenScan
)

// cpuMultiPass is why AutoAlgorithm keeps the multi-pass kernels on CPU
// devices.
const cpuMultiPass = "CPU device: on PoCL the multi-pass kernels ran 1.5-2 times faster than the single pass (BENCHMARKS.md); a CPU runs few groups at once, so the look-back saves little and its spinning and barriers cost"

// singlePassFor reports whether algorithm a takes the single pass on a
// GPU (gpu) or another device, if the device and skeleton allow it.
func singlePassFor(a Algorithm, gpu bool) bool {
	return a == SinglePass || a == AutoAlgorithm && gpu
}

// String names the algorithm.
func (a Algorithm) String() string {
	switch a {
	case SinglePass:
		return "single-pass"
	case ReduceThenScan:
		return "reduce-then-scan"
	}
	return "auto"
}

// spTarget is the geometry a single-pass kernel is generated for: it is
// baked into the source (the tile is SOAC_L work-items × SOAC_K elements,
// held in private and local arrays whose sizes must be constants).
type spTarget struct {
	local  int  // work-items per group, a power of two
	k      int  // elements per work-item in a tile
	atom64 bool // the device has cl_khr_int64_base_atomics
}

// refusal says why the device cannot run a single pass with t, or "".
func (t spTarget) refusal() string {
	if !t.atom64 {
		return "the device lacks cl_khr_int64_base_atomics, which the look-back's status words need"
	}
	if t.local < spMinLocal {
		return fmt.Sprintf("a tile of %d work-items is below the %d the single pass needs", t.local, spMinLocal)
	}
	return ""
}

// Tile geometry of the single-pass kernels. Each says why it has its value.
const (
	// spLocalGPU: 256 work-items (8 warps of 32) per group, as for the
	// other kernels (plan.go): enough warps to hide the barriers of the
	// in-group scan, with 8 groups resident per H100 multiprocessor.
	spLocalGPU = 256
	// spLocalCPU: CPU implementations vectorise the work-item loop 8 or
	// 16 wide; 64 keeps the group's tile small enough for L1 while
	// amortising the per-group look-back.
	spLocalCPU = 64
	// lookbackWindow: the predecessors one look-back step reads at once,
	// one per work-item of the first warp.
	lookbackWindow = 32
	// spMinLocal: the narrowest tile the single pass runs with. PoCL 3.1
	// (LLVM 15) hangs in the look-back with groups of 8 or fewer
	// work-items and runs 16 and more correctly (TestScanTiles); no
	// device this targets wants groups that small anyway.
	spMinLocal = 16
)

// spOverride, when set (by benchmarks that sweep the tile), may change
// the target before a single-pass kernel is generated.
var spOverride func(t *spTarget)

// newSPTarget sizes a single-pass tile for a device (nil: a default
// GPU-like or CPU-like device, for Source) and a scanned element of size
// bytes: K as large as a third of the group's local memory allows, at
// most 15 and odd (as scanK, for conflict-free banks). On the H100 a
// float scan ran at 90% of copy with K = 11 and 96% with 15
// (BenchmarkScanSweep): each group scans one tile, so a longer tile
// amortises the group's barriers and look-back.
func newSPTarget(d *device.Device, gpu bool, size int) spTarget {
	localMem, maxWG, atom64 := int64(48<<10), 1024, true
	if d != nil {
		gpu = d.Info.IsGPU()
		localMem, maxWG = d.Info.LocalMemSize, d.Info.MaxWorkGroupSize
		atom64 = d.CL.HasExtension("cl_khr_int64_base_atomics")
	}
	local := spLocalCPU
	if gpu {
		local = spLocalGPU
	}
	local = min(local, maxWG)
	local = max(1, 1<<(bits.Len(uint(local))-1))
	t := spTarget{local: local, k: scanK(4*localMem/3, local, size), atom64: atom64}
	if spOverride != nil {
		spOverride(&t)
	}
	return t
}

// tile returns the elements of one tile.
func (t spTarget) tile() int64 { return int64(t.local) * int64(t.k) }

// tiles returns the tiles (and groups) over n elements.
func (t spTarget) tiles(n int64) int64 { return (n + t.tile() - 1) / t.tile() }

// defines returns the #define lines of the geometry.
func (t spTarget) defines() string {
	return fmt.Sprintf("#define SOAC_L %d\n#define SOAC_K %d\n#define SOAC_W %d\n", t.local, t.k, min(lookbackWindow, t.local))
}

// attr is the kernel attribute fixing the group size, which lets the
// compiler size barriers and unroll loops over SOAC_L.
const spAttr = "__attribute__((reqd_work_group_size(SOAC_L, 1, 1)))"

// lookback emits the look-back of one single-pass kernel for values of C
// type typ (words 32-bit words) combined by soac_op<op>.
type lookback struct {
	typ   string
	op    int
	words int
}

// newLookback describes the look-back of values of type t.
func newLookback(t Type, op int) lookback {
	return lookback{typ: t.Name, op: op, words: (t.Size + 3) / 4}
}

// packed reports whether a value is one word, published with its status
// in a single slot.
func (lb lookback) packed() bool { return lb.words == 1 }

// slots returns the 64-bit status words per tile.
func (lb lookback) slots() int64 {
	if lb.packed() {
		return 1
	}
	return 2 * int64(lb.words)
}

// prelude returns the extension pragma and, for multi-word values, the
// union that cuts a value into words (after the struct typedefs).
func (lb lookback) prelude() string {
	s := "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
	if !lb.packed() {
		s += fmt.Sprintf("typedef union { %s v; uint w[%d]; } soac_lbu;\n", lb.typ, lb.words)
	}
	return s
}

// params returns the kernel parameters of the look-back state, each
// preceded by ",\n\t": the tile counter and the status words.
func (lb lookback) params() string {
	return ",\n\t__global volatile int *soac_ctr,\n\t__global volatile ulong *soac_st"
}

// stateBytes returns the size in bytes of the status words of m tiles.
func (lb lookback) stateBytes(m int64) int { return int(8 * m * lb.slots()) }

// emitInit writes <name>_init, which clears the counter and the m status
// words before each run.
func (lb lookback) emitInit(w *strings.Builder, name string) {
	fmt.Fprintf(w, "__kernel void %s_init(const long m, __global int *soac_ctr, __global ulong *soac_st) {\n", name)
	w.WriteString("\tfor (long i = get_global_id(0); i < m; i += get_global_size(0)) soac_st[i] = 0;\n")
	w.WriteString("\tif (get_global_id(0) == 0) *soac_ctr = 0;\n}\n")
}

// emitLocals writes the kernel-scope local variables of the tile id and
// the look-back.
func (lb lookback) emitLocals(w *strings.Builder) {
	fmt.Fprintf(w, "\t__local long soac_tid;\n\t__local int soac_lbf[SOAC_W];\n\t__local %[1]s soac_lbv[SOAC_W];\n\t__local int soac_lbdone;\n\t__local %[1]s soac_prefix;\n", lb.typ)
}

// emitTileID writes the dynamic tile id into const long tile.
func (lb lookback) emitTileID(w *strings.Builder) {
	w.WriteString("\tif (lid == 0) soac_tid = atomic_inc(soac_ctr);\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n\tconst long tile = soac_tid;\n")
}

// publish returns the statements by which one work-item publishes value
// v of tile t with status s (1: aggregate, 2: inclusive prefix).
func (lb lookback) publish(t, s, v string) string {
	if lb.packed() {
		return fmt.Sprintf("atom_xchg(&soac_st[%s], ((ulong)%s << 32) | (ulong)as_uint(%s));", t, s, v)
	}
	return fmt.Sprintf("soac_lbu u; u.v = %[3]s; for (int q = 0; q < %[4]d; q++) atom_xchg(&soac_st[(2 * %[1]s + %[2]s - 1) * %[4]d + q], ((ulong)%[2]s << 32) | (ulong)u.w[q]);", t, s, v, lb.words)
}

// read returns the statements by which one work-item waits for tile t's
// status and reads it into int f and its value into v.
func (lb lookback) read(t string) string {
	if lb.packed() {
		return fmt.Sprintf("ulong sw;\n\t\t\t\t\tdo { sw = atom_add(&soac_st[%s], 0UL); } while ((sw >> 32) == 0);\n\t\t\t\t\tf = (int)(sw >> 32);\n\t\t\t\t\tv = as_%s((uint)sw);", t, lb.typ)
	}
	// Try the inclusive prefix's words, then the aggregate's, until one
	// set is complete.
	return fmt.Sprintf(`soac_lbu u;
					for (f = 0; f == 0;) {
						for (int s = 2; s >= 1 && f == 0; s--) {
							int ok = 1;
							for (int q = 0; q < %[2]d; q++) {
								const ulong x = atom_add(&soac_st[(2 * %[1]s + s - 1) * %[2]d + q], 0UL);
								ok &= (int)(x >> 32) == s;
								u.w[q] = (uint)x;
							}
							if (ok) f = s;
						}
					}
					v = u.v;`, t, lb.words)
}

// emit writes the publication of the tile's aggregate total (a name every
// work-item can read) and the look-back, leaving in <typ> prefix the
// combination of all earlier tiles (the neutral element for tile 0), the
// same in every work-item; it then publishes the inclusive prefix. Every
// work-item of the group must run it (it holds barriers).
func (lb lookback) emit(w *strings.Builder, total string) {
	op := func(a, b string) string { return fmt.Sprintf("soac_op%d(%s, %s)", lb.op, a, b) }
	neutral := fmt.Sprintf("soac_neutral%d()", lb.op)
	fmt.Fprintf(w, "\tif (lid == 0) {\n\t\tif (tile == 0) { %s }\n\t\telse { %s }\n\t}\n", lb.publish("0", "2", total), lb.publish("tile", "1", total))
	fmt.Fprintf(w, "\t%s prefix = %s;\n", lb.typ, neutral)
	w.WriteString("\tif (tile > 0) {\n")
	fmt.Fprintf(w, "\t\tlong look = tile - 1;\n\t\t%s lacc = %s;\n", lb.typ, neutral)
	w.WriteString("\t\tfor (;;) {\n\t\t\tif (lid < SOAC_W) {\n\t\t\t\tconst long t = look - lid;\n")
	fmt.Fprintf(w, "\t\t\t\tint f = 2;\n\t\t\t\t%s v = %s;\n", lb.typ, neutral)
	fmt.Fprintf(w, "\t\t\t\tif (t >= 0) {\n\t\t\t\t\t%s\n\t\t\t\t}\n", lb.read("t"))
	w.WriteString("\t\t\t\tsoac_lbf[lid] = f;\n\t\t\t\tsoac_lbv[lid] = v;\n\t\t\t}\n\t\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	w.WriteString("\t\t\tif (lid == 0) {\n\t\t\t\tint done = 0;\n\t\t\t\tfor (int j = 0; j < SOAC_W && !done; j++) {\n")
	fmt.Fprintf(w, "\t\t\t\t\tlacc = %s;\n\t\t\t\t\tdone = soac_lbf[j] == 2;\n\t\t\t\t}\n", op("soac_lbv[j]", "lacc"))
	w.WriteString("\t\t\t\tsoac_lbdone = done;\n\t\t\t\tif (done) soac_prefix = lacc;\n\t\t\t}\n\t\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	w.WriteString("\t\t\tif (soac_lbdone) break;\n\t\t\tlook -= SOAC_W;\n\t\t}\n")
	w.WriteString("\t\tprefix = soac_prefix;\n")
	fmt.Fprintf(w, "\t\tif (lid == 0) { const %s inc = %s; %s }\n", lb.typ, op("prefix", total), lb.publish("tile", "2", "inc"))
	w.WriteString("\t}\n")
}

// emitGroupScan writes the inclusive Hillis–Steele scan of ls[0..SOAC_L)
// in place with soac_op<op> (earlier operand first, so any associative
// operator works). Every work-item runs it.
func emitGroupScan(w *strings.Builder, typ string, op int) {
	fmt.Fprintf(w, "\tfor (int s = 1; s < SOAC_L; s <<= 1) {\n\t\t%s v = ls[lid];\n\t\tif (lid >= s) v = soac_op%d(ls[lid - s], v);\n\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t\tls[lid] = v;\n\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t}\n", typ, op)
}
