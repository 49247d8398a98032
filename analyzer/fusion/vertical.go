package fusion

// This file is the driver's vertical fusion (Henriksen & Oancea [T2-fusion]
// §3): for one producer, how each consumer is reached from its block
// (directly, inside branches, or across a loop, closure or lambda),
// which kernel it fuses into (merging its consumers' kernels when they
// differ), the rule table's verdict on that kernel, and whether the
// producer can move down to where the kernel runs.
//
// It does NOT copy a producer into branches (branchcopy.go), make the
// fusion or write a producer's output out (fuseinto.go), or merge
// kernels (horizontal.go).

import (
	"fmt"
	"slices"
	"sort"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// consumer is one SOAC that reads the producer's output as an input array.
type consumer struct {
	soac *ir.SOAC
	anc  ir.Stmt // its ancestor in the producer's block
	kind string  // "direct", "branch" or "boundary"
	box  ir.Stmt // for "boundary": the loop, closure or SOAC whose body holds it
}

// classify says how consumer c is reached from block b.
func classify(c *ir.SOAC, b *ir.Block) consumer {
	anc := AncestorIn(c, b)
	out := consumer{soac: c, anc: anc, kind: "direct"}
	if anc == ir.Stmt(c) {
		return out
	}
	out.kind = "branch"
	for s := ir.Stmt(c); s != anc; {
		parent := s.Block().Parent
		switch parent.(type) {
		case *ir.If, *ir.Switch:
		default:
			out.kind, out.box = "boundary", parent
		}
		s = parent
	}
	return out
}

func (st *state) boxName(s ir.Stmt) string {
	if soac, ok := s.(*ir.SOAC); ok {
		return "the lambda of " + st.p.soac(soac)
	}
	return st.p.stmt(s)
}

// producer tries to fuse P into the kernel of its consumers.
func (st *state) producer(P *ir.SOAC) {
	x := P.Out
	if x == nil || st.gasOut {
		return
	}
	st.noteWrittenConsumers(P, x)
	var cons []consumer
	var others []Use
	for _, u := range st.g.Uses[x] {
		if c, ok := u.Stmt.(*ir.SOAC); ok && u.Kind == ArrayFlow {
			cons = append(cons, classify(c, P.Parent))
		} else {
			others = append(others, u)
		}
	}
	if len(cons) == 0 {
		return
	}
	if r := st.copiedConsumer(x, cons); r != nil {
		st.refuse(P, x, r)
		return
	}
	if l := soacImpure(P); l != nil {
		if !st.effectsFusion(P, x, cons, others) {
			why, pos := impureReason(st.p, P)
			st.refuse(P, x, &Refusal{Rule: RefImpure, Pos: pos, Reason: why + ": impure SOACs never fuse, except a Map into a pure Reduce right after it (effects.go)"})
		}
		return
	}
	for _, c := range cons {
		if c.kind == "boundary" && !P.IsGenerator() {
			st.refuse(P, x, &Refusal{Rule: RefLoopBoundary, Pos: c.soac.Pos(), Consumer: c.soac,
				Reason: fmt.Sprintf("%s is computed at %s outside %s and consumed inside it at %s: fusing would recompute it every time the body runs ([T2-fusion] Fig. 9 case 3)",
					x.Name, st.p.at(P.Pos()), st.boxName(c.box), st.p.at(c.soac.Pos()))})
			return
		}
	}
	var branch []consumer
	var ks []*kstate
	var boundary bool
	for _, c := range cons {
		if c.kind == "branch" {
			branch = append(branch, c)
			continue
		}
		if c.kind == "boundary" {
			boundary = true
		}
		k := st.kernelOf(c.soac)
		if !containsK(ks, k) {
			ks = append(ks, k)
		}
	}
	if len(branch) > 0 {
		st.branches(P, x, cons, branch, others)
		return
	}
	var K *kstate
	var tags []string
	if len(ks) == 1 {
		K = ks[0]
	} else {
		second := st.secondConsumer(cons, ks)
		if boundary {
			st.refuse(P, x, &Refusal{Rule: RefConsumedTwice, Pos: second.Pos(), Consumer: second,
				Reason: fmt.Sprintf("%s is consumed by kernels at different levels; the second at %s", x.Name, st.p.at(second.Pos()))})
			return
		}
		if r := st.unchosen(P, consumerSOACs(cons)); r != nil {
			if r := st.mapOutChosen(P, x, cons, others, r); r != nil {
				st.refuse(P, x, r)
			}
			return
		}
		m, r := st.mergeAll(ks)
		if r != nil {
			twice := &Refusal{Rule: RefConsumedTwice, Pos: second.Pos(), Consumer: second,
				Reason: fmt.Sprintf("%s is consumed again at %s on the same execution path, and the consumers cannot share a kernel (%s); fusing into both would compute it twice ([T2-fusion] Fig. 9 cases 4 and 6)",
					x.Name, st.p.at(second.Pos()), r.Reason)}
			if !st.mapOutFirst(P, x, cons, others) {
				st.refuse(P, x, twice)
				return
			}
			// x fused into the first consumer's kernel and is written
			// out there: every consumer outside that kernel reads it
			// materialised, and its edge gets a note saying why.
			for _, c := range cons {
				if k := st.kernelOf(c.soac); k == nil || !k.members[P] {
					st.mapOutNote(P, x, c.soac, r)
				}
			}
			return
		}
		if m == nil { // out of gas
			return
		}
		K = m
		tags = append(tags, TagMerge)
	}
	if r := st.fuseInto(P, x, K, cons, others, boundary, tags); r != nil {
		st.refuse(P, x, r)
	}
}

// copiedConsumer refuses fusing x's producer when a consumer runs in
// several kernels, copied into the paths a branch or a return separates
// (branchcopy.go, returnpaths.go; the driver reaches a block's consumers
// first): fused into one of them, x would not be computed on the others,
// whose kernels read it.
func (st *state) copiedConsumer(x *ir.Var, cons []consumer) *Refusal {
	for _, c := range cons {
		n := 0
		for _, k := range st.of[c.soac] {
			if !k.dead {
				n++
			}
		}
		if n > 1 {
			return &Refusal{Rule: RefNotEveryPath, Pos: c.soac.Pos(), Consumer: c.soac,
				Reason: fmt.Sprintf("%s runs in %d kernels, copied into the paths a branch or a return separates (%s): fused into one of them, %s would not be computed on the others",
					st.p.soac(c.soac), n, TagBranchCopy, x.Name)}
		}
	}
	return nil
}

// withConsumer names c as the consumer of r when r names none.
func withConsumer(r *Refusal, c *ir.SOAC) *Refusal {
	if r.Consumer == nil {
		r.Consumer = c
	}
	return r
}

func containsK(ks []*kstate, k *kstate) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// secondConsumer returns the first consumer, in program order, that is not
// in the kernel of the earliest one.
func (st *state) secondConsumer(cons []consumer, ks []*kstate) *ir.SOAC {
	var all []*ir.SOAC
	for _, c := range cons {
		all = append(all, c.soac)
	}
	sort.Slice(all, func(i, j int) bool { return st.g.Order(all[i]) < st.g.Order(all[j]) })
	first := st.kernelOf(all[0])
	for _, c := range all[1:] {
		if st.kernelOf(c) != first {
			return c
		}
	}
	return all[len(all)-1]
}

// join makes P a member of K, dropping P's own kernel.
func (st *state) join(P *ir.SOAC, K *kstate, asserts []*ir.SOAC) {
	for _, k := range st.of[P] {
		if k != K && len(k.list) == 1 {
			k.dead = true
		}
	}
	K.members[P] = true
	K.list = append(K.list, P)
	sort.Slice(K.list, func(i, j int) bool { return st.g.Order(K.list[i]) < st.g.Order(K.list[j]) })
	K.asserts = asserts
	st.of[P] = append(st.of[P], K)
}

// vertical applies the rule table to P and every member of K that
// consumes x, then checks the fused kernel's space and shape.
func (st *state) vertical(P *ir.SOAC, K *kstate, x *ir.Var) ([]string, []*ir.SOAC, *Refusal) {
	var names []string
	for _, c := range K.list {
		if !slices.Contains(st.g.FlowInputs(c), x) {
			continue
		}
		if l := soacImpure(c); l != nil {
			why, pos := impureReason(st.p, c)
			return nil, nil, &Refusal{Rule: RefImpure, Pos: pos, Consumer: c, Reason: why + ": impure SOACs never fuse"}
		}
		rule := lookupVertical(ClassOf(P), ClassOf(c))
		if rule == nil {
			return nil, nil, &Refusal{Rule: RefNoRule, Pos: c.Pos(), Consumer: c, Var: x,
				Reason: fmt.Sprintf("no rule fuses %s -> %s (%s is complete only after %s ran)", P.Name, c.Name, x.Name, st.p.soac(P))}
		}
		if rule.Check != nil {
			if r := rule.Check(&ruleCtx{st: st, producer: P, consumer: c, x: x}); r != nil {
				return nil, nil, r
			}
		}
		if !containsS(names, rule.Name) {
			names = append(names, rule.Name)
		}
		if !consumes(c, x) && !containsS(names, TagIndexRead) {
			names = append(names, TagIndexRead)
		}
	}
	for _, m := range K.list {
		if l := soacImpure(m); l != nil {
			why, pos := impureReason(st.p, m)
			return nil, nil, &Refusal{Rule: RefImpure, Pos: pos, Consumer: m, Reason: why + ": impure SOACs never fuse"}
		}
	}
	members := append(append([]*ir.SOAC{}, K.list...), P)
	asserts, r := st.sp.compat(members)
	if r != nil {
		return nil, nil, r
	}
	if r := st.operandOrder(members); r != nil {
		return nil, nil, r
	}
	if r := shapeCheck(st.p, members); r != nil {
		return nil, nil, r
	}
	return names, asserts, nil
}

func containsS(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func consumes(c *ir.SOAC, x *ir.Var) bool {
	for _, v := range c.Inputs() {
		if v == x {
			return true
		}
	}
	return false
}

// pathMove checks that P can move from its position to where kernel K
// runs: down its own block to the statement holding K, into that
// statement's nested block (past an if's or switch's own condition, or
// past everything a loop, closure or lambda does), and down each nested
// block to K's position, past every statement that is not a member of K.
// When copies is not nil, a variable captured by P's function literals
// and reassigned on the way is no hazard: it is appended to *copies (P
// reads a copy taken at its own position: Kernel.Copies).
func (st *state) pathMove(P *ir.SOAC, K *kstate, copies *[]*ir.Var) *Refusal {
	at := st.at(K)
	skip := func(s ir.Stmt) bool { soac, ok := s.(*ir.SOAC); return ok && K.members[soac] }
	// chain[0] is K's position, chain[i+1] the statement holding chain[i]'s
	// block, up to the statement in P's block.
	var chain []ir.Stmt
	for s := at; s != nil; s = s.Block().Parent {
		chain = append(chain, s)
		if s.Block() == P.Parent || s.Block() == nil {
			break
		}
	}
	outer := chain[len(chain)-1]
	if outer.Block() != P.Parent {
		return &Refusal{Rule: RefLoopBoundary, Pos: at.Pos(),
			Reason: fmt.Sprintf("the kernel at %s is not inside the block of %s", st.p.at(at.Pos()), st.p.soac(P))}
	}
	if len(chain) == 1 {
		return moveDown(st.fn, st.g, st.p, P, outer, skip, copies)
	}
	past := func(s ir.Stmt) *Refusal {
		r, cs := conflictCopying(st.fn, st.p, P, s, copies != nil)
		if r == nil && copies != nil {
			addCopies(copies, cs)
		}
		return r
	}
	b := P.Parent
	for i := st.g.Index(P) + 1; i < st.g.Index(outer); i++ {
		if s := b.Stmts[i]; !skip(s) {
			if r := past(s); r != nil {
				return r
			}
		}
	}
	for lvl := len(chain) - 1; lvl >= 1; lvl-- {
		if r := past(st.enter(chain[lvl], P.Out)); r != nil {
			return r
		}
		inner := chain[lvl-1]
		ib := inner.Block()
		for i := 0; i < st.g.Index(inner); i++ {
			if s := ib.Stmts[i]; !skip(s) {
				if r := past(s); r != nil {
					return r
				}
			}
		}
	}
	return nil
}

// enter returns the view of a container that a producer moving into it
// passes: for an if or switch only its own condition (one branch runs,
// once); for a loop, closure or lambda everything it does, since its body
// may run again after the kernel — in both cases without the reads of x
// itself, which are the fused consumers'.
func (st *state) enter(box ir.Stmt, x *ir.Var) ir.Stmt {
	var eff ir.Effects
	switch box.(type) {
	case *ir.If, *ir.Switch:
		eff = *ownEffects(box)
		eff.Exits = false
	default:
		eff = *box.Effects()
	}
	eff.Uses = without(eff.Uses, x)
	eff.Writes = without(eff.Writes, x)
	return ownStmt{box, &eff}
}

func without(vs []*ir.Var, x *ir.Var) []*ir.Var {
	var out []*ir.Var
	for _, v := range vs {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}
