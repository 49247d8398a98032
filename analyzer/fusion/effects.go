package fusion

// This file decides the one fusion an impure SOAC takes part in (effects in
// order): a Map whose lambda has side effects fuses into
// the Reduce that is its only consumer, right after it (or moved up to it,
// past statements it commutes with: placement, place.go; the map itself
// never moves), when the reduction cannot observe those effects. The fused loop calls the map's lambda on
// elements 0, 1, ..., n-1 in order, as the spec does, and interleaves only
// reduction steps, which have no effects of their own, cannot panic (so
// every effect of the spec happens before any panic of the kernel, as in
// the spec, and the generator never re-runs the members), and read nothing
// the map's lambda could write (no captured or package-level variable; the
// neutral element a constant).
//
// It does NOT let anything else join such a kernel: vertical and
// horizontal fusion refuse kernels with an impure member (vertical.go,
// horizontal.go), and Check accepts an impure member only in this form.

import (
	"fmt"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// effectsInOrder says why the impure map P cannot fuse into its consumer c
// with its effects in order, or "" when it can (K is c's kernel).
func effectsInOrder(fn *ir.Function, P, c *ir.SOAC, K []*ir.SOAC) string {
	pm, ok := P.Op.(*ir.Screma)
	if !ok || pm.Scan != nil || pm.Reduce != nil {
		return fmt.Sprintf("%s is not a Map", P.Name)
	}
	cr, ok := c.Op.(*ir.Screma)
	if !ok || cr.Reduce == nil || cr.Map != nil || len(cr.Inputs) != 1 || cr.Inputs[0] != P.Out {
		return fmt.Sprintf("its consumer %s is not a Reduce of %s alone", c.Name, P.Out.Name)
	}
	if len(K) != 1 || K[0] != c {
		return "the Reduce's kernel has other members"
	}
	for _, l := range c.Lambdas() {
		if !l.Purity.Pure || l.Purity.MayPanic {
			return "the Reduce's operator may panic or has effects"
		}
		if len(l.Free) > 0 || lambdaMayReadGlobal(fn.Info, l) {
			return "the Reduce's operator reads variables the map's lambda may write"
		}
	}
	if o := cr.Reduce.Neutral; o == nil || o.Const == nil || o.Const.Value == nil {
		return "the Reduce's neutral element is not a constant"
	}
	return ""
}

// effectsKernel reports whether the members of one kernel are an impure
// map and the pure reduction it fused into with its effects in order.
func effectsKernel(fn *ir.Function, members []*ir.SOAC) bool {
	if len(members) != 2 {
		return false
	}
	P, c := members[0], members[1]
	if soacImpure(P) == nil || soacImpure(c) != nil {
		return false
	}
	return effectsInOrder(fn, P, c, []*ir.SOAC{c}) == ""
}

// effectsFusion fuses the impure map P into its only consumer, a pure
// reduction, with its effects in order; it reports whether it did (or ran
// out of gas).
func (st *state) effectsFusion(P *ir.SOAC, x *ir.Var, cons []consumer, others []Use) bool {
	if len(cons) != 1 || cons[0].kind != "direct" {
		return false
	}
	K := st.kernelOf(cons[0].soac)
	if K == nil || effectsInOrder(st.fn, P, cons[0].soac, K.list) != "" {
		return false
	}
	return st.fuseInto(P, x, K, cons, others, false, []string{TagEffects}) == nil
}

// effectsDiagnostics corrects the impure diagnostics of the maps that fused
// with their effects in order: they are fused, though never reordered.
func (st *state) effectsDiagnostics() {
	for _, k := range st.kernels {
		if k.dead || len(k.list) < 2 {
			continue
		}
		for _, m := range k.list {
			if soacImpure(m) == nil {
				continue
			}
			why, pos := impureReason(st.p, m)
			for i, d := range st.diags {
				if d.Category == "impure" && d.Pos == pos {
					st.diags[i].Message = why + ": " + st.p.soac(m) + " is fused only into the reduction right after it, its effects in the same order, and is never reordered"
				}
			}
		}
	}
}
