package fusion

// This file infers iteration spaces (Robinson et al., "Clustering for Array-Backed Streams" (2014) [Robinson-ILP] §1.3): which arrays are
// known to have equal lengths, and which lengths descend from others
// through filters (transducers). A kernel is one pass over one space; its
// members may iterate over spaces that descend from the kernel's space
// through filters that are members too (the compatible concestors of
// [Robinson-ILP] Fig. 1.8).
//
// It does NOT decide moves or rules; it only answers "may these SOACs share
// one pass" with a refusal naming the spaces.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/purity"
)

type spaceID int

// spaces is the size inference of one function.
//
// Spaces are never unified globally: two parameters are not known to have
// equal lengths even if a Map2 zips them later, because that Map2 may not
// run. A Map2/Map3 makes its inputs' spaces equal only inside a kernel that
// contains it (compat), and the generated kernel checks those lengths
// before it runs any member (Kernel.Asserts).
type spaces struct {
	p     posFmt
	info  *types.Info // the package's types, to tell the builtin len from a user's (nil: no length through a variable)
	next  spaceID
	ofV   map[*ir.Var]spaceID
	iter  map[*ir.SOAC]spaceID
	out   map[*ir.SOAC]spaceID
	trans map[spaceID]*ir.SOAC // the filter whose output has this space
	up    map[spaceID]spaceID  // that filter's iteration space
	keyed map[string]spaceID
	desc  map[spaceID]string
}

func newSpaces(p posFmt, info *types.Info) *spaces {
	return &spaces{
		p: p, info: info, ofV: map[*ir.Var]spaceID{}, iter: map[*ir.SOAC]spaceID{}, out: map[*ir.SOAC]spaceID{},
		trans: map[spaceID]*ir.SOAC{}, up: map[spaceID]spaceID{}, keyed: map[string]spaceID{},
		desc: map[spaceID]string{},
	}
}

func (sp *spaces) fresh(desc string) spaceID {
	sp.next++
	sp.desc[sp.next] = desc
	return sp.next
}

// ofVar returns the space of array v: its producer's output space, or a
// space of its own (a parameter, or any value not computed by a SOAC).
func (sp *spaces) ofVar(v *ir.Var) spaceID {
	if s, ok := sp.ofV[v]; ok {
		return s
	}
	var s spaceID
	if soac, ok := v.Def.(*ir.SOAC); ok && soac.Out == v {
		s = sp.outOf(soac)
	} else if id, ok := sp.sliceSpace(v); ok {
		s = id
	} else {
		s = sp.fresh("len(" + v.Name + ")")
	}
	sp.ofV[v] = s
	return s
}

// sliceSpace returns the space of an array v that a slice expression
// x[lo:hi] defines (a := x[:n], or the temporary of a slice written as a
// SOAC's argument): once the expression has run without panicking, its
// length is hi-lo, so v shares the space of every other length that is
// the same expression of the same values: x[:n] and y[:n] and
// Replicate(n, v) and Iota(n), x[:len(ys)] and ys, x[lo:] and another
// x[lo:] of the same x. It reports false for any other definition.
func (sp *spaces) sliceSpace(v *ir.Var) (spaceID, bool) {
	def, ok := v.Def.(*ir.Plain)
	if !ok || sp.info == nil {
		return 0, false
	}
	e := definingExpr(sp.info, def, v)
	se, ok := ast.Unparen(e).(*ast.SliceExpr)
	if !ok {
		return 0, false
	}
	if _, isSlice := typeUnder(sp.info.TypeOf(se)).(*types.Slice); !isSlice {
		return 0, false // a string
	}
	lowZero := se.Low == nil
	if !lowZero {
		if tv, ok := sp.info.Types[se.Low]; ok && tv.Value != nil && tv.Value.ExactString() == "0" {
			lowZero = true
		}
	}
	if lowZero && se.High != nil {
		// The length is hi: the space of the operand hi, as a generator's
		// length operand gets it.
		o, ok := sp.operandOf(def, se.High)
		if !ok {
			return 0, false
		}
		return sp.lenSpace(o), true
	}
	// The length is hi-lo, or len(x)-lo: one space per expression of the
	// same values.
	parts := []ast.Expr{se.X, se.Low, se.High}
	var key strings.Builder
	key.WriteString("slice:")
	for i, p := range parts {
		if p == nil || (i == 0 && se.High != nil) {
			key.WriteString("|")
			continue
		}
		o, ok := sp.operandOf(def, p)
		if !ok || !deterministic(sp.info, p) {
			return 0, false
		}
		key.WriteString(types.ExprString(p))
		for _, u := range o.Uses {
			fmt.Fprintf(&key, ",%d", u.ID)
		}
		key.WriteString("|")
	}
	if id, ok := sp.keyed[key.String()]; ok {
		return id, true
	}
	id := sp.fresh("len(" + types.ExprString(se) + ")")
	sp.keyed[key.String()] = id
	return id, true
}

// definingExpr returns the expression that gives v its value in the plain
// statement def: the hoisted expression of a temporary, or v's right-hand
// side in an assignment or declaration of as many values as names; nil
// when def gives it no such single expression.
func definingExpr(info *types.Info, def *ir.Plain, v *ir.Var) ast.Expr {
	if !slices.Contains(def.Eff.Defs, v) {
		return nil
	}
	if def.Hoisted != nil {
		if def.Eff.Defs[0] == v {
			return def.Hoisted
		}
		return nil
	}
	var lhs []ast.Expr
	var rhs []ast.Expr
	switch n := def.Node.(type) {
	case *ast.AssignStmt:
		if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
			return nil
		}
		lhs, rhs = n.Lhs, n.Rhs
	case *ast.DeclStmt:
		gd, ok := n.Decl.(*ast.GenDecl)
		if !ok || len(gd.Specs) != 1 {
			return nil
		}
		vs, ok := gd.Specs[0].(*ast.ValueSpec)
		if !ok {
			return nil
		}
		for _, id := range vs.Names {
			lhs = append(lhs, id)
		}
		rhs = vs.Values
	default:
		return nil
	}
	if len(lhs) != len(rhs) || v.Obj == nil {
		return nil
	}
	var out ast.Expr
	for i, l := range lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok || info.ObjectOf(id) != v.Obj {
			continue
		}
		if out != nil {
			return nil // the name twice: x, x = a, b
		}
		out = rhs[i]
	}
	return out
}

// operandOf returns e, a subexpression of the plain statement def, as an
// operand: the Vars its identifiers read, in order of appearance (those
// def reads: each is the value reaching def), its length source for
// len(xs) and its constant value. It reports false when an identifier
// of e reads a variable def does not list.
func (sp *spaces) operandOf(def *ir.Plain, e ast.Expr) (*ir.Operand, bool) {
	o := &ir.Operand{Expr: e}
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || !ok {
			return ok
		}
		obj, isVar := sp.info.Uses[id].(*types.Var)
		if !isVar || obj.IsField() {
			return true
		}
		var found *ir.Var
		for _, u := range def.Eff.Uses {
			if u.Obj == obj {
				if found != nil && found != u {
					ok = false // two values of one variable: not a value of e
					return false
				}
				found = u
			}
		}
		if found == nil {
			ok = false
			return false
		}
		if !slices.Contains(o.Uses, found) {
			o.Uses = append(o.Uses, found)
		}
		return true
	})
	if !ok {
		return nil, false
	}
	if call, isCall := ast.Unparen(e).(*ast.CallExpr); isCall && len(call.Args) == 1 && predeclared(sp.info, call.Fun) == "len" && len(o.Uses) == 1 {
		if _, isSlice := typeUnder(sp.info.TypeOf(call.Args[0])).(*types.Slice); isSlice {
			if _, isID := ast.Unparen(call.Args[0]).(*ast.Ident); isID {
				o.Len = o.Uses[0]
			}
		}
	}
	if tv, isConst := sp.info.Types[e]; isConst && tv.Value != nil {
		o.Const = &tv
	}
	return o, true
}

// typeUnder returns t's underlying type, nil-safe.
func typeUnder(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// iterOf returns the iteration space of s: its first input's, or for a
// generator the space of its length operand.
func (sp *spaces) iterOf(s *ir.SOAC) spaceID {
	if id, ok := sp.iter[s]; ok {
		return id
	}
	var id spaceID
	switch op := s.Op.(type) {
	case *ir.Iota:
		id = sp.lenSpace(op.N)
	case *ir.Replicate:
		id = sp.lenSpace(op.N)
	default:
		if in := s.Inputs(); len(in) > 0 {
			id = sp.ofVar(in[0])
		} else {
			id = sp.fresh("the space of " + sp.p.soac(s))
		}
	}
	sp.iter[s] = id
	return id
}

// lenSpace returns the space of a length operand: that of xs for len(xs),
// one space per constant, one per expression over the same variables
// (an expression with a call whose result may differ between two
// evaluations, rand.IntN(n), gets a space of its own each time).
func (sp *spaces) lenSpace(n *ir.Operand) spaceID {
	if n == nil {
		return sp.fresh("an unknown length")
	}
	if v := lengthOf(sp.info, n); v != nil {
		return sp.ofVar(v)
	}
	var key, desc string
	if n.Const != nil && n.Const.Value != nil {
		key = "const:" + n.Const.Value.ExactString()
		desc = n.Const.Value.ExactString()
	} else {
		expr := "?"
		if n.Expr != nil {
			expr = types.ExprString(n.Expr)
		}
		if !deterministic(sp.info, n.Expr) {
			return sp.fresh(expr) // two evaluations may differ
		}
		var ids []string
		for _, v := range n.Uses {
			ids = append(ids, fmt.Sprint(v.ID))
		}
		key = "expr:" + expr + "|" + strings.Join(ids, ",")
		desc = expr
	}
	if id, ok := sp.keyed[key]; ok {
		return id
	}
	id := sp.fresh(desc)
	sp.keyed[key] = id
	return id
}

// deterministic reports whether two evaluations of e on the same
// variables give the same value: every call in it computes its result
// from its arguments alone (purity.CallPure).
func deterministic(info *types.Info, e ast.Expr) bool {
	ok := e != nil
	ast.Inspect(e, func(n ast.Node) bool {
		if c, isCall := n.(*ast.CallExpr); isCall && !purity.CallPure(info, c) {
			ok = false
		}
		return ok
	})
	return ok
}

// lengthOf returns the slice whose length the operand is, or nil: xs for
// len(xs), and for a variable n its definition's xs when n := len(xs) (or
// n = len(xs), len the builtin by info) defined it. Each ir.Var is defined once, so that n and that
// xs are the values the operand reads, whatever Go variables are
// reassigned later.
func lengthOf(info *types.Info, o *ir.Operand) *ir.Var {
	if o == nil {
		return nil
	}
	if o.Len != nil {
		return o.Len
	}
	if _, ok := ast.Unparen(o.Expr).(*ast.Ident); !ok || len(o.Uses) != 1 {
		return nil
	}
	def, ok := o.Uses[0].Def.(*ir.Plain)
	if !ok || def.Hoisted != nil || len(def.Eff.Defs) != 1 || def.Eff.Defs[0] != o.Uses[0] || len(def.Eff.Uses) != 1 {
		return nil
	}
	as, ok := def.Node.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || (as.Tok != token.DEFINE && as.Tok != token.ASSIGN) {
		return nil
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	fn, ok := ast.Unparen(call.Fun).(*ast.Ident)
	arg, ok2 := ast.Unparen(call.Args[0]).(*ast.Ident)
	xs := def.Eff.Uses[0]
	if !ok || !ok2 || fn.Name != "len" || arg.Name != xs.Name {
		return nil
	}
	if predeclared(info, fn) != "len" {
		return nil
	}
	return xs
}

// outOf returns the space of s's output: the iteration space for maps,
// scans and stream maps, a new space descending from it for a filter, a
// space of its own for a reduction's (array) result.
func (sp *spaces) outOf(s *ir.SOAC) spaceID {
	if id, ok := sp.out[s]; ok {
		return id
	}
	var id spaceID
	switch op := s.Op.(type) {
	case *ir.Filter:
		it := sp.iterOf(s)
		id = sp.fresh("len(" + s.Out.Name + "), filtered from " + sp.desc[it])
		sp.trans[id] = s
		sp.up[id] = it
	case *ir.Screma:
		if op.Reduce != nil {
			id = sp.fresh("len(" + s.Out.Name + ")")
		} else {
			id = sp.iterOf(s)
		}
	case *ir.Stream:
		if op.Kind == ir.StreamRed {
			id = sp.fresh("len(" + s.Out.Name + ")")
		} else {
			id = sp.iterOf(s)
		}
	default:
		id = sp.iterOf(s)
	}
	sp.out[s] = id
	return id
}

// isAncestor reports whether a is a strict ancestor of d through filters.
func (sp *spaces) isAncestor(a, d spaceID) bool {
	for {
		u, ok := sp.up[d]
		if !ok {
			return false
		}
		if u == a {
			return true
		}
		d = u
	}
}

// filteredBy reports whether space s descends through a filter in members.
func (sp *spaces) filteredBy(s spaceID, members map[*ir.SOAC]bool) bool {
	for {
		f, ok := sp.trans[s]
		if !ok {
			return false
		}
		if members[f] {
			return true
		}
		s = sp.up[s]
	}
}

// zipCheck checks the inputs of a Map2/Map3: it refuses when one input is
// filtered from another (their lengths provably differ unless the filter
// keeps every element: size-mismatch) or when inputs of different spaces
// include one filtered by a member of the kernel (size-unknown: a filtered
// length is only known after the filter ran, and the kernel runs the filter
// and the Map2 in one pass). Otherwise it returns the spaces to make equal.
// members may be nil (no kernel).
func (sp *spaces) zipCheck(s *ir.SOAC, members map[*ir.SOAC]bool) ([]spaceID, *Refusal) {
	in := s.Inputs()
	if len(in) < 2 {
		return nil, nil
	}
	ids := make([]spaceID, len(in))
	for i, v := range in {
		ids[i] = sp.ofVar(v)
	}
	for i := range in {
		for j := range in {
			if i == j || ids[i] == ids[j] {
				continue
			}
			if sp.isAncestor(ids[j], ids[i]) {
				return nil, &Refusal{Rule: RefSizeMismatch, Var: in[i], Pos: s.Pos(), Consumer: s,
					Reason: fmt.Sprintf("%s combines %s (%s) with %s: their lengths differ unless the filter keeps every element",
						sp.p.soac(s), in[i].Name, sp.filterDesc(ids[i]), in[j].Name)}
			}
		}
	}
	for i := 1; i < len(in); i++ {
		if ids[i] != ids[0] && (sp.filteredBy(ids[i], members) || sp.filteredBy(ids[0], members)) {
			return nil, &Refusal{Rule: RefSizeUnknown, Var: in[i], Pos: s.Pos(), Consumer: s,
				Reason: fmt.Sprintf("%s zips %s (%s) with %s (%s): a filtered length is known only after the filter ran, so they cannot share one pass ([T2-fusion] Fig. 9 case 2)",
					sp.p.soac(s), in[0].Name, sp.desc[ids[0]], in[i].Name, sp.desc[ids[i]])}
		}
	}
	return ids, nil
}

func (sp *spaces) filterDesc(id spaceID) string {
	f := sp.trans[id]
	if f == nil {
		return sp.desc[id]
	}
	return "filtered from " + f.Inputs()[0].Name
}

// compat checks that members can run as one pass: after equating the input
// spaces of the Map2/Map3 members, every member's iteration space climbs,
// through filters that are members, to one root space. It returns the
// Map2/Map3 members whose length checks the kernel relies on.
func (sp *spaces) compat(members []*ir.SOAC) ([]*ir.SOAC, *Refusal) {
	in := map[*ir.SOAC]bool{}
	for _, m := range members {
		in[m] = true
	}
	var uf unionFind // replay.go's
	find := func(s spaceID) spaceID { return spaceID(uf.find(int(s))) }
	var asserts []*ir.SOAC
	for _, m := range members {
		ids, r := sp.zipCheck(m, in)
		if r != nil {
			return nil, r
		}
		eq := false
		for _, id := range ids[min(1, len(ids)):] {
			if a, b := find(ids[0]), find(id); a != b {
				uf.union(int(a), int(b))
				eq = true
			} else if id != ids[0] {
				eq = true
			}
		}
		if eq {
			asserts = append(asserts, m)
		}
	}
	root := func(m *ir.SOAC) spaceID {
		s := sp.iterOf(m)
		for {
			f, ok := sp.trans[s]
			if !ok || !in[f] {
				break
			}
			s = sp.up[s]
		}
		return find(s)
	}
	var first *ir.SOAC
	var r0 spaceID
	for _, m := range members {
		r := root(m)
		if first == nil {
			first, r0 = m, r
			continue
		}
		if r != r0 {
			rule := RefSizeUnknown
			if sp.isAncestor(r0, r) || sp.isAncestor(r, r0) {
				rule = RefSizeMismatch
			}
			return nil, &Refusal{Rule: rule, Pos: m.Pos(), Consumer: m,
				Reason: fmt.Sprintf("%s iterates over %s and %s over %s, which are not known to be equal", sp.p.soac(first), sp.desc[sp.iterOf(first)], sp.p.soac(m), sp.desc[sp.iterOf(m)])}
		}
	}
	return asserts, nil
}
