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
// FusedStreamThen, chunkthen.go, by the parallel backend's then.go, and
// by the opencl backend in two device steps, streamthen.go) —, Call,
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
// stores), unread.go (maps of a loop whose elements nothing reads),
// select.go (a filter as a select), algebra.go (what operators
// allow: split folds, starts, speculation), chunked.go (form Chunked),
// chunk.go (range-fused chunk functions), chunkthen.go (form ChunkedThen),
// verify.go (Verify), dump.go (Dump).
package lower

import (
	"fmt"
	"go/types"
	"path/filepath"
	"slices"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// Lower lowers every kernel of plan; info holds the types of the plan's
// package. It returns the lowered function and the lowered kernel of
// each plan kernel.
func Lower(plan *fusion.Plan, info *types.Info) (*lowered.Function, map[*fusion.Kernel]*lowered.Kernel) {
	lw := &lowerer{info: info, plan: plan, used: uses(plan.Func.Body), kernelsOf: map[*ir.SOAC]int{}, src: map[*fusion.Kernel]*lowered.PlanKernel{}}
	for _, k := range plan.Kernels {
		for _, m := range k.SOACs {
			lw.kernelsOf[m]++
		}
	}
	fn := &lowered.Function{Func: plan.Func, Fset: plan.Fset, Of: map[*lowered.PlanKernel]*lowered.Kernel{}, Used: lw.used}
	of := map[*fusion.Kernel]*lowered.Kernel{}
	for _, k := range plan.Kernels {
		lk := lw.kernel(k)
		fn.Kernels = append(fn.Kernels, lk)
		fn.Of[lk.Src] = lk
		of[k] = lk
	}
	return fn, of
}

// planKernel returns what the back end reads of plan kernel k, one
// value per kernel.
func (lw *lowerer) planKernel(k *fusion.Kernel) *lowered.PlanKernel {
	if k == nil {
		return nil
	}
	if pk := lw.src[k]; pk != nil {
		return pk
	}
	pk := &lowered.PlanKernel{
		ID: k.ID, SOACs: k.SOACs, Block: k.Block, At: k.At, Depth: k.Depth, Parent: lw.planKernel(k.Parent),
		Inputs: k.Inputs, Outputs: k.Outputs, Internal: k.Internal, Form: k.Form, Moved: k.Moved, Asserts: k.Asserts,
	}
	for _, c := range k.Copies {
		pk.Copies = append(pk.Copies, lowered.Copy(c))
	}
	for _, g := range k.Gathers {
		pk.Gathers = append(pk.Gathers, lowered.Gather(g))
	}
	lw.src[k] = pk
	return pk
}

// lowerer lowers the kernels of one plan.
type lowerer struct {
	info      *types.Info
	plan      *fusion.Plan
	used      map[*ir.Var]bool
	kernelsOf map[*ir.SOAC]int // how many kernels a SOAC is a member of
	// src holds the lowered copy of each plan kernel (planKernel).
	src map[*fusion.Kernel]*lowered.PlanKernel
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
	p := lw.plan.Fset.Position(s.Pos())
	return fmt.Sprintf("%s at %s:%d:%d", s.Name, filepath.Base(p.Filename), p.Line, p.Column)
}

// kernel lowers k.
func (lw *lowerer) kernel(k *fusion.Kernel) *lowered.Kernel {
	lk := &lowered.Kernel{Src: lw.planKernel(k), Unroll: 1, Spaces: []lowered.Space{{Parent: -1, Filter: -1}}}
	defer func() { lk.Later = later(k) }()
	if len(k.SOACs) == 1 && k.At == ir.Stmt(k.SOACs[0]) && k.SOACs[0].IsStream() && lw.kernelsOf[k.SOACs[0]] == 1 {
		lk.Form = lowered.Call
		lk.Members = []lowered.Member{{SOAC: k.SOACs[0], Role: lowered.Stream, Kept: -1}}
		return lk
	}
	lk.Rerun = panicky(k) >= 2
	var reason string
	if slices.ContainsFunc(k.SOACs, (*ir.SOAC).IsStream) {
		reason = lw.stream(k, lk)
	} else {
		reason = lw.loop(k, lk)
	}
	if reason == "" && lk.Form == lowered.Loop {
		lw.markUnread(k, lk)
	}
	if reason != "" {
		*lk = lowered.Kernel{Src: lk.Src, Form: lowered.Sequence, Reason: reason, Unroll: 1, Spaces: []lowered.Space{{Parent: -1, Filter: -1}}, Rerun: lk.Rerun}
		for _, m := range k.SOACs {
			lk.Members = append(lk.Members, lowered.Member{SOAC: m, Role: roleOf(m), Kept: -1})
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
func roleOf(m *ir.SOAC) lowered.Role {
	switch op := m.Op.(type) {
	case *ir.Iota, *ir.Replicate:
		return lowered.Gen
	case *ir.Filter:
		return lowered.Filter
	case *ir.Stream:
		return lowered.Stream
	case *ir.Screma:
		switch {
		case op.Reduce != nil:
			return lowered.Fold
		case op.Scan != nil:
			return lowered.Scan
		}
	}
	return lowered.Map
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
