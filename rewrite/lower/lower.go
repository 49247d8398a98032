// Package lower turns the kernels of a fusion plan (package
// analyzer/fusion) into lowered kernels: a backend-neutral description of
// how each kernel runs, with every decision about its shape made once,
// here, from the plan and the types. A lowered kernel names its form (one
// loop, a loop over the chunks of a stream, a call of the reference
// runtime, or its members one after another with the reason why), its
// iteration space and the nested spaces of kept elements, each member's
// role (generator, map, fold, scan, filter, stream), how each
// materialised output is stored (at the index, at the kept count, by
// append), which folds are split over several accumulators, which
// filters are selects instead of branches, the length asserts that guard
// the loop, and whether a panic makes the members run again unfused so
// that the first panic is the spec's.
//
// The package holds no text and renders nothing: backends (package
// rewrite's cpu backend today) render lowered kernels, and may still
// refuse one with a reason (the host code around the kernel, such as a
// lambda that names a variable shadowed where the kernel runs, is theirs
// to check). Verify checks a lowered kernel's invariants; Dump prints it
// for golden tests and debugging.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): fusion.Kernel →
// lower.Kernel: the kernel's form (Loop, Chunked, ChunkedThen — a
// StreamMap's chunk loop that runs the members after it, scans carrying
// their accumulators and filters their kept counts from chunk to chunk, on
// each chunk it returns (chunkthen.go; rendered by hostgo's
// FusedStreamThen, chunkthen.go, by the parallel backend's parthen.go, and
// by the opencl backend in two device steps, openclstreamthen.go) —, Call,
// or Sequence with the reason), its spaces (root, kept elements of
// filters: branch or select), each member's role (gen, map, fold, scan,
// filter, stream) and store (indexed, at the kept count, appended), split
// folds and the unroll factor, chunk buffers and range-fused chunk loops,
// length asserts, rerun-on-panic (when two members may panic, a StreamMap
// counting as one: a chunk of the wrong length). Every shape decision is
// made here, once; Verify, Dump (a golden per rewrite testdata case:
// testdata/*/*.lowered.golden).
//
// Files: kernel.go (the lowered kernel's types), lower.go (Lower and each
// kernel's form), loop.go (form Loop: length, asserts, spaces, roles and
// stores), select.go (a filter as a select), algebra.go (what operators
// allow: split folds, starts, speculation), chunked.go (form Chunked),
// chunk.go (range-fused chunk functions), chunkthen.go (form ChunkedThen),
// verify.go (Verify), dump.go (Dump).
package lower

import (
	"fmt"
	"go/types"
	"slices"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// Lower lowers every kernel of plan; info holds the types of the plan's
// package.
func Lower(plan *fusion.Plan, info *types.Info) *Function {
	lw := &lowerer{info: info, plan: plan, used: uses(plan.Func.Body), kernelsOf: map[*ir.SOAC]int{}}
	for _, k := range plan.Kernels {
		for _, m := range k.SOACs {
			lw.kernelsOf[m]++
		}
	}
	fn := &Function{Plan: plan, Of: map[*fusion.Kernel]*Kernel{}, Used: lw.used}
	for _, k := range plan.Kernels {
		lk := lw.kernel(k)
		fn.Kernels = append(fn.Kernels, lk)
		fn.Of[k] = lk
	}
	return fn
}

// lowerer lowers the kernels of one plan.
type lowerer struct {
	info      *types.Info
	plan      *fusion.Plan
	used      map[*ir.Var]bool
	kernelsOf map[*ir.SOAC]int // how many kernels a SOAC is a member of
}

// uses returns every Var something in b reads.
func uses(b *ir.Block) map[*ir.Var]bool {
	used := map[*ir.Var]bool{}
	ir.Walk(b, func(s ir.Stmt) bool {
		for _, v := range s.Effects().Uses {
			used[v] = true
		}
		if soac, ok := s.(*ir.SOAC); ok {
			for _, v := range soac.Inputs() {
				used[v] = true
			}
			for _, o := range soac.Operands() {
				for _, v := range o.Uses {
					used[v] = true
				}
			}
			for _, l := range soac.Lambdas() {
				for _, v := range l.Free {
					used[v] = true
				}
			}
		}
		return true
	})
	return used
}

// materialised reports whether output v of kernel k is stored in an
// array the generated code keeps: an output of k that a Go variable holds
// or something reads.
func (lw *lowerer) materialised(k *fusion.Kernel, v *ir.Var) bool {
	return v != nil && slices.Contains(k.Outputs, v) && (v.Obj != nil || lw.used[v])
}

// position formats the position of a SOAC for reasons.
func (lw *lowerer) position(s *ir.SOAC) string {
	if lw.plan.Fset == nil {
		return s.Name
	}
	return fmt.Sprintf("%s at %s", s.Name, shortPos(lw.plan.Fset.Position(s.Pos())))
}

// kernel lowers k.
func (lw *lowerer) kernel(k *fusion.Kernel) *Kernel {
	lk := &Kernel{Src: k, Unroll: 1, Spaces: []Space{{Parent: -1, Filter: -1}}}
	defer func() { lk.Later = later(k) }()
	if len(k.SOACs) == 1 && k.At == ir.Stmt(k.SOACs[0]) && k.SOACs[0].IsStream() && lw.kernelsOf[k.SOACs[0]] == 1 {
		lk.Form = Call
		lk.Members = []Member{{SOAC: k.SOACs[0], Role: Stream, Kept: -1}}
		return lk
	}
	lk.Rerun = panicky(k) >= 2
	var reason string
	if slices.ContainsFunc(k.SOACs, (*ir.SOAC).IsStream) {
		reason = lw.stream(k, lk)
	} else {
		reason = lw.loop(k, lk)
	}
	if reason != "" {
		*lk = Kernel{Src: k, Form: Sequence, Reason: reason, Unroll: 1, Spaces: []Space{{Parent: -1, Filter: -1}}, Rerun: lk.Rerun}
		for _, m := range k.SOACs {
			lk.Members = append(lk.Members, Member{SOAC: m, Role: roleOf(m), Kept: -1})
		}
	}
	return lk
}

// later returns the members of k written after k.At in k's block, in
// block order.
func later(k *fusion.Kernel) []*ir.SOAC {
	at := slices.Index(k.Block.Stmts, k.At)
	var out []*ir.SOAC
	for _, s := range k.Block.Stmts[at+1:] {
		if m, ok := s.(*ir.SOAC); ok && slices.Contains(k.SOACs, m) {
			out = append(out, m)
		}
	}
	return out
}

// roleOf is the role of m by its combinator.
func roleOf(m *ir.SOAC) Role {
	switch op := m.Op.(type) {
	case *ir.Iota, *ir.Replicate:
		return Gen
	case *ir.Filter:
		return Filter
	case *ir.Stream:
		return Stream
	case *ir.Screma:
		switch {
		case op.Reduce != nil:
			return Fold
		case op.Scan != nil:
			return Scan
		}
	}
	return Map
}

// panicky counts the members of k whose lambdas may panic or have
// effects, and the StreamMaps (a chunk of the wrong length panics): in
// a chunk loop a StreamMap's length check of one chunk runs before the
// other members' code of the next.
func panicky(k *fusion.Kernel) int {
	n := 0
	for _, m := range k.SOACs {
		if st, ok := m.Op.(*ir.Stream); ok && st.Kind == ir.StreamMap {
			n++
			continue
		}
		for _, l := range m.Lambdas() {
			if l.Purity.MayPanic || !l.Purity.Pure {
				n++
				break
			}
		}
	}
	return n
}
