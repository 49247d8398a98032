package fusion

// This file copies a producer into the kernels of disjoint branches
// (TagBranchCopy): when its consumers lie in the branches of one if or
// switch, it joins the consumer kernel of each path, provided every path
// consumes it once, or it may be left out of the paths that do not (no
// effect, no panic). Consumers in a branch that returns and after its if
// or switch are returnpaths.go's.
//
// It does NOT decide legality (legal.go) or rules (rules.go); it asks
// vertical fusion's checks (vertical.go) for each branch's kernel.

import (
	"fmt"
	"go/token"
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// branches handles a producer whose SOAC consumers lie in branches of an
// if or switch: P is copied into the consumer kernel of each branch when
// every path through the statement consumes x and x is used nowhere else.
func (st *state) branches(P *ir.SOAC, x *ir.Var, cons, branch []consumer, others []Use) {
	anc := branch[0].anc
	for _, c := range cons {
		if c.anc != anc || c.kind != "branch" {
			if st.returnPaths(P, x, anc, cons, others) {
				return
			}
			st.refuse(P, x, &Refusal{Rule: RefConsumedTwice, Pos: c.soac.Pos(), Consumer: c.soac,
				Reason: fmt.Sprintf("%s is consumed inside %s and again at %s on the same execution path; fusing into both would compute it twice ([T2-fusion] Fig. 9 case 4)",
					x.Name, st.p.stmt(anc), st.p.at(c.soac.Pos()))})
			return
		}
	}
	for _, o := range others {
		rule := RefConsumedTwice
		oa := AncestorIn(o.Stmt, P.Parent)
		if oa == nil || st.g.Index(oa) <= st.g.Index(anc) {
			rule = RefUsedBefore
		}
		st.refuse(P, x, &Refusal{Rule: rule, Pos: o.Pos,
			Reason: fmt.Sprintf("%s is also used at %s, so it must be materialised; copying it into the branches of %s would compute it twice", x.Name, st.p.at(o.Pos), st.p.stmt(anc))})
		return
	}
	targets, r := st.pathKernels(anc, x, st.skippable(P))
	if r != nil {
		st.refuse(P, x, r)
		return
	}
	type plan struct {
		k       *kstate
		names   []string
		asserts []*ir.SOAC
	}
	var plans []plan
	for _, K := range targets {
		if r := st.pathMove(P, K, nil); r != nil {
			st.refuse(P, x, r)
			return
		}
		names, asserts, r := st.vertical(P, K, x)
		if r != nil {
			st.refuse(P, x, r)
			return
		}
		plans = append(plans, plan{K, names, asserts})
		if r := st.unchosen(P, K.list); r != nil {
			st.refuse(P, x, r)
			return
		}
		members := append(append([]*ir.SOAC{}, K.list...), P)
		if r := st.orderAfter(members, st.atWith(K, P), P, nil, append(slices.Clone(st.of[P]), K)...); r != nil {
			st.refuse(P, x, r)
			return
		}
	}
	if !st.useGas() {
		return
	}
	for _, pl := range plans {
		st.join(P, pl.k, pl.asserts)
		st.fire(pl.k, append(pl.names, TagBranchCopy)...)
	}
}

// skippable reports whether P may be left out on a path that does not
// consume its result: it has no effect and cannot panic (nor can its
// operands), so that computing it only on the paths that read it is
// unobservable.
func (st *state) skippable(P *ir.SOAC) bool {
	return soacImpure(P) == nil && P.Eff.Impure == "" && !P.Eff.WritesGlobal && len(P.Eff.Writes) == 0 &&
		stmtMayPanic(scopeOf(st.fn), P) == ""
}

// pathKernels returns, for statement s (an if or switch holding consumers
// of x), the one kernel that consumes x on each path through it; it
// refuses when one path has two consumer kernels, or when some path does
// not consume x unless skip says that the producer may be left out there.
func (st *state) pathKernels(s ir.Stmt, x *ir.Var, skip bool) ([]*kstate, *Refusal) {
	var blocks []*ir.Block
	complete := true
	switch s := s.(type) {
	case *ir.If:
		blocks = []*ir.Block{s.Then}
		if s.Else != nil {
			blocks = append(blocks, s.Else)
		} else {
			complete = false
		}
	case *ir.Switch:
		blocks = s.Cases
		complete = s.Exhaustive
	}
	if !complete && !skip {
		return nil, &Refusal{Rule: RefNotEveryPath, Pos: s.Pos(), Var: x,
			Reason: fmt.Sprintf("%s has a path that does not consume %s: sinking %s into the branch would skip it, and its panics, on the other paths", st.p.stmt(s), x.Name, x.Name)}
	}
	var out []*kstate
	for _, b := range blocks {
		if !st.consumesIn(b, x) {
			if skip {
				continue // the producer is left out on this path
			}
			return nil, &Refusal{Rule: RefNotEveryPath, Pos: blockPos(b, s), Var: x,
				Reason: fmt.Sprintf("the branch at %s of %s does not consume %s: sinking %s into the other branches would skip it, and its panics, on this path", st.p.at(blockPos(b, s)), st.p.stmt(s), x.Name, x.Name)}
		}
		ks, r := st.armKernels(b, s, x, skip)
		if r != nil {
			return nil, r
		}
		out = append(out, ks...)
	}
	return out, nil
}

// consumesIn reports whether a statement of block b (at any depth) uses x.
func (st *state) consumesIn(b *ir.Block, x *ir.Var) bool {
	for _, u := range st.g.Uses[x] {
		if AncestorIn(u.Stmt, b) != nil {
			return true
		}
	}
	return false
}

// armKernels returns the kernels that consume x on the paths through
// block b, a branch of s that consumes x: one per path, or a refusal when
// a path has two consumer kernels (or, unless skip, one that does not
// consume x).
func (st *state) armKernels(b *ir.Block, s ir.Stmt, x *ir.Var, skip bool) ([]*kstate, *Refusal) {
	var here []ir.Stmt
	for _, u := range st.g.Uses[x] {
		if a := AncestorIn(u.Stmt, b); a != nil && !containsStmt(here, a) {
			here = append(here, a)
		}
	}
	if len(here) == 1 {
		if soac, ok := here[0].(*ir.SOAC); ok {
			return []*kstate{st.kernelOf(soac)}, nil
		}
		return st.pathKernels(here[0], x, skip)
	}
	var ks []*kstate
	for _, a := range here {
		soac, ok := a.(*ir.SOAC)
		if !ok {
			return nil, &Refusal{Rule: RefConsumedTwice, Pos: a.Pos(), Var: x,
				Reason: fmt.Sprintf("%s is consumed twice on the path through the branch at %s; the second use is %s", x.Name, st.p.at(blockPos(b, s)), st.p.stmt(a))}
		}
		if k := st.kernelOf(soac); !containsK(ks, k) {
			ks = append(ks, k)
		}
	}
	if len(ks) != 1 {
		return nil, &Refusal{Rule: RefConsumedTwice, Pos: here[1].Pos(), Var: x,
			Reason: fmt.Sprintf("%s is consumed by two kernels on the path through the branch at %s; the second at %s", x.Name, st.p.at(blockPos(b, s)), st.p.at(here[1].Pos()))}
	}
	return ks, nil
}

func containsStmt(ss []ir.Stmt, s ir.Stmt) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func blockPos(b *ir.Block, owner ir.Stmt) token.Pos {
	if len(b.Stmts) > 0 {
		return b.Stmts[0].Pos()
	}
	return owner.Pos()
}
