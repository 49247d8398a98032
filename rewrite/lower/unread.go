package lower

// This file finds the maps of a Loop kernel whose elements nothing reads
// (lowered.Member.Unread): a map stored nowhere whose consumers' lambdas
// ignore the parameter its elements are bound to. When its own lambda is
// a literal that is pure, cannot panic and captures nothing, leaving it
// out of the loop is unobservable.

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// markUnread sets Unread on the members of Loop kernel lk (lowered from
// k) that the loop need not run, last to first, so that a map read only
// by unread maps is unread too.
func (lw *lowerer) markUnread(k *fusion.Kernel, lk *lowered.Kernel) {
	late := later(k)
	for i := len(lk.Members) - 1; i >= 0; i-- {
		m := lk.Members[i]
		if m.Role != lowered.Map || m.Store != lowered.NoStore || m.SOAC.Out == nil || slices.Contains(late, m.SOAC) {
			continue
		}
		op, ok := m.SOAC.Op.(*ir.Screma)
		if !ok || op.Map == nil || op.Reduce != nil || op.Scan != nil || !op.Map.Purity.Pure || op.Map.Purity.MayPanic {
			continue
		}
		// A literal capturing nothing: left out, it leaves no variable
		// of the spec unread (Go rejects one declared and not used), and
		// evaluating it where it is written has no effect to keep.
		if op.Map.Kind != ir.FuncLit || len(op.Map.Free) > 0 {
			continue
		}
		if !lw.onlyIgnored(k, lk, i) {
			continue
		}
		lk.Members[i].Unread = true
	}
}

// onlyIgnored reports whether the elements of member i of lk are read by
// no member of k but through a parameter its lambda does not use, or by
// an unread member, and whether member i has no copy or index read the
// loop would have to take.
func (lw *lowerer) onlyIgnored(k *fusion.Kernel, lk *lowered.Kernel, i int) bool {
	out := lk.Members[i].SOAC.Out
	for _, c := range k.Copies {
		if c.SOAC == lk.Members[i].SOAC {
			return false
		}
	}
	for _, g := range k.Gathers {
		if g.Var == out || g.SOAC == lk.Members[i].SOAC {
			return false
		}
	}
	for j, r := range lk.Members {
		if j == i {
			continue
		}
		if refersTo(r.SOAC, out) {
			return false
		}
		ins := r.SOAC.Inputs()
		if !slices.Contains(ins, out) || r.Unread {
			continue
		}
		op, ok := r.SOAC.Op.(*ir.Screma)
		if !ok || op.Map == nil || op.Reduce != nil || op.Scan != nil || op.Map.Lit == nil {
			return false
		}
		params := paramObjs(lw.info, op.Map.Lit)
		if len(params) != len(ins) {
			return false
		}
		for pi, v := range ins {
			if v == out && params[pi] != nil && usesObj(lw.info, op.Map.Lit.Body, params[pi]) {
				return false
			}
		}
	}
	return true
}

// refersTo reports whether s reads v otherwise than as an input: a
// capture of one of its lambdas or a variable of one of its operands.
func refersTo(s *ir.SOAC, v *ir.Var) bool {
	for _, l := range s.Lambdas() {
		if slices.Contains(l.Free, v) {
			return true
		}
	}
	for _, o := range s.Operands() {
		if slices.Contains(o.Uses, v) {
			return true
		}
	}
	return false
}

// paramObjs returns the object of each parameter of lit in order, nil for
// an unnamed or blank one.
func paramObjs(info *types.Info, lit *ast.FuncLit) []types.Object {
	var objs []types.Object
	for _, fl := range lit.Type.Params.List {
		if len(fl.Names) == 0 {
			objs = append(objs, nil)
			continue
		}
		for _, id := range fl.Names {
			if id.Name == "_" {
				objs = append(objs, nil)
			} else {
				objs = append(objs, info.Defs[id])
			}
		}
	}
	return objs
}

// usesObj reports whether an identifier in n refers to obj.
func usesObj(info *types.Info, n ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}
