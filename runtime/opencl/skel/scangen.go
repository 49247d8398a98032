package skel

// This file emits the tile scans shared by Scan and Filter. It knows
// nothing of element code: callers pass the load and store text.

import (
	"fmt"
	"strings"
)

// tileScan describes a kernel in which group g scans its block of
// local*chunk elements tile by tile. A tile is L*K elements: loaded
// coalesced into local memory, scanned sequentially by each work-item over
// K consecutive elements, then across work-items (Hillis–Steele over L
// totals), then stored coalesced. carry holds the scan of all earlier
// tiles and blocks.
type tileScan struct {
	typ    string // element type of the scan
	op     int    // index of soac_op / soac_neutral
	load   func(i string) string
	carry  string // initial carry expression (may use g)
	header string // kernel signature up to and including "{"
	store  func(i, slot string) string
}

func (t tileScan) emit(w *strings.Builder) {
	op := func(a, b string) string { return fmt.Sprintf("soac_op%d(%s, %s)", t.op, a, b) }
	neutral := fmt.Sprintf("soac_neutral%d()", t.op)
	w.WriteString(t.header + "\n")
	w.WriteString("\tconst int lid = get_local_id(0);\n\tconst int L = get_local_size(0);\n\tconst long g = get_group_id(0);\n")
	w.WriteString("\tconst long bs = g * L * chunk;\n\tconst long be = min(n, bs + L * chunk);\n")
	fmt.Fprintf(w, "\t%s carry = %s;\n", t.typ, t.carry)
	w.WriteString("\tfor (long tile = bs; tile < be; tile += (long)L * K) {\n")
	fmt.Fprintf(w, "\t\tfor (int j = 0; j < K; j++) {\n\t\t\tconst long i = tile + (long)j * L + lid;\n\t\t\tlt[j * L + lid] = i < be ? %s : %s;\n\t\t}\n", t.load("i"), neutral)
	w.WriteString("\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	fmt.Fprintf(w, "\t\t%s acc = lt[lid * K];\n", t.typ)
	fmt.Fprintf(w, "\t\tfor (int j = 1; j < K; j++) {\n\t\t\tacc = %s;\n\t\t\tlt[lid * K + j] = acc;\n\t\t}\n", op("acc", "lt[lid * K + j]"))
	w.WriteString("\t\tls[lid] = acc;\n\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	fmt.Fprintf(w, "\t\tfor (int s = 1; s < L; s <<= 1) {\n\t\t\t%s v = ls[lid];\n\t\t\tif (lid >= s) v = %s;\n\t\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t\t\tls[lid] = v;\n\t\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t\t}\n", t.typ, op("ls[lid - s]", "v"))
	fmt.Fprintf(w, "\t\tconst %s pre = lid > 0 ? %s : carry;\n", t.typ, op("carry", "ls[lid - 1]"))
	fmt.Fprintf(w, "\t\tfor (int j = 0; j < K; j++) lt[lid * K + j] = %s;\n", op("pre", "lt[lid * K + j]"))
	w.WriteString("\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n")
	fmt.Fprintf(w, "\t\tfor (int j = 0; j < K; j++) {\n\t\t\tconst long i = tile + (long)j * L + lid;\n\t\t\tif (i < be) {\n%s\n\t\t\t}\n\t\t}\n", indent(t.store("i", "lt[j * L + lid]"), "\t\t\t\t"))
	fmt.Fprintf(w, "\t\tcarry = %s;\n", op("carry", "ls[L - 1]"))
	w.WriteString("\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t}\n}\n")
}

// emitScanPartials writes <name>_scanpart: one group scans the m partials
// in data in place (inclusive), with operator op of type typ.
func emitScanPartials(w *strings.Builder, name, typ string, op int) {
	tileScan{
		typ:    typ,
		op:     op,
		load:   func(i string) string { return "data[" + i + "]" },
		carry:  fmt.Sprintf("soac_neutral%d()", op),
		header: fmt.Sprintf("__kernel void %s_scanpart(const long n, const long chunk, const int K, __global %s *data, __local %s *lt, __local %s *ls) {", name, typ, typ, typ),
		store:  func(i, v string) string { return fmt.Sprintf("data[%s] = %s;", i, v) },
	}.emit(w)
}

// scanK is the number of elements per work-item in a tile: as many as fit
// in a quarter of the group's local memory next to the L totals (so that
// four groups can share a compute unit's local memory), at most 15, and
// odd, so that work-items reading K consecutive 4-byte words hit distinct
// banks of a 32-bank local memory.
func scanK(localMem int64, local, size int) int {
	k := int(localMem/4)/(local*size) - 1
	k = min(max(k, 1), 15)
	if k > 1 && k%2 == 0 {
		k--
	}
	return k
}
