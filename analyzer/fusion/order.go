package fusion

// This file keeps the kernels in an order the program allows. A kernel
// runs at one statement of its block (Kernel.At): members written before
// it move down to it, members written after it move up. Each move is
// checked against the statements it passes (legal.go, place.go), but the
// statements passed may themselves be members of other kernels that run
// elsewhere: two kernels can each be legal alone and still need each other
// first (one reads an array the other computes, the other captures a
// scalar the first computes). So the invariant is checked on the kernels
// as a whole: running every SOAC at its kernel's position keeps every
// dependency of the graph (array and scalar flows, other uses, hazards:
// writes, reassignments, effects, panics) in program order. The driver
// asks before each fusion and merge (a refusal, kernel-order), and Fuse
// checks the finished plan (kernelOrder) whatever the method.
//
// It does NOT decide which kernels to form (driver.go) or whether a move
// past one statement is legal (legal.go, place.go).

import (
	"fmt"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// slot is one kernel that runs a SOAC: its identity and the statement
// of its block it runs at.
type slot struct {
	kernel any
	at     ir.Stmt
}

// orderView says where each SOAC runs once its kernels are formed.
type orderView struct {
	g *Graph
	// slots returns the kernels holding s (several for a producer copied
	// into disjoint branches; s itself when it is in none yet).
	slots func(s *ir.SOAC) []slot
	// copied reports that SOAC s reads captured variable v as a copy
	// taken at its own statement (Kernel.Copies).
	copied func(s *ir.SOAC, v *ir.Var) bool
}

// violation returns the first dependency of the graph, in program order,
// whose two ends the kernels run in the opposite order, or nil.
func (o *orderView) violation(p posFmt) *Refusal {
	for _, e := range o.g.edges {
		src, dst := endpoints(e)
		if e.Kind == Hazard && e.Rule == RefCaptureReassigned {
			if s, ok := e.From.(*ir.SOAC); ok && o.copied(s, e.Var) {
				continue
			}
		}
		if a, b := commonAncestors(src, dst); a == nil || a == b || o.g.Index(a) >= o.g.Index(b) {
			continue // not an order the program imposes
		}
		var dsts []ir.Stmt
		for _, d := range useSites(o.g.Fn, e, dst) {
			dsts = append(dsts, o.endSlotsAt(d)...)
		}
		for _, sa := range o.endSlots(src) {
			for _, sb := range dsts {
				ca, cb := o.chain(sa.at), o.chain(sb)
				a, b := o.common(ca, cb)
				if a == nil || a == b || o.g.Index(a) < o.g.Index(b) || apartChains(ca, cb) {
					continue
				}
				return &Refusal{Rule: RefKernelOrder, Var: e.Var, Pos: e.Pos, Reason: orderReason(p, e, src, dst, a, b)}
			}
		}
	}
	return nil
}

// endpoints returns the statements an edge orders: the definition of
// the variable a flow is about, and the innermost statement of the use.
func endpoints(e *Edge) (ir.Stmt, ir.Stmt) {
	src, dst := e.From, e.To
	if e.Kind != Hazard && e.Var != nil && e.Var.Def != nil {
		src = e.Var.Def
	}
	if e.Site != nil {
		dst = e.Site
	}
	return src, dst
}

// endSlots returns where statement s runs: for a SOAC, at each kernel
// holding it.
func (o *orderView) endSlots(s ir.Stmt) []slot {
	if soac, ok := s.(*ir.SOAC); ok {
		return o.slots(soac)
	}
	return []slot{{kernel: s, at: s}}
}

// endSlotsAt returns the positions endSlots gives.
func (o *orderView) endSlotsAt(s ir.Stmt) []ir.Stmt {
	var out []ir.Stmt
	for _, sl := range o.endSlots(s) {
		out = append(out, sl.at)
	}
	return out
}

// useSites returns the statements the later end dst of edge e stands for:
// for a use of a variable by an if or switch (a used-before hazard), the
// statements inside it that read or write the variable, and the if or
// switch itself when its own expressions do, so that a use on a path apart
// from the earlier end's kernel (apartChains) orders nothing; else dst.
func useSites(fn *ir.Function, e *Edge, dst ir.Stmt) []ir.Stmt {
	switch dst.(type) {
	case *ir.If, *ir.Switch:
		if e.Kind == Hazard && e.Rule == RefUsedBefore && e.Var != nil {
			if sites := sitesIn(fn, dst, e.Var); len(sites) > 0 {
				return sites
			}
		}
	}
	return []ir.Stmt{dst}
}

// sitesIn returns the statements of s, an if or switch, that read or write
// v (see useSites).
func sitesIn(fn *ir.Function, s ir.Stmt, v *ir.Var) []ir.Stmt {
	var out []ir.Stmt
	if own := ownEffects(s); containsV(own.Uses, v) || containsV(own.Writes, v) {
		out = append(out, s)
	}
	for _, b := range ir.Children(s) {
		for _, t := range b.Stmts {
			switch t.(type) {
			case *ir.If, *ir.Switch:
				out = append(out, sitesIn(fn, t, v)...)
				continue
			}
			if usesVar(fn.Info, t, v) {
				out = append(out, t)
			}
		}
	}
	return out
}

// chain returns the statements that run s, innermost first: s (or, for
// a SOAC, its kernel's position), then the statement whose block holds
// that, mapped the same way, up to the function body.
func (o *orderView) chain(s ir.Stmt) []ir.Stmt {
	var out []ir.Stmt
	for s != nil {
		if soac, ok := s.(*ir.SOAC); ok {
			s = o.slots(soac)[0].at
		}
		out = append(out, s)
		b := s.Block()
		if b == nil {
			break
		}
		s = b.Parent
	}
	return out
}

// common returns the statements of chains a and b in the innermost block
// they share.
func (o *orderView) common(a, b []ir.Stmt) (ir.Stmt, ir.Stmt) {
	in := map[*ir.Block]ir.Stmt{}
	for _, s := range a {
		if _, ok := in[s.Block()]; !ok {
			in[s.Block()] = s
		}
	}
	for _, s := range b {
		if x, ok := in[s.Block()]; ok {
			return x, s
		}
	}
	return nil, nil
}

// orderReason says which dependency the kernels' positions reverse.
func orderReason(p posFmt, e *Edge, src, dst, a, b ir.Stmt) string {
	what := "must come before"
	switch {
	case e.Kind != Hazard && e.Var != nil:
		what = fmt.Sprintf("computes %s, read by", e.Var.Name)
	case e.Reason != "":
		what = fmt.Sprintf("must come before (%s)", e.Reason)
	}
	return fmt.Sprintf("%s %s %s, but the kernels would run %s at %s after %s at %s",
		p.stmt(src), what, p.stmt(dst), p.stmt(src), p.at(a.Pos()), p.stmt(dst), p.at(b.Pos()))
}

// orderAfter returns why the kernels would run out of order if the SOACs
// of members formed one kernel running at statement at, in place of the
// kernels replaced, or nil when every dependency keeps its order.
// P, when not nil, is a member reading copies of captured variables.
func (st *state) orderAfter(members []*ir.SOAC, at ir.Stmt, P *ir.SOAC, copies []*ir.Var, replaced ...*kstate) *Refusal {
	hyp := &kstate{}
	in := map[*ir.SOAC]bool{}
	for _, m := range members {
		in[m] = true
	}
	o := &orderView{g: st.g,
		slots: func(s *ir.SOAC) []slot {
			// A member copied into other kernels that stay (a producer
			// of a branch copy) runs there too: as kernelOrder checks the
			// finished plan, the new position must keep its order with
			// each of them (the kernel of the paths falling through an
			// if whose branch returns must stay after the if).
			var out []slot
			if in[s] {
				out = append(out, slot{hyp, at})
			}
			for _, k := range st.of[s] {
				if !k.dead && !containsK(replaced, k) {
					out = append(out, slot{k, st.at(k)})
				}
			}
			if len(out) == 0 {
				return []slot{{s, s}}
			}
			return out
		},
		copied: func(s *ir.SOAC, v *ir.Var) bool {
			return containsV(st.copies[s], v) || s == P && containsV(copies, v)
		},
	}
	return o.violation(st.p)
}

// kernelOrder checks a finished plan: nil when running every SOAC at its
// kernel's position keeps every dependency in program order.
func kernelOrder(plan *Plan, g *Graph) *Refusal {
	of := map[*ir.SOAC][]slot{}
	copied := map[*ir.SOAC][]*ir.Var{}
	for _, k := range plan.Kernels {
		for _, m := range k.SOACs {
			of[m] = append(of[m], slot{k, k.At})
		}
		for _, c := range k.Copies {
			copied[c.SOAC] = append(copied[c.SOAC], c.Var)
		}
	}
	o := &orderView{g: g,
		slots: func(s *ir.SOAC) []slot {
			if sl := of[s]; len(sl) > 0 {
				return sl
			}
			return []slot{{s, s}}
		},
		copied: func(s *ir.SOAC, v *ir.Var) bool { return containsV(copied[s], v) },
	}
	return o.violation(posFmt{plan.Fset})
}

func containsV(vs []*ir.Var, v *ir.Var) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}
