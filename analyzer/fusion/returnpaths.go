package fusion

// This file copies a producer into the kernels of paths that a return
// separates (TagBranchCopy): x := P; if c { ...consume x...; return }; ...
// consume x... . A branch of the if (or case of the switch) that consumes
// x and always ends in its return never reaches the statements after it,
// and the paths that fall through consume x only after it: P joins the
// consumer kernel of each returning branch and the one after the
// statement, and every path computes it once. A branch that consumes x
// and falls through would compute it twice (the refusal consumed-twice
// stays); one that returns without consuming x skips P, which needs P
// skippable (no effect, no panic).
//
// It also says when two statements never run in one execution of their
// block (apartChains): the kernel-order check (order.go) and Check
// accept a producer's copies on such paths.
//
// It does NOT decide legality (legal.go) or rules (rules.go); it asks
// vertical fusion's checks (vertical.go) for each path's kernel.

import (
	"go/ast"
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// terminates reports whether block b never falls through its end: its
// last statement is a return, and no statement before it may leave the
// block (a break out of a switch or an earlier return would reach, or
// skip, other code).
func terminates(b *ir.Block) bool {
	if b == nil || len(b.Stmts) == 0 {
		return false
	}
	p, ok := b.Stmts[len(b.Stmts)-1].(*ir.Plain)
	if !ok || p.Hoisted != nil {
		return false
	}
	if _, ret := p.Node.(*ast.ReturnStmt); !ret {
		return false
	}
	for _, s := range b.Stmts[:len(b.Stmts)-1] {
		if s.Effects().Exits {
			return false
		}
	}
	return true
}

// arms returns the blocks of if or switch s, and whether some path
// through s runs none of them (an if without else, a switch without
// default).
func arms(s ir.Stmt) ([]*ir.Block, bool) {
	switch s := s.(type) {
	case *ir.If:
		if s.Else == nil {
			return []*ir.Block{s.Then}, true
		}
		return []*ir.Block{s.Then, s.Else}, false
	case *ir.Switch:
		return s.Cases, !s.Exhaustive
	}
	return nil, false
}

// returnPaths handles producer P whose consumers lie in branches of anc,
// an if or switch of P's block, and after anc in that block. It reports
// false when the consumers do not have that shape (the caller refuses as
// for any consumer on the same path twice); otherwise it fuses P into each
// path's kernel or refuses, and reports true.
func (st *state) returnPaths(P *ir.SOAC, x *ir.Var, anc ir.Stmt, cons []consumer, others []Use) bool {
	blocks, _ := arms(anc)
	if blocks == nil || len(others) > 0 {
		return false
	}
	var after *kstate
	for _, c := range cons {
		switch {
		case c.kind == "branch" && c.anc == anc:
		case c.kind == "direct" && st.g.Index(c.anc) > st.g.Index(anc):
			k := st.kernelOf(c.soac)
			if after != nil && k != after {
				return false
			}
			after = k
		default:
			return false
		}
	}
	if after == nil {
		return false
	}
	skip := st.skippable(P)
	var targets []*kstate
	for _, b := range blocks {
		switch consumes, ends := st.consumesIn(b, x), terminates(b); {
		case consumes && !ends:
			return false // consumed here and again after anc: computed twice
		case consumes:
			ks, r := st.armKernels(b, anc, x, skip)
			if r != nil {
				st.refuse(P, x, r)
				return true
			}
			targets = append(targets, ks...)
		case ends && !skip:
			st.refuse(P, x, &Refusal{Rule: RefNotEveryPath, Pos: blockPos(b, anc), Var: x,
				Reason: "the branch at " + st.p.at(blockPos(b, anc)) + " of " + st.p.stmt(anc) + " returns without consuming " + x.Name + ": computing " + x.Name + " only on the other paths would skip it, and its panics, on this one"})
			return true
		}
	}
	if r := st.fallMove(P, after, anc); r != nil {
		st.refuse(P, x, r)
		return true
	}
	st.copyInto(P, x, targets, after)
	return true
}

// copyInto fuses P into the kernel of each returning branch (targets) and
// into after, the kernel of the paths that fall through, once each fusion
// passed vertical fusion's checks, or refuses.
func (st *state) copyInto(P *ir.SOAC, x *ir.Var, targets []*kstate, after *kstate) {
	type plan struct {
		k       *kstate
		names   []string
		asserts []*ir.SOAC
	}
	var plans []plan
	for _, K := range append(targets, after) {
		if K != after {
			if r := st.pathMove(P, K, nil); r != nil {
				st.refuse(P, x, r)
				return
			}
		}
		names, asserts, r := st.vertical(P, K, x)
		if r == nil {
			r = st.unchosen(P, K.list)
		}
		if r == nil {
			members := append(slices.Clone(K.list), P)
			r = st.orderAfter(members, st.atWith(K, P), P, nil, append(slices.Clone(st.of[P]), K)...)
		}
		if r != nil {
			st.refuse(P, x, r)
			return
		}
		plans = append(plans, plan{K, names, asserts})
	}
	if !st.useGas() {
		return
	}
	for _, pl := range plans {
		st.join(P, pl.k, pl.asserts)
		st.fire(pl.k, append(pl.names, TagBranchCopy)...)
	}
}

// fallMove checks that P can move down its block to kernel K, past anc on
// the paths that fall through it: anc's own condition and its branches
// that do not return (which do not consume P's output), and every other
// statement in between that is not a member of K.
func (st *state) fallMove(P *ir.SOAC, K *kstate, anc ir.Stmt) *Refusal {
	at := st.atWith(K, P)
	b := P.Parent
	if at == nil || at.Block() != b || st.g.Index(at) < st.g.Index(anc) {
		return &Refusal{Rule: RefLoopBoundary, Pos: anc.Pos(),
			Reason: "the kernel after " + st.p.stmt(anc) + " does not run after it in the block of " + st.p.soac(P)}
	}
	for i := st.g.Index(P) + 1; i <= st.g.Index(at); i++ {
		s := b.Stmts[i]
		if soac, ok := s.(*ir.SOAC); ok && K.members[soac] {
			continue
		}
		if s != anc {
			if r := conflict(st.fn, st.p, P, s); r != nil {
				return r
			}
			continue
		}
		if r := conflict(st.fn, st.p, P, st.enter(anc, P.Out)); r != nil {
			return r
		}
		blocks, _ := arms(anc)
		for _, arm := range blocks {
			if terminates(arm) {
				continue // not on the paths that reach K
			}
			for _, t := range arm.Stmts {
				if r := conflict(st.fn, st.p, P, t); r != nil {
					return r
				}
			}
		}
	}
	return nil
}

// apartChains reports whether the statements whose chains are ca and cb
// (innermost first, up to the function body: orderView.chain) never run
// in one execution of the innermost block holding both: their statements
// there differ, and the earlier is an if or switch whose branch holding
// the other's statement always returns (terminates).
func apartChains(ca, cb []ir.Stmt) bool {
	ia, ib := -1, -1
	for i, a := range ca {
		if j := slices.IndexFunc(cb, func(b ir.Stmt) bool { return b.Block() == a.Block() }); j >= 0 {
			ia, ib = i, j
			break
		}
	}
	if ia < 0 || ca[ia] == cb[ib] {
		return false
	}
	c, i := ca, ia
	if blockIndex(cb[ib]) < blockIndex(ca[ia]) {
		c, i = cb, ib
	}
	if i == 0 {
		return false
	}
	switch c[i].(type) {
	case *ir.If, *ir.Switch:
		arm := c[i-1].Block()
		return arm != nil && arm.Parent == c[i] && terminates(arm)
	}
	return false
}

// blockIndex is the index of s in its block.
func blockIndex(s ir.Stmt) int {
	return slices.Index(s.Block().Stmts, s)
}

// parentChain returns s, the statement whose block holds s, and so on up
// to the function body.
func parentChain(s ir.Stmt) []ir.Stmt {
	var out []ir.Stmt
	for s != nil {
		out = append(out, s)
		b := s.Block()
		if b == nil {
			break
		}
		s = b.Parent
	}
	return out
}
