package vector

// This file translates a lambda's body into vector code: its parameters
// bound to lane values, its := definitions to locals, its returns (and
// returns under an if) to the value of the lambda, every expression to
// archsimd calls by the rules of ops.go. Constants and captured
// variables are broadcast once before the loop.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
)

// archsimdPath is the import path of Go 1.26's vector package.
const archsimdPath = "simd/archsimd"

// val is a value on lanes: a vector of lane l, or a mask of l's width;
// refs are the definitions its code reads.
type val struct {
	c    *jen.Statement
	l    lane
	mask bool
	refs []*binding
	// bits: the value is the result of a bit operation on vectors (And,
	// Or, Xor, Not), which a following one may be compiled together with
	// (chainedBits).
	bits bool
}

// from returns the definitions the values read.
func from(vs ...val) []*binding {
	var refs []*binding
	for _, v := range vs {
		refs = append(refs, v.refs...)
	}
	return refs
}

// binding is one statement of a form: a definition, kept only when
// something kept reads it, or a root (a store, a fold), always kept. An
// unread definition would not compile (a lambda's unused parameter, a
// map nothing stores or reads).
type binding struct {
	stmt jen.Code
	deps []*binding
	root bool
	live bool
}

// mark keeps b and every definition it reads.
func (b *binding) mark() {
	if b.live {
		return
	}
	b.live = true
	for _, d := range b.deps {
		d.mark()
	}
}

// keep returns the statements of list that are kept.
func keep(list []*binding) []jen.Code {
	var c []jen.Code
	for _, b := range list {
		if b.live {
			c = append(c, b.stmt)
		}
	}
	return c
}

// form is one vector form being written: its width, the statements
// before its loop and in it, and what its instructions need.
type form struct {
	k     *Kernel
	width int
	// pre runs once before the loop (broadcasts); body once per vector.
	pre, body []*binding
	// consts holds each broadcast constant by its type and value.
	consts map[string]val
	// avx512 reports that the form uses an instruction AVX2 lacks;
	// why512 names the first operation that needs it, at 256 bits.
	avx512 bool
	why512 string
	// miscompiled says why the compiler cannot build this width's form
	// (chainedBits), "" when it can.
	miscompiled string
	// names counts the locals given out.
	names int
	// combine are the folds' accumulators, combined after the loop.
	combine []foldCombine
	// loads are the loads of the kernel's inputs.
	loads map[*ir.Var]*binding
	// keptSpaces are the masks of the spaces whose kept elements the
	// form stores (at their counts).
	keptSpaces map[int]val
}

// chainedBits records a bit operation on vectors whose operands are
// xs: where one of them is itself a bit operation's result, Go 1.26.8
// fuses the two into a VPTERNLOGQ at 512 bits and, with an operand in
// memory, emits an invalid instruction. Such a kernel has no 512-bit
// form (its 256-bit form has no ternary logic instruction).
func (fm *form) chainedBits(what string, xs ...val) {
	if fm.width != 512 || fm.miscompiled != "" {
		return
	}
	for _, x := range xs {
		if x.bits {
			fm.miscompiled = what + " of the result of another bit operation (Go 1.26.8 compiles such a chain at 512 bits to an invalid instruction)"
			return
		}
	}
}

// hasRoot reports whether the form stores or folds anything.
func (fm *form) hasRoot() bool {
	for _, b := range fm.body {
		if b.root {
			return true
		}
	}
	return false
}

// fresh returns a local name of the form, unique in its function.
func (fm *form) fresh(base string) string {
	fm.names++
	return fmt.Sprintf("%s%d", base, fm.names)
}

// simd returns a reference to archsimd's name.
func simd(name string) *jen.Statement { return jen.Qual(archsimdPath, name) }

// use records that rule r runs on lane l, and returns why it cannot
// ("" when it can).
func (fm *form) use(r rule, l lane, what string) string {
	if !r.applies(l.class) {
		return fmt.Sprintf("%s on %s has no exact vector form", what, l.t)
	}
	if fm.width == 512 || r.needsAVX512(l) {
		fm.avx512 = true
		if fm.width == 256 && fm.why512 == "" {
			fm.why512 = fmt.Sprintf("%s on %s", what, l.t)
		}
	}
	return ""
}

// broadcast returns the name of a vector holding code (a scalar of lane
// l's type) in every lane, hoisted before the loop; key, when not "",
// shares one broadcast between equal constants.
func (fm *form) broadcast(l lane, code jen.Code, key string) val {
	if key != "" {
		key = l.vec(fm.width) + " " + key
		if v, ok := fm.consts[key]; ok {
			return v
		}
	}
	n := fm.fresh("b")
	b := fm.define(&fm.pre, n, simd("Broadcast"+l.vec(fm.width)).Call(code), nil)
	v := val{c: jen.Id(n), l: l, refs: []*binding{b}}
	if key != "" {
		fm.consts[key] = v
	}
	return v
}

// define adds the definition name := code, which reads deps, to list.
func (fm *form) define(list *[]*binding, name string, code jen.Code, deps []*binding) *binding {
	b := &binding{stmt: hostgo.Define(name, code), deps: deps}
	*list = append(*list, b)
	return b
}

// root adds statement st, which reads deps and is always kept, to list.
func (fm *form) root(list *[]*binding, st jen.Code, deps []*binding) {
	*list = append(*list, &binding{stmt: st, deps: deps, root: true})
}

// bind assigns v to a fresh local, so that reading it twice computes it
// once.
func (fm *form) bind(v val) val {
	n := fm.fresh("v")
	b := fm.define(&fm.body, n, v.c, v.refs)
	return val{c: jen.Id(n), l: v.l, mask: v.mask, refs: []*binding{b}, bits: v.bits}
}

// scope is a lambda being translated: its locals and parameters, by
// object.
type scope struct {
	fm   *form
	l    *ir.Lambda
	vars map[types.Object]val
}

// apply translates lambda l applied to args (one per parameter; nil for
// an unread one) into its result value.
func (fm *form) apply(l *ir.Lambda, args []*val) (val, string) {
	k := fm.k
	if l.Lit == nil {
		return val{}, fmt.Sprintf("its function at %s is not a literal", k.pos(l.Expr.Pos()))
	}
	if !l.Purity.Pure {
		return val{}, fmt.Sprintf("its function at %s has effects", k.pos(l.Expr.Pos()))
	}
	if l.Sig.Results().Len() != 1 {
		return val{}, fmt.Sprintf("its function at %s returns %d values", k.pos(l.Expr.Pos()), l.Sig.Results().Len())
	}
	sc := &scope{fm: fm, l: l, vars: map[types.Object]val{}}
	i := 0
	for _, field := range l.Lit.Type.Params.List {
		names := field.Names
		if len(names) == 0 {
			i++
			continue
		}
		for _, id := range names {
			if i < len(args) && args[i] != nil {
				if obj := k.info.Defs[id]; obj != nil {
					sc.vars[obj] = *args[i]
				}
			}
			i++
		}
	}
	if l.Lit.Type.Results != nil {
		for _, field := range l.Lit.Type.Results.List {
			if len(field.Names) > 0 {
				return val{}, fmt.Sprintf("its function at %s has named results", k.pos(l.Expr.Pos()))
			}
		}
	}
	v, why := sc.block(l.Lit.Body.List)
	if why != "" {
		return val{}, why
	}
	return v, ""
}

// block translates statements that end in a return into the value they
// return: := definitions, and if statements whose body returns (both
// arms computed, the result selected lane by lane: they are pure and
// cannot panic).
func (sc *scope) block(list []ast.Stmt) (val, string) {
	k := sc.fm.k
	for i, st := range list {
		switch st := st.(type) {
		case *ast.ReturnStmt:
			if len(st.Results) != 1 {
				return val{}, fmt.Sprintf("%s returns no single value", k.pos(st.Pos()))
			}
			return sc.expr(st.Results[0])
		case *ast.AssignStmt:
			if st.Tok != token.DEFINE || len(st.Lhs) != len(st.Rhs) {
				return val{}, fmt.Sprintf("%s assigns a variable (only := definitions are translated)", k.pos(st.Pos()))
			}
			for j, lhs := range st.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok {
					return val{}, fmt.Sprintf("%s defines no identifier", k.pos(st.Pos()))
				}
				v, why := sc.expr(st.Rhs[j])
				if why != "" {
					return val{}, why
				}
				if obj := k.info.Defs[id]; obj != nil {
					sc.vars[obj] = sc.fm.bind(v)
				}
			}
		case *ast.IfStmt:
			if st.Init != nil {
				return val{}, fmt.Sprintf("%s: an if with an init statement", k.pos(st.Pos()))
			}
			cond, why := sc.expr(st.Cond)
			if why != "" {
				return val{}, why
			}
			if !cond.mask {
				return val{}, fmt.Sprintf("%s: its condition is not a comparison", k.pos(st.Cond.Pos()))
			}
			cond = sc.fm.bind(cond)
			then, why := sc.branch(st.Body.List)
			if why != "" {
				return val{}, why
			}
			var rest val
			switch e := st.Else.(type) {
			case nil:
				rest, why = sc.branch(list[i+1:])
			case *ast.BlockStmt:
				rest, why = sc.branch(e.List)
			default:
				rest, why = sc.branch([]ast.Stmt{e})
			}
			if why != "" {
				return val{}, why
			}
			return sc.fm.merge(then, rest, cond)
		default:
			return val{}, fmt.Sprintf("%s: a statement the vector translator does not translate", k.pos(st.Pos()))
		}
	}
	return val{}, "a lambda body that does not end in a return"
}

// branch translates an arm of an if: its definitions are its own.
func (sc *scope) branch(list []ast.Stmt) (val, string) {
	inner := &scope{fm: sc.fm, l: sc.l, vars: map[types.Object]val{}}
	for o, v := range sc.vars {
		inner.vars[o] = v
	}
	return inner.block(list)
}

// merge selects, lane by lane, then where cond holds, else rest.
func (fm *form) merge(then, rest, cond val) (val, string) {
	if then.mask || rest.mask || then.l.vec(fm.width) != rest.l.vec(fm.width) {
		return val{}, "an if whose arms return values of different types"
	}
	return val{c: jen.Add(then.c).Dot("Merge").Call(rest.c, cond.c), l: then.l, refs: from(then, rest, cond)}, ""
}

// expr translates expression e.
func (sc *scope) expr(e ast.Expr) (val, string) {
	k := sc.fm.k
	tv := k.info.Types[e]
	if tv.Value != nil {
		return sc.constant(e, tv)
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return sc.expr(e.X)
	case *ast.Ident:
		obj := k.info.Uses[e]
		if v, ok := sc.vars[obj]; ok {
			return v, ""
		}
		if _, isVar := obj.(*types.Var); isVar {
			return sc.capture(e, obj)
		}
		return val{}, fmt.Sprintf("%s: %s is not a value the translator knows", k.pos(e.Pos()), e.Name)
	case *ast.BinaryExpr:
		return sc.binary(e)
	case *ast.UnaryExpr:
		return sc.unary(e)
	case *ast.CallExpr:
		return sc.call(e)
	}
	return val{}, fmt.Sprintf("%s: %s has no vector form", k.pos(e.Pos()), exprKind(e))
}

// exprKind names the kind of expression e in a refusal.
func exprKind(e ast.Expr) string {
	switch e.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return "an index expression"
	case *ast.SelectorExpr:
		return "a selector"
	case *ast.CompositeLit:
		return "a composite literal"
	case *ast.FuncLit:
		return "a function literal"
	case *ast.StarExpr:
		return "a dereference"
	}
	return fmt.Sprintf("an expression (%T)", e)
}

// constant broadcasts constant expression e of type and value tv.
func (sc *scope) constant(e ast.Expr, tv types.TypeAndValue) (val, string) {
	k := sc.fm.k
	l, why := laneOf(tv.Type)
	if why != "" {
		return val{}, fmt.Sprintf("%s: %s", k.pos(e.Pos()), why)
	}
	var lit jen.Code
	if l.class == floating {
		f, _ := constant.Float64Val(constant.ToFloat(tv.Value))
		if l.bits == 32 {
			f32, _ := constant.Float32Val(constant.ToFloat(tv.Value))
			lit = jen.Lit(f32)
		} else {
			lit = jen.Lit(f)
		}
	} else {
		lit = jen.Id(constant.ToInt(tv.Value).ExactString())
	}
	code := jen.Id(basicName(l)).Call(lit)
	return sc.fm.broadcast(l, code, tv.Value.ExactString()), ""
}

// basicName is the Go name of the basic type of lane l's bits.
func basicName(l lane) string {
	switch l.class {
	case floating:
		return fmt.Sprintf("float%d", l.bits)
	case signed:
		return fmt.Sprintf("int%d", l.bits)
	}
	return fmt.Sprintf("uint%d", l.bits)
}

// capture broadcasts a variable of the enclosing function that the
// lambda reads: its value where the kernel runs is passed to the vector
// function.
func (sc *scope) capture(id *ast.Ident, obj types.Object) (val, string) {
	k := sc.fm.k
	l, why := laneOf(obj.Type())
	if why != "" {
		return val{}, fmt.Sprintf("%s: captured %s: %s", k.pos(id.Pos()), id.Name, why)
	}
	name, why := k.capture(sc.l, id, obj)
	if why != "" {
		return val{}, why
	}
	return sc.fm.broadcast(l, jen.Id(basicName(l)).Call(jen.Id(name)), "capture "+name), ""
}

// usesObj reports whether l's body refers to obj.
func usesObj(l *ir.Lambda, obj types.Object, info *types.Info) bool {
	found := false
	ast.Inspect(l.Lit.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}
