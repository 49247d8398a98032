package purity

import (
	"go/ast"
	"go/token"
	"go/types"
)

// This file is computeFreshness's pass over the package's files
// (fresh.go): it records where every local variable is declared, which
// variables and function results are candidates for freshness, every
// value given to a candidate, the returns of the candidate functions,
// and the variables that are reassigned or whose address is taken.

// freshScan is the state of the pass.
type freshScan struct {
	f *freshness
	// assigns are the values given to the variables, in source order.
	assigns []assignment
	// funcs are the candidate functions, by declaration; order lists them
	// in source order.
	funcs map[*ast.FuncDecl]*fnReturns
	order []*fnReturns
	// stack holds the functions (FuncDecl or FuncLit) enclosing the node
	// visited, innermost last.
	stack []ast.Node
	// opaque holds true for the variables whose address is taken: they
	// are never fresh.
	opaque map[*types.Var]bool
}

// defVar returns the variable that id declares, if any, and records the
// innermost function enclosing it as its declaring function.
func (sc *freshScan) defVar(id *ast.Ident) *types.Var {
	v, _ := sc.f.info.Defs[id].(*types.Var)
	if v != nil && len(sc.stack) > 0 {
		sc.f.encl[v] = sc.stack[len(sc.stack)-1]
	}
	return v
}

// useVar returns the variable that e, an identifier, refers to, or nil.
func (sc *freshScan) useVar(e ast.Expr) *types.Var {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		v, _ := sc.f.info.Uses[id].(*types.Var)
		return v
	}
	return nil
}

// declareFields declares the variables of a receiver, parameter or result
// list; results (candidate) start fresh, as their zero value.
func (sc *freshScan) declareFields(fl *ast.FieldList, candidate bool) {
	if fl == nil {
		return
	}
	for _, field := range fl.List {
		for _, id := range field.Names {
			if v := sc.defVar(id); v != nil && candidate {
				sc.f.fresh[v] = true // a result starts as its zero value
				sc.assigns = append(sc.assigns, assignment{v, nil, -1})
				sc.opaque[v] = false
			}
		}
	}
}

// visit is the ast.Inspect callback of the pass; it enters functions
// itself, to keep stack.
func (sc *freshScan) visit(n ast.Node) bool {
	info, f := sc.f.info, sc.f
	switch n := n.(type) {
	case *ast.FuncDecl:
		sc.funcDecl(n)
		return false
	case *ast.FuncLit:
		sc.stack = append(sc.stack, n)
		sc.declareFields(n.Type.Params, false)
		sc.declareFields(n.Type.Results, true)
		ast.Inspect(n.Body, sc.visit)
		sc.stack = sc.stack[:len(sc.stack)-1]
		return false
	case *ast.ReturnStmt:
		if len(sc.stack) > 0 {
			if d, ok := sc.stack[len(sc.stack)-1].(*ast.FuncDecl); ok && sc.funcs[d] != nil {
				sc.funcs[d].returns = append(sc.funcs[d].returns, n)
			}
		}
	case *ast.AssignStmt:
		sc.assign(n)
	case *ast.ValueSpec:
		sc.valueSpec(n)
	case *ast.RangeStmt:
		sc.rangeVars(n)
	case *ast.CaseClause:
		// The implicit variable of a type switch clause is local but
		// never a candidate: its value comes from the switch's operand.
		if v, ok := info.Implicits[n].(*types.Var); ok && len(sc.stack) > 0 {
			f.encl[v] = sc.stack[len(sc.stack)-1]
		}
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			sc.addressTaken(n.X)
		}
	case *ast.SelectorExpr:
		// x.M() with a pointer-receiver method takes &x implicitly.
		if sel := info.Selections[n]; sel != nil && sel.Kind() == types.MethodVal {
			if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
				if _, ptrRecv := sig.Recv().Type().Underlying().(*types.Pointer); ptrRecv && !isPointer(info.TypeOf(n.X)) {
					sc.addressTaken(n.X)
				}
			}
		}
	}
	return true
}

// funcDecl walks a function declaration: when it has a body and results,
// it is a candidate whose results that can refer to memory start fresh.
func (sc *freshScan) funcDecl(n *ast.FuncDecl) {
	f := sc.f
	if fn, ok := f.info.Defs[n.Name].(*types.Func); ok && n.Body != nil {
		if res := fn.Type().(*types.Signature).Results(); res.Len() > 0 {
			fr := &fnReturns{fn: fn, decl: n}
			for i := 0; i < res.Len(); i++ {
				if r := res.At(i); r.Name() != "" {
					fr.named = append(fr.named, r)
				}
			}
			sc.funcs[n] = fr
			f.results[fn] = make([]bool, res.Len())
			for i := range f.results[fn] {
				// Only results that can refer to memory are
				// candidates: a number is no memory to write.
				f.results[fn][i] = isReference(res.At(i).Type())
			}
			sc.order = append(sc.order, fr)
		}
	}
	sc.stack = append(sc.stack, n)
	sc.declareFields(n.Recv, false)
	sc.declareFields(n.Type.Params, false)
	sc.declareFields(n.Type.Results, true)
	if n.Body != nil {
		ast.Inspect(n.Body, sc.visit)
	}
	sc.stack = sc.stack[:len(sc.stack)-1]
}

// assign records the values an assignment gives the variables it
// defines or assigns: a variable it defines is a candidate, one it
// assigns is reassigned (unless given soac.Opaque of itself), and x op= y
// gives no fresh value.
func (sc *freshScan) assign(n *ast.AssignStmt) {
	f := sc.f
	for i, lhs := range n.Lhs {
		id, ok := ast.Unparen(lhs).(*ast.Ident)
		if !ok {
			continue
		}
		var v *types.Var
		if n.Tok == token.DEFINE {
			if v = sc.defVar(id); v != nil {
				f.fresh[v] = true
			}
		}
		if v == nil {
			if v = sc.useVar(id); v == nil {
				continue
			}
			if len(n.Lhs) == len(n.Rhs) && n.Tok == token.ASSIGN && isOpaqueOf(f.info, n.Rhs[i], v) {
				continue // the same function (runtime/soac's combinators)
			}
			f.reassigned[v] = true
		}
		var rhs ast.Expr
		tuple := -1
		if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) {
			rhs = n.Rhs[i]
		} else if len(n.Rhs) == 1 && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) {
			if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
				rhs, tuple = call, i
			}
		}
		if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
			rhs = nil // x op= y
		}
		sc.assigns = append(sc.assigns, assignment{v, rhs, tuple})
	}
}

// valueSpec records the initial values of the local variables a var
// declaration declares, each a candidate; without values, the zero value.
func (sc *freshScan) valueSpec(n *ast.ValueSpec) {
	for i, id := range n.Names {
		v := sc.defVar(id)
		if v == nil || len(sc.stack) == 0 {
			continue
		}
		sc.f.fresh[v] = true
		var rhs ast.Expr
		tuple := -1
		switch {
		case len(n.Values) == 0:
			// The zero value: nil or a value, allocated here.
			sc.assigns = append(sc.assigns, assignment{v, ast.NewIdent("nil"), -1})
			continue
		case len(n.Values) == len(n.Names):
			rhs = n.Values[i]
		case len(n.Values) == 1:
			if call, ok := ast.Unparen(n.Values[0]).(*ast.CallExpr); ok {
				rhs, tuple = call, i
			}
		}
		sc.assigns = append(sc.assigns, assignment{v, rhs, tuple})
	}
}

// rangeVars records that the key and value variables of a range
// statement are given values that are not expressions of the function.
func (sc *freshScan) rangeVars(n *ast.RangeStmt) {
	for _, e := range []ast.Expr{n.Key, n.Value} {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok || e == nil {
			continue
		}
		v := sc.defVar(id)
		if v == nil {
			v = sc.useVar(id)
			if v != nil {
				sc.f.reassigned[v] = true
			}
		}
		if v != nil {
			sc.assigns = append(sc.assigns, assignment{v, nil, -1})
		}
	}
}

// addressTaken records that the address of the variable at the root of e
// is taken: it is reassigned, and never fresh.
func (sc *freshScan) addressTaken(e ast.Expr) {
	if v := sc.f.valueRoot(e); v != nil {
		sc.opaque[v] = true
		sc.f.reassigned[v] = true
	}
}
