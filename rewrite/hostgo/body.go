package hostgo

// This file generates the statements of a spec's body (and of the
// bodies of the function literals it inlines): the spec's own statements
// are copied (as source text, with the package references qualified and
// every SOAC call, hoisted subexpression and closure replaced), simple
// statements here and compound ones in compound.go, and each kernel is
// emitted at the statement the plan places it at (kernel.go). The
// function around the body, its signature and its guard, is
// File.Function's (func.go).

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// retCtx rewrites the returns of an inlined function literal: the result
// is assigned to target and control jumps to label.
type retCtx struct {
	lit    *ast.FuncLit
	target *jen.Statement // nil discards the result
	named  []string       // the literal's named results, renamed
	label  string
	last   ast.Stmt // the literal's last top-level statement: a return there needs no jump
	jumped bool
	// round is the literal's floating-point result type, converted to
	// explicitly in every assignment of the result: the Go spec lets a
	// compiler fuse x*y + z into one FMA across statements (arm64 does),
	// and the spec's call boundary rounds, so the inlined body must too.
	round *jen.Statement
	// parts are the float fields and elements of a struct or array
	// result that are rounded after every assignment of the result, for
	// the same reason (roundedParts).
	parts []floatPart
}

// subst lists what the copy of one Go statement replaces.
type subst struct {
	calls    map[*ast.CallExpr]*jen.Statement
	hoisted  map[ast.Expr]*jen.Statement
	closures map[*ast.FuncLit]*ir.Closure
}

// body generates the body of a function literal. A body may be generated
// more than once (a lambda inlined into a fused loop and passed to the
// runtime in the unfused fallback): the temporaries it evaluates operands,
// function values and inputs into are local to each copy.
func (f *Func) body(list []ast.Stmt, items []ir.Stmt, ret *retCtx) (Stmts, error) {
	op, fn, rb := clone(f.opText), clone(f.funText), clone(f.rebind)
	defer func() { f.opText, f.funText, f.rebind = op, fn, rb }()
	return f.stmts(list, items, ret)
}

func clone[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// stmts generates a statement list whose IR statements are items.
func (f *Func) stmts(list []ast.Stmt, items []ir.Stmt, ret *retCtx) (Stmts, error) {
	var c Stmts
	i := 0
	for _, s := range list {
		j := i
		for j < len(items) && s.Pos() <= items[j].Pos() && items[j].Pos() < s.End() {
			j++
		}
		if err := f.stmt(&c, s, items[i:j], ret, ""); err != nil {
			return nil, err
		}
		i = j
	}
	if i != len(items) {
		return nil, fmt.Errorf("internal error: IR statement at %s not matched to the source", f.fset.Position(items[i].Pos()))
	}
	return c, nil
}

// stmt generates one Go statement s whose IR statements are items; label
// is the label to put on the statement itself.
func (f *Func) stmt(c *Stmts, s ast.Stmt, items []ir.Stmt, ret *retCtx, label string) error {
	lab := func() {
		if label != "" {
			c.Add(labelStmt(label))
		}
	}
	switch s := s.(type) {
	case *ast.BlockStmt:
		lab()
		inner, err := f.stmts(s.List, items, ret)
		if err != nil {
			return err
		}
		c.Add(Block(inner))
		return nil
	case *ast.LabeledStmt:
		return f.stmt(c, s.Stmt, items, ret, s.Label.Name)
	case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.ForStmt, *ast.RangeStmt:
		return f.compound(c, s, items, ret, label)
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if ok && gd.Tok == token.VAR && len(items) > 0 {
			// The IR has the specs' statements in order; a spec whose
			// names are not all SOAC results ends with a Plain of the
			// whole declaration.
			j := 0
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				var its []ir.Stmt
				bound := map[types.Object]bool{}
				for j < len(items) && spec.Pos() <= itemPos(items[j]) && itemPos(items[j]) < spec.End() && !isFinal(items[j], s) {
					if soac, ok := items[j].(*ir.SOAC); ok && soac.Out != nil && soac.Out.Obj != nil {
						bound[soac.Out.Obj] = true
					}
					its = append(its, items[j])
					j++
				}
				all := len(vs.Values) > 0
				for _, id := range vs.Names {
					if !bound[f.info.Defs[id]] {
						all = false
					}
				}
				if !all && j < len(items) && isFinal(items[j], s) {
					its = append(its, items[j])
					j++
				}
				if err := f.simple(c, s, vs, its, ret, vs.Names); err != nil {
					return err
				}
				// A variable declared without a value that the generated
				// code may never read (unreadInCode) is marked used so
				// that it compiles.
				if len(vs.Values) == 0 {
					for _, id := range vs.Names {
						if id.Name != "_" && f.unreadInCode(f.info.Defs[id]) {
							c.Add(AssignTo("_", jen.Id(f.localName(id))))
						}
					}
				}
			}
			return nil
		}
	}
	lab()
	var idents []*ast.Ident
	if as, ok := s.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				idents = append(idents, id)
			}
		}
	}
	if err := f.simple(c, s, s, items, ret, idents); err != nil {
		return err
	}
	// A variable this statement declares as it is written (x := y) that
	// the generated code may never read (unreadInCode) is marked used so
	// that it compiles.
	// (A statement with SOAC calls in it has its declarations handled by
	// simple and unbind.)
	plain := true
	for _, it := range items {
		if _, ok := it.(*ir.SOAC); ok {
			plain = false
		}
	}
	if plain {
		for _, id := range idents {
			if id.Name != "_" && f.unreadInCode(f.info.Defs[id]) {
				c.Add(AssignTo("_", jen.Id(f.localName(id))))
			}
		}
	}
	return nil
}

// unreadInCode reports whether the generated code may never read the Go
// variable obj, which Go rejects as "declared and not used": some SOAC
// result that fusion keeps internal (never materialised) was an
// assignment to it, or every read of it is one fusion replaced
// (readByName).
func (f *Func) unreadInCode(obj types.Object) bool {
	for v := range f.internal {
		if v.Obj != nil && v.Obj == obj {
			return true
		}
	}
	return !f.readByName(obj)
}

// itemPos is the position of the source an IR statement comes from.
func itemPos(it ir.Stmt) token.Pos {
	if p, ok := it.(*ir.Plain); ok && p.Hoisted != nil {
		return p.Hoisted.Pos()
	}
	return it.Pos()
}

// isFinal reports whether it is the Plain that evaluates the rest of s.
func isFinal(it ir.Stmt, s ast.Stmt) bool {
	p, ok := it.(*ir.Plain)
	return ok && p.Node == s && p.Hoisted == nil
}

// simple generates a simple statement (or one var spec, node) from its IR
// items. When no Plain evaluates the rest of the statement, the SOAC
// statements are the whole assignment: the variables it declares (idents)
// are declared here and the kernels assign them.
func (f *Func) simple(c *Stmts, s ast.Stmt, node ast.Node, items []ir.Stmt, ret *retCtx, idents []*ast.Ident) error {
	if len(items) == 0 {
		if r, ok := s.(*ast.ReturnStmt); ok && ret != nil {
			f.ret(c, r, nil, ret)
			return nil
		}
		c.Add(f.sub(node, nil))
		return nil
	}
	final := false
	for _, it := range items {
		if p, ok := it.(*ir.Plain); ok && p.Hoisted == nil {
			final = true
		}
	}
	if !final {
		for _, id := range idents {
			obj := f.info.Defs[id]
			if obj == nil || id.Name == "_" {
				continue
			}
			// A value of the variable that a kernel keeps internal is
			// read nowhere in the generated code: where that was its only
			// read, the declaration alone would not compile ("declared
			// and not used"), so it is marked used.
			need, internal := false, false
			for _, v := range f.fn.Vars {
				if v.Obj != obj {
					continue
				}
				if f.internal[v] {
					internal = true
					continue
				}
				need = true
			}
			if !need {
				continue
			}
			c.Add(VarDecl(f.localName(id), f.Type(obj.Type()), nil))
			if internal || !f.readByName(obj) {
				c.Add(AssignTo("_", jen.Id(f.localName(id))))
			}
		}
	}
	var after Stmts
	if final {
		var restore func()
		after, restore = f.unbind(c, s, items)
		defer restore()
	}
	sb := f.newSubst(items)
	saved := f.cur
	f.cur = sb
	defer func() { f.cur = saved }()
	defer func() { c.Add(after...) }()
	for _, it := range items {
		switch it := it.(type) {
		case *ir.Plain:
			if it.Hoisted != nil {
				f.hoist(c, it, sb)
				continue
			}
			if r, ok := s.(*ast.ReturnStmt); ok && ret != nil {
				f.ret(c, r, sb, ret)
				continue
			}
			if dn, ok := node.(*ast.ValueSpec); ok {
				c.Add(jen.Var().Add(f.sub(dn, sb)))
				continue
			}
			c.Add(f.sub(s, sb))
		case *ir.SOAC:
			if err := f.soacStmt(c, it); err != nil {
				return err
			}
			if !final {
				f.assignLater(c, it)
			}
		case *ir.Closure:
		default:
			return fmt.Errorf("internal error: unexpected %T in a simple statement at %s", it, f.fset.Position(it.Pos()))
		}
	}
	return nil
}

// unbind handles the SOAC calls of a statement with more to evaluate (a
// final Plain) that the IR binds directly to a variable the statement
// assigns ("i, s := 0, soac.Reduce(...)"): written to the variable where
// its kernel runs, the result would precede the statement's declaration
// of it, or its other operands' reads of its old value. A result whose
// kernel runs here is computed into a temporary, which the statement
// then assigns; one whose kernel runs later is assigned there, and a
// statement declaring the variable gives it its zero value meanwhile
// (an assignment leaves it as it is). unbind emits the temporaries'
// declarations and returns what follows the statement, and the function
// that gives the variables their names back.
func (f *Func) unbind(c *Stmts, s ast.Stmt, items []ir.Stmt) (after Stmts, restore func()) {
	declares := false
	switch s := s.(type) {
	case *ast.AssignStmt:
		declares = s.Tok == token.DEFINE
	case *ast.DeclStmt:
		declares = true
	}
	here := map[ir.Stmt]bool{}
	for _, it := range items {
		here[it] = true
	}
	type name struct {
		v   *ir.Var
		old string
		had bool
	}
	var renamed []name
	for _, it := range items {
		soac, ok := it.(*ir.SOAC)
		if !ok || soac.Out == nil || soac.Out.Obj == nil {
			continue
		}
		v := soac.Out
		ks := f.kOf[soac]
		runsHere := len(ks) > 0
		for _, k := range ks {
			runsHere = runsHere && here[k.At]
		}
		if _, ok := f.later[v]; ok && !runsHere {
			f.zeroed[soac.Source()] = Id(f.Name(v)) // computed by its kernel already
			continue
		}
		if !runsHere {
			if declares {
				f.zeroed[soac.Source()] = jen.Op("*").New(f.Type(v.Type))
				if f.internal[v] {
					after.Add(AssignTo("_", Id(f.Name(v))))
				}
			}
			continue
		}
		old, had := f.names[v]
		renamed = append(renamed, name{v, old, had})
		t := f.Fresh("t")
		c.Add(VarDecl(t, f.Type(v.Type), nil))
		f.names[v] = t
	}
	return after, func() {
		for _, r := range renamed {
			if r.had {
				f.names[r.v] = r.old
			} else {
				delete(f.names, r.v)
			}
		}
	}
}
