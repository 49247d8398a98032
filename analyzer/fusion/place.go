package fusion

// This file decides where a kernel runs (placement). A
// kernel may run anywhere between the definitions of what it reads and its
// first use, where no statement in between writes what it reads or reads
// what it writes. The driver first moves every member down to the last
// one (the kernel's position is its last member); when that is refused,
// moveTo lets the kernel run at an earlier statement instead: the members
// after it move up, past statements they commute with (conflictUp). A
// consumer thus moves up past a write to memory it does not read, to its
// producer, instead of the producer being refused.
//
// It does NOT decide which kernels to form (driver.go, fuseinto.go) and it
// does NOT generate code: the generator runs a kernel at Kernel.At, and a
// member written after At has its result computed there into a temporary
// that its own statement then assigns (see Kernel.At).

import (
	"fmt"
	"go/ast"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// conflictUp reports why SOAC m cannot move up past statement s (earlier
// in the same block), or nil when they commute: s must not define or
// write what m reads, m must not write what s reads, neither may have side
// effects, and when m may panic, s must have no effect a caller could see
// after that panic (a write visible to the caller, a panic of its own, a
// possible return or break): the spec runs s first.
func conflictUp(fn *ir.Function, p posFmt, m *ir.SOAC, s ir.Stmt) *Refusal {
	// Moving m up past s is moving s down past m, as far as data goes.
	if r := conflict(fn, p, s, m); r != nil {
		return r
	}
	se := s.Effects()
	if se.WritesGlobal && readsOf(fn.Info, m).lambdaGlobal {
		return &Refusal{Rule: RefWriteBetween, Pos: s.Pos(),
			Reason: fmt.Sprintf("%s may write package-level state at %s that the lambda of %s may read", p.stmt(s), p.at(s.Pos()), p.soac(m))}
	}
	why := stmtMayPanic(scopeOf(fn), m)
	if why == "" {
		return nil
	}
	what := observableEffect(fn, s)
	if what == "" && se.Exits {
		what = "may return or break"
	}
	if what != "" && !samePanic(fn, m, s) {
		return &Refusal{Rule: RefPanicOrder, Pos: s.Pos(),
			Reason: fmt.Sprintf("%s %s and %s %s: moved up past it, its panic would come first", p.soac(m), why, p.stmt(s), what)}
	}
	return nil
}

// moveTo reports why the members of a kernel cannot all run at statement
// `to` of their block, or nil: members before it move down to it
// (moveDown) and members after it move up to it (conflictUp), each past
// the statements in between that are not in skip (the kernel's members).
// Members in other blocks (generators, branch copies) are not moved here.
func (st *state) moveTo(members []*ir.SOAC, b *ir.Block, to ir.Stmt, skip func(ir.Stmt) bool) *Refusal {
	if r := st.placing(members, b, to); r != nil {
		return r
	}
	if to.Block() != b {
		return &Refusal{Rule: RefLoopBoundary, Pos: to.Pos(),
			Reason: fmt.Sprintf("%s is not in the kernel's block", st.p.stmt(to))}
	}
	at := st.g.Index(to)
	for _, m := range members {
		if m.Parent == b && st.g.Index(m) > at {
			if h := header(b, to); h != nil {
				return &Refusal{Rule: RefLoopBoundary, Pos: to.Pos(),
					Reason: fmt.Sprintf("%s is in the init of %s, whose scope ends before %s", st.p.stmt(to), st.p.stmt(h), st.p.soac(m))}
			}
			break
		}
	}
	for _, m := range members {
		if m.Parent != b {
			continue
		}
		i := st.g.Index(m)
		if i <= at {
			if r := moveDown(st.fn, st.g, st.p, m, to, skip, nil); r != nil {
				return r
			}
			continue
		}
		for j := at + 1; j < i; j++ {
			if s := b.Stmts[j]; !skip(s) {
				if r := conflictUp(st.fn, st.p, m, s); r != nil {
					return r
				}
			}
		}
	}
	return nil
}

// placing refuses to move members up to statement to of block b when
// the driver replays a clustering that an optimal method chose (ilp,
// wsp): their model (cluster.go) does not know placement, and the replay
// must not realise groups that the model rules out.
func (st *state) placing(members []*ir.SOAC, b *ir.Block, to ir.Stmt) *Refusal {
	if !st.modelOnly() || to.Block() != b {
		return nil
	}
	method := st.method
	if st.target == nil {
		method = "ModelOnly"
	}
	for _, m := range members {
		if m.Parent == b && st.g.Index(m) > st.g.Index(to) {
			return &Refusal{Rule: RefClustering, Pos: m.Pos(), Consumer: m,
				Reason: fmt.Sprintf("under %s, kernels are not placed before their last member (%s)", method, st.p.soac(m))}
		}
	}
	return nil
}

// modelOnly reports whether the driver makes only the fusions the
// clustering models know (Options.ModelOnly, or a replay).
func (st *state) modelOnly() bool { return st.target != nil || st.opts.ModelOnly }

// panicOrdered reports whether hazard edge e from SOAC a to SOAC b says
// only that both may panic (conflict's last check: nothing else orders
// them), so that they may share a kernel: the generated kernel checks
// every zipped length before its loop and runs the members unfused in
// program order when one differs, and re-runs them so when its loop
// panics with two members that may panic (lower's Asserts and Rerun),
// so the spec's first panic is the one raised. Not under modelOnly, and
// not for streams (a chunk of the wrong length panics inside the chunk
// loop, which no rerun covers).
func (st *state) panicOrdered(e *Edge, a, b *ir.SOAC) bool {
	return e.Kind == Hazard && e.Rule == RefPanicOrder && !st.modelOnly() &&
		soacImpure(a) == nil && soacImpure(b) == nil && !a.IsStream() && !b.IsStream()
}

// header returns the if, switch or loop of block b whose init statement
// holds statement s, or nil: a kernel placed there would end with the
// init's scope, before the members written after it.
func header(b *ir.Block, s ir.Stmt) ir.Stmt {
	for _, t := range b.Stmts {
		var init ast.Stmt
		switch n := stmtNode(t).(type) {
		case *ast.IfStmt:
			init = n.Init
		case *ast.SwitchStmt:
			init = n.Init
		case *ast.TypeSwitchStmt:
			init = n.Init
		case *ast.ForStmt:
			init = n.Init
		}
		if init != nil && init.Pos() <= s.Pos() && s.Pos() < init.End() {
			return t
		}
	}
	return nil
}

// stmtNode returns the syntax of a compound statement, or nil.
func stmtNode(s ir.Stmt) ast.Node {
	switch s := s.(type) {
	case *ir.If:
		return s.Node
	case *ir.Switch:
		return s.Node
	case *ir.Loop:
		return s.Node
	}
	return nil
}

// placeUp reports why kernel K cannot run at the position of its producer
// P (in K's block), with P as a member, or nil when it can.
func (st *state) placeUp(P *ir.SOAC, K *kstate) *Refusal {
	if K.block != P.Parent {
		return &Refusal{Rule: RefLoopBoundary, Pos: P.Pos(),
			Reason: fmt.Sprintf("the kernel is not in the block of %s", st.p.soac(P))}
	}
	skip := func(s ir.Stmt) bool { soac, ok := s.(*ir.SOAC); return ok && (K.members[soac] || soac == P) }
	return st.moveTo(K.list, K.block, P, skip)
}

// placed reports whether kernel k runs before one of its members in its
// block: the generator then computes that member's result at the kernel.
func (st *state) placed(k *kstate) bool {
	return k.pos != nil && k.pos != st.last(k)
}
