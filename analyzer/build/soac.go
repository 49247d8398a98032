package build

import (
	"go/ast"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// soac builds the SOAC statement of a combinator call, after the
// statements that compute its inputs, and returns its result.
func (c *ectx) soac(call *ast.CallExpr, name string) *ir.Var {
	return c.soacOf(call, call.Args, nil, name)
}

// soacOf is soac of call with arguments args: call's own, or, for a call
// of a closure seen through (seethrough.go), the call site's arguments in
// place of the literal's parameters; site is that call site (ir.SOAC.Site)
// or nil.
func (c *ectx) soacOf(call *ast.CallExpr, args []ast.Expr, site *ast.CallExpr, name string) *ir.Var {
	b := c.b
	s := &ir.SOAC{Call: call, Site: site, Name: name, Parent: b.cur}
	src := s.Source()
	if inst, ok := b.info.Instances[calleeIdent(call.Fun)]; ok && inst.TypeArgs != nil {
		for i := 0; i < inst.TypeArgs.Len(); i++ {
			s.TypeArgs = append(s.TypeArgs, inst.TypeArgs.At(i))
		}
	}
	eff := &s.Eff
	in := func(i int) *ir.Var {
		v := c.input(args[i])
		addUse(eff, v)
		return v
	}
	opnd := func(i int) *ir.Operand { return c.operand(args[i], eff) }
	// Inputs and operands first, in argument order; then the result, so
	// that temporaries of a lambda's nested SOACs are numbered after it;
	// then the lambdas.
	built := make([]any, len(args))
	for i := range args {
		switch argKinds[name][i] {
		case 'a':
			built[i] = in(i)
		case 'o':
			built[i] = opnd(i)
		}
	}
	typ := b.info.TypeOf(call)
	var out *ir.Var
	if obj := c.sh.bind[src]; obj != nil {
		out = b.newVar(obj, obj.Name(), obj.Type(), s, src.Pos())
		c.sh.setBound(obj, out)
	} else {
		out = b.temp(true, typ, s, src.Pos())
	}
	s.Out = out
	s.ID = b.nSOAC
	b.nSOAC++
	var after []merge // variables the lambdas assign
	for i, a := range args {
		if argKinds[name][i] == 'f' {
			l, m := c.lambda(s, a)
			after = append(after, m...)
			built[i] = l
		}
	}
	arr := func(i int) *ir.Var { return built[i].(*ir.Var) }
	op := func(i int) *ir.Operand { return built[i].(*ir.Operand) }
	fn := func(i int) *ir.Lambda { return built[i].(*ir.Lambda) }
	switch name {
	case "Map":
		s.Op = &ir.Screma{Inputs: []*ir.Var{arr(0)}, Map: fn(1)}
	case "Map2":
		s.Op = &ir.Screma{Inputs: []*ir.Var{arr(0), arr(1)}, Map: fn(2)}
	case "Map3":
		s.Op = &ir.Screma{Inputs: []*ir.Var{arr(0), arr(1), arr(2)}, Map: fn(3)}
	case "Reduce":
		s.Op = &ir.Screma{Inputs: []*ir.Var{arr(0)}, Reduce: &ir.Operator{Op: fn(2), Neutral: op(1)}}
	case "Scan":
		s.Op = &ir.Screma{Inputs: []*ir.Var{arr(0)}, Scan: &ir.Operator{Op: fn(2), Neutral: op(1)}}
	case "Filter":
		s.Op = &ir.Filter{Input: arr(0), Pred: fn(1)}
	case "StreamMap":
		s.Op = &ir.Stream{Kind: ir.StreamMap, Input: arr(0), Chunk: fn(1)}
	case "StreamRed":
		s.Op = &ir.Stream{Kind: ir.StreamRed, Input: arr(0), Op: fn(1), Chunk: fn(2)}
	case "Iota":
		s.Op = &ir.Iota{N: op(0)}
	case "Replicate":
		s.Op = &ir.Replicate{N: op(0), Value: op(1)}
	}
	for _, l := range s.Lambdas() {
		for _, v := range l.Free {
			addUse(eff, v)
		}
		if !l.Purity.Pure {
			r, pos := l.Purity.Reason, l.Purity.Pos
			if r == "" {
				r = "the function " + types.ExprString(l.Expr) + " is not pure"
			}
			if !pos.IsValid() {
				pos = l.Expr.Pos()
			}
			setImpure(eff, r, pos)
		}
	}

	eff.Defs = append([]*ir.Var{out}, eff.Defs...)
	b.exprVar[src] = out
	// The runtime allocates results, but elements that are references
	// share whatever the inputs, captures and operands refer to.
	if elemHasRefs(typ) {
		for _, v := range eff.Uses {
			b.join(out, v)
		}
	}
	merged := make(map[types.Object]bool)
	for _, m := range after {
		merged[m.obj] = true
	}
	b.clobber(s, merged)
	b.emit(s)
	b.mergeAfter(s, after)
	return out
}

// argKinds says, for each combinator, what each argument is: 'a' an array
// input, 'o' a scalar operand, 'f' a function.
var argKinds = map[string]string{
	"Map": "af", "Map2": "aaf", "Map3": "aaaf", "Reduce": "aof", "Scan": "aof",
	"Filter": "af", "StreamMap": "af", "StreamRed": "aff", "Iota": "o", "Replicate": "oo",
}

// elemHasRefs reports whether the elements of a SOAC result of type t (or
// t itself, for a scalar result) can hold references.
func elemHasRefs(t types.Type) bool {
	if sl, ok := t.Underlying().(*types.Slice); ok {
		return hasRefs(sl.Elem())
	}
	return hasRefs(t)
}

// input returns the Var holding an array argument: the variable itself, the
// result of a nested SOAC (or of a closure seen through, seethrough.go), or
// a temporary the expression is hoisted into.
func (c *ectx) input(e ast.Expr) *ir.Var {
	b := c.b
	u := ast.Unparen(e)
	if id, ok := u.(*ast.Ident); ok {
		if v := b.lookup(b.info.Uses[id]); v != nil {
			return v
		}
	}
	if call, ok := u.(*ast.CallExpr); ok {
		if name := b.soacName(call); name != "" && c.unsupReason(call, name, "") == "" {
			return c.soac(call, name)
		}
		if inner, args, name := c.seeThrough(call); inner != nil {
			return c.soacOf(inner, args, call, name)
		}
	}
	if v := b.exprVar[u]; v != nil {
		return v
	}
	return c.hoisted(u)
}

// operand builds a scalar operand, hoisting nested SOAC calls; the effects
// of evaluating it are added to eff.
func (c *ectx) operand(e ast.Expr, eff *ir.Effects) *ir.Operand {
	b := c.b
	var oe ir.Effects
	c.sub(&oe, nil).expr(e, "")
	o := &ir.Operand{Expr: e, Uses: oe.Uses}
	mergeEffects(eff, &oe)
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && b.builtin(call) == "len" && len(call.Args) == 1 {
		if _, isSlice := b.info.TypeOf(call.Args[0]).Underlying().(*types.Slice); isSlice {
			a := ast.Unparen(call.Args[0])
			if v := b.exprVar[a]; v != nil {
				o.Len = v
			} else if id, ok := a.(*ast.Ident); ok {
				o.Len = b.lookup(b.info.Uses[id])
			}
		}
	}
	if tv, ok := b.info.Types[e]; ok && tv.Value != nil {
		tv := tv
		o.Const = &tv
	}
	return o
}

// mergeEffects adds src to dst.
func mergeEffects(dst, src *ir.Effects) {
	for _, v := range src.Uses {
		addUse(dst, v)
	}
	for _, v := range src.Writes {
		addWrite(dst, v)
	}
	dst.WritesGlobal = dst.WritesGlobal || src.WritesGlobal
	setImpure(dst, src.Impure, src.ImpurePos)
	dst.Exits = dst.Exits || src.Exits
}
