package rewrite

// This file holds the parallel backend: it renders a lowered kernel as Go
// that calls runtime/parallel, with the cpu backend's fused loop body
// (loopParts, the same inlining) placed twice: once as the sequential
// loop over [0, n), run when the estimated work is below the runtime's
// threshold (parallel.Sequential with the kernel's grain), and once in
// the per-chunk func(lo, hi int) that the runtime runs over the chunks:
//
//   - maps (no fold, scan or kept-element output): parallel.For, each
//     chunk writing its range of the preallocated outputs;
//   - folds (reductions, redomaps, folds in filter spaces): parallel.Reduce
//     with a struct of the accumulators, combined field by field in chunk
//     order (split accumulators stay split per chunk and fold pairwise
//     after, as the cpu loop does);
//   - one scan whose elements only its output reads: parallel.Scan, the
//     chunk's local scan then op(carry, out[i]) on the chunk's outputs;
//   - one materialised output of kept elements, with any folds:
//     parallel.FilterFold, the chunk compacting into its dst;
//   - a lone stream: parallel.StreamRed, or parallel.StreamMapOr with the
//     reference call as its fallback (the spec's length panic).
//
// It refuses, with the reason, kernels whose lambdas are impure (they
// fall back to cpu), maps feeding a stream's chunks, several scans or a
// scan read by another member, several kept-element outputs, and
// Sequence kernels. Nested kernels (depth > 0) run inside one element of
// their parent: they are rendered as the cpu's sequential loop, so that
// only the outermost level runs in parallel.
//
// It does not decide a kernel's shape (rewrite/lower does), nor schedule
// or combine chunks (runtime/parallel does). The work estimate (cost.go
// parcost.go) is a static count, not a measurement; the
// threshold it is compared with (parallel.MinChunkNanos) is measured.

import (
	"fmt"
	"go/token"
	"path/filepath"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lower"
	"github.com/soacgen/soacgen/runtime/parallel"
)

// ParallelPath is the import path of the runtime the parallel backend's
// code calls.
const ParallelPath = "github.com/soacgen/soacgen/runtime/parallel"

// parallelBackend renders kernels over the chunks of runtime/parallel.
type parallelBackend struct{}

func (parallelBackend) Name() string { return Parallel }

func (parallelBackend) render(f *fgen, lk *lower.Kernel, outs map[*ir.Var]string) (*code, string) {
	if refuseHook != nil {
		if why := refuseHook(f.fn, lk); why != "" {
			return nil, why
		}
	}
	if lk.Src.Depth > 0 {
		// The parent's element is the parallel unit: run sequentially.
		return cpuBackend{}.render(f, lk, outs)
	}
	if why := impure(f, lk); why != "" {
		return nil, why
	}
	for _, m := range lk.Members {
		if m.StartNotNeutral {
			return nil, fmt.Sprintf("the start of %s at %s is not provably its operator's neutral element: every chunk would combine it again", m.SOAC.Name, f.short(m.SOAC.Pos()))
		}
	}
	switch lk.Form {
	case lower.Call:
		return f.parStream(lk)
	case lower.Chunked:
		m := lk.Members[len(lk.Members)-1].SOAC
		return nil, fmt.Sprintf("maps fused into the chunks of its %s do not run in parallel yet", m.Name)
	case lower.Loop:
		return f.parLoop(lk, outs)
	}
	return nil, "its members do not run as one loop: " + lk.Reason
}

// impure returns why a lambda of lk is not pure (naming it and the
// construct), or "".
func impure(f *fgen, lk *lower.Kernel) string {
	for _, m := range lk.Members {
		for _, l := range m.SOAC.Lambdas() {
			if !l.Purity.Pure {
				why := l.Purity.Reason
				if why == "" {
					why = "its effects are unknown"
				}
				at := l.Purity.Pos
				if !at.IsValid() {
					at = l.Expr.Pos()
				}
				return fmt.Sprintf("the function of %s at %s is not pure (%s at %s): it never runs in parallel", m.SOAC.Name, f.short(m.SOAC.Pos()), why, f.short(at))
			}
		}
	}
	return ""
}

// parStream renders a lone stream (form lower.Call) as a runtime call.
func (f *fgen) parStream(lk *lower.Kernel) (*code, string) {
	m := lk.Members[0].SOAC
	st := m.Op.(*ir.Stream)
	grain := parallel.Grain(f.newCosts().lambdaNanos(st.Chunk, true))
	call := new(code)
	xs := f.name(st.Input)
	if st.Kind == ir.StreamRed {
		call.q(ParallelPath, "StreamRed").pf("(%s, %d, ", xs, grain).add(f.funcExpr(st.Op)).p(", ").add(f.funcExpr(st.Chunk)).p(")")
	} else {
		call.q(ParallelPath, "StreamMapOr").pf("(%s, %d, ", xs, grain).add(f.funcExpr(st.Chunk)).p(", func() ").
			add(f.typeCode(m.Out.Type)).p(" {\nreturn ").add(f.call(m, true)).p("\n})")
	}
	c := new(code)
	f.assign(c, m.Out, call)
	return c, ""
}

// parLoop renders a lowered loop (form lower.Loop) as the sequential loop
// below the grain and a runtime call over chunks above it.
func (f *fgen) parLoop(lk *lower.Kernel, outs map[*ir.Var]string) (*code, string) {
	at := lk.Src.At.Pos()
	f.allocFor = lk // its outputs are allocated uncleared (parallel_alloc.go)
	defer func() { f.allocFor = nil }()
	lp := f.loopParts(lk, outs)
	seq, why := lp.loops("0", lp.n)
	if why != "" {
		return nil, why
	}
	combine, why := lp.combine()
	if why != "" {
		return nil, why
	}
	for _, m := range lk.Members {
		if m.Role == lower.Scan && m.Space != lower.Root {
			return nil, fmt.Sprintf("the scan %s at %s of a filter's kept elements does not run in parallel yet", m.SOAC.Name, f.short(m.SOAC.Pos()))
		}
	}
	var folds, scans []loopAcc
	for _, a := range lp.accs {
		if a.role == lower.Scan {
			scans = append(scans, a)
		} else {
			folds = append(folds, a)
		}
	}
	var kept []loopStore
	for _, s := range lp.stores {
		if s.how == lower.AtCount || s.how == lower.Appended {
			kept = append(kept, s)
		}
	}
	var scanOut *loopStore
	switch {
	case len(scans) > 1:
		return nil, fmt.Sprintf("%d scans in one kernel do not run in parallel yet", len(scans))
	case len(scans) == 1 && (len(folds) > 0 || len(kept) > 0):
		return nil, fmt.Sprintf("the scan %s at %s beside a reduction or a filter's output does not run in parallel yet", scans[0].member.Name, f.short(scans[0].member.Pos()))
	case len(scans) == 1:
		sm := scans[0].member
		for _, m := range lk.Members {
			if m.SOAC != sm {
				for _, v := range m.SOAC.Inputs() {
					if v == sm.Out {
						return nil, fmt.Sprintf("the elements of the scan %s at %s are read by %s in the same kernel: its chunks' carries would have to be applied before; not parallelised yet", sm.Name, f.short(sm.Pos()), m.SOAC.Name)
					}
				}
			}
		}
		for i := range lp.stores {
			if lp.stores[i].v == sm.Out {
				scanOut = &lp.stores[i]
			}
		}
	case len(kept) > 1:
		return nil, fmt.Sprintf("%d materialised outputs of kept elements in one kernel do not run in parallel yet", len(kept))
	}
	cost := f.newCosts()
	grain := parallel.Grain(cost.kernelNanos(lk))
	if len(scans) > 0 || len(kept) > 0 {
		// A scan's or filter's chunk makes a second pass when it runs
		// alone (runtime/parallel: MinChunkNanos): twice the grain.
		grain *= 2
	}
	// Split at two grains, into chunks of a few µs (runtime/parallel:
	// ChunksPerGrain); ForMeasured decides both itself from its timing.
	cg := parallel.ChunkGrain(grain)
	lo, hi := f.fresh("lo"), f.fresh("hi")
	chunk, why := lp.loops(lo, hi)
	if why != "" {
		return nil, why
	}
	// The accumulators and outputs are shadowed inside the chunk
	// function: each chunk folds from the neutral element into its own
	// locals, and reads the output slices as values, not through the
	// enclosing function's variables.
	decls := new(code)
	for _, a := range folds {
		decls.pf("var %s ", a.name).add(a.typ).p(" = ").line(a.neutral)
	}
	// An exactly associative scan's chunk starts from its carry when the
	// runtime knows it (parallel.ScanExact), else from the neutral element.
	exact, start := len(scans) == 1 && exactType(scans[0].member.Out.Type), ""
	if exact {
		start = f.fresh("start")
	}
	for _, a := range scans {
		decls.pf("var %s ", a.name).add(a.typ).p(" = ")
		if exact {
			decls.p(start + "\n")
		} else {
			decls.line(a.neutral)
		}
	}
	for _, s := range lp.stores {
		if s.how == lower.Indexed {
			decls.pf("%s := %s\n", s.local, s.local)
		}
	}
	par := new(code)
	fn := txtf("func(%s, %s int", lo, hi)
	switch {
	case len(scans) == 1:
		a := scans[0]
		opFn, why := f.opFunc(a, at)
		if why != "" {
			return nil, why
		}
		fix := new(code)
		if scanOut != nil {
			carry, i := f.fresh("carry"), f.fresh("i")
			fix.pf("for %s := %s; %s < %s; %s++ {\n", i, lo, i, hi, i)
			el := fmt.Sprintf("%s[%s]", scanOut.local, i)
			if why := f.apply(fix, a.op, []*code{txt(carry), txt(el)}, el, at); why != "" {
				return nil, why
			}
			fix.p("}\n")
			fix = txtf("func(%s, %s int, %s ", lo, hi, carry).add(a.typ).pf(") {\n%s := %s\n", scanOut.local, scanOut.local).add(fix).p("}")
		} else {
			fix = txtf("func(int, int, ").add(a.typ).p(") {}")
		}
		if exact {
			par.p("_ = ").q(ParallelPath, "ScanExact").pf("(%s, %d, ", lp.n, cg).add(a.neutral).p(", ").add(fn).pf(", %s ", start).add(a.typ).p(") ").add(a.typ).p(" {\n").
				add(decls).add(chunk).pf("return %s\n}, ", a.name).add(fix).p(", ").add(opFn).p(")\n")
			break
		}
		par.p("_ = ").q(ParallelPath, "Scan").pf("(%s, %d, ", lp.n, cg).add(fn).p(") ").add(a.typ).p(" {\n").
			add(decls).add(chunk).pf("return %s\n}, ", a.name).add(fix).p(", ").add(opFn).p(")\n")
	case len(kept) == 1:
		s := kept[0]
		dst, cnt, tot := f.fresh("dst"), f.fresh("kept"), f.fresh("total")
		pt, ret, comb, assign, why := f.partials(folds, at)
		if why != "" {
			return nil, why
		}
		out := s.local
		if s.how == lower.AtCount {
			decls.pf("%s := %s\n%s := 0\n", s.local, dst, s.count)
			cnt = s.count
		} else {
			decls.pf("%s := %s[:0]\n", s.local, dst)
			cnt = "len(" + s.local + ")"
			out = s.local + "[:" + lp.n + "]"
		}
		r := "_"
		if len(folds) > 0 {
			r = f.fresh("r")
		}
		par.pf("%s, %s := ", tot, r).q(ParallelPath, "FilterFold").pf("(%s, %d, %s, ", lp.n, cg, out).add(fn).pf(", %s ", dst).
			add(f.typeCode(s.v.Type)).p(") (int, ").add(pt).p(") {\n").add(decls).add(chunk).pf("return %s, ", cnt).add(ret).p("\n}, ").add(comb).p(")\n")
		if s.how == lower.AtCount {
			par.pf("%s = %s\n", s.count, tot)
		} else {
			par.pf("%s = %s[:%s]\n", s.local, s.local, tot)
		}
		par.add(assign(r))
	case len(folds) > 0:
		pt, ret, comb, assign, why := f.partials(folds, at)
		if why != "" {
			return nil, why
		}
		r := f.fresh("r")
		par.pf("%s := ", r).q(ParallelPath, "Reduce").pf("(%s, %d, ", lp.n, cg).add(fn).p(") ").add(pt).p(" {\n").
			add(decls).add(chunk).p("return ").add(ret).p("\n}, ").add(comb).p(")\n").add(assign(r))
	default:
		// A map whose count is unreliable times its first element.
		forFn, g := "For", cg
		if cost.uncertain {
			forFn, g = "ForMeasured", grain
		}
		par.q(ParallelPath, forFn).pf("(%s, %d, ", lp.n, g).add(fn).p(") {\n").add(decls).add(chunk).p("})\n")
	}
	body := new(code).pf("%s := ", lp.n).line(lp.length).add(lp.pre).p("if ").q(ParallelPath, "Sequential").
		pf("(%s, %d) {\n", lp.n, grain).add(seq).p("} else {\n").add(par).p("}\n").add(combine).add(lp.post)
	return lp.guard(body), ""
}

// partials returns, for the folds' accumulators, the struct type of a
// chunk's partial results, the struct literal a chunk returns, the
// function that combines two partials field by field with each fold's
// operator, and the assignments of a combined partial r to the
// accumulators.
func (f *fgen) partials(folds []loopAcc, at token.Pos) (typ, ret, comb *code, assign func(r string) *code, why string) {
	// One field a line: gofmt is not idempotent on a one-line struct
	// type of several fields before a function body.
	typ = txt("struct{")
	if len(folds) > 0 {
		typ.p("\n")
	}
	ret = new(code)
	for i, a := range folds {
		if i > 0 {
			ret.p(", ")
		}
		typ.pf("f%d ", i).line(a.typ)
		ret.p(a.name)
	}
	typ.p("}")
	ret = new(code).add(typ).p("{").add(ret).p("}")
	x, y := f.fresh("x"), f.fresh("y")
	comb = txtf("func(%s, %s ", x, y).add(typ).p(") ").add(typ).p(" {\n")
	for i, a := range folds {
		field := fmt.Sprintf("%s.f%d", x, i)
		if why := f.apply(comb, a.op, []*code{txt(field), txtf("%s.f%d", y, i)}, field, at); why != "" {
			return nil, nil, nil, nil, why
		}
	}
	comb.pf("return %s\n}", x)
	assign = func(r string) *code {
		c := new(code)
		for i, a := range folds {
			c.pf("%s = %s.f%d\n", a.name, r, i)
		}
		return c
	}
	return typ, ret, comb, assign, ""
}

// opFunc returns a's operator as a function value of type func(T, T) T,
// its body inlined.
func (f *fgen) opFunc(a loopAcc, at token.Pos) (*code, string) {
	x, y, r := f.fresh("x"), f.fresh("y"), f.fresh("r")
	c := txtf("func(%s, %s ", x, y).add(a.typ).p(") ").add(a.typ).p(" {\n").pf("var %s ", r).line(a.typ)
	if why := f.apply(c, a.op, []*code{txt(x), txt(y)}, r, at); why != "" {
		return nil, why
	}
	return c.pf("return %s\n}", r), ""
}

// short is position p as file:line:col with the file's base name, for
// reasons (the warning that carries them names the full path first).
func (f *fgen) short(p token.Pos) string {
	pos := f.fset.Position(p)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(pos.Filename), pos.Line, pos.Column)
}
