package build

import (
	"go/ast"
	"go/token"
	"go/types"
)

// scan is what the builder learns about a function before building it: a
// syntactic pass over the whole declaration, function literals included.
type scan struct {
	// defs counts the definitions of each local variable: parameters,
	// declarations, assignments, increments, range variables. A variable
	// whose address is taken counts as defined many times.
	defs map[types.Object]int
	// lit is the function literal a variable was defined with, when its
	// only definition is `v := func...` or `var v = func...`.
	lit map[types.Object]*ast.FuncLit
	// escaped holds the variables whose address is taken (&x, x[:] of an
	// array, a pointer-receiver method of an addressable x), that are
	// assigned inside a function literal, or that a function literal other
	// than a SOAC's lambda captures and that are assigned more than once:
	// they may change, or be read, whenever code the builder cannot see
	// runs.
	escaped map[types.Object]bool
	// globals are the package-level variables the function uses, in order
	// of first use.
	globals []*types.Var
	// gotoPos is the position of the first goto statement of the function
	// body outside function literals, or NoPos.
	gotoPos token.Pos
	// litGoto maps each function literal whose own body has a goto to the
	// position of its first one (labels are scoped per function body).
	litGoto map[*ast.FuncLit]token.Pos
	// callees are the identifiers naming the callee of a combinator call.
	callees map[*ast.Ident]bool
}

// manyDefs is the definition count given to a variable whose address is
// taken: any number of writes may happen through the pointer.
const manyDefs = 1 << 20

func scanFunc(info *types.Info, fd *ast.FuncDecl) *scan {
	sc := &scan{
		defs:    make(map[types.Object]int),
		lit:     make(map[types.Object]*ast.FuncLit),
		escaped: make(map[types.Object]bool),
		callees: make(map[*ast.Ident]bool),
		litGoto: make(map[*ast.FuncLit]token.Pos),
	}
	seenGlobal := make(map[*types.Var]bool)
	var lits []*ast.FuncLit // enclosing function literals
	lambdaLits := make(map[*ast.FuncLit]bool)
	var closures []*ast.FuncLit
	// def records a definition of the variable named by id, made inside the
	// innermost literal of lits.
	def := func(id *ast.Ident) {
		obj := info.ObjectOf(id)
		if obj == nil || id.Name == "_" {
			return
		}
		sc.defs[obj]++
		if len(lits) > 0 && !within(obj.Pos(), lits[len(lits)-1]) && !isPackageLevel(obj) {
			sc.escaped[obj] = true
		}
	}
	addrOf := func(e ast.Expr) {
		if id := valueRoot(info, e); id != nil {
			if obj := info.ObjectOf(id); obj != nil {
				sc.defs[obj] += manyDefs
				sc.escaped[obj] = true
			}
		}
	}
	// lhs records the definitions made by assigning to e.
	lhs := func(e ast.Expr) {
		if id := valueRoot(info, e); id != nil {
			def(id)
		}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			if !lambdaLits[n] {
				closures = append(closures, n)
			}
			lits = append(lits, n)
			ast.Inspect(n.Type, visit)
			ast.Inspect(n.Body, visit)
			lits = lits[:len(lits)-1]
			return false
		case *ast.Field:
			for _, id := range n.Names {
				if _, ok := info.Defs[id].(*types.Var); ok {
					sc.defs[info.Defs[id]]++
				}
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				lhs(l)
			}
			if n.Tok == token.DEFINE || n.Tok == token.ASSIGN {
				if len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						if lit, ok := ast.Unparen(n.Rhs[i]).(*ast.FuncLit); ok {
							if id, ok := l.(*ast.Ident); ok && info.ObjectOf(id) != nil {
								sc.lit[info.ObjectOf(id)] = lit
							}
						}
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				def(id)
				if len(n.Values) == len(n.Names) {
					if lit, ok := ast.Unparen(n.Values[i]).(*ast.FuncLit); ok && info.Defs[id] != nil {
						sc.lit[info.Defs[id]] = lit
					}
				}
			}
		case *ast.IncDecStmt:
			lhs(n.X)
		case *ast.RangeStmt:
			if n.Key != nil {
				lhs(n.Key)
			}
			if n.Value != nil {
				lhs(n.Value)
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				addrOf(n.X)
			}
		case *ast.SliceExpr:
			if isArray(info.TypeOf(n.X)) {
				addrOf(n.X)
			}
		case *ast.SelectorExpr:
			if sel := info.Selections[n]; sel != nil && (sel.Kind() == types.MethodVal) {
				if ptrRecv(sel.Obj()) && !isPointer(info.TypeOf(n.X)) {
					addrOf(n.X)
				}
			}
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				if len(lits) > 0 {
					if lit := lits[len(lits)-1]; !sc.litGoto[lit].IsValid() {
						sc.litGoto[lit] = n.Pos()
					}
				} else if !sc.gotoPos.IsValid() {
					sc.gotoPos = n.Pos()
				}
			}
		case *ast.CallExpr:
			if id := calleeIdent(n.Fun); id != nil && combinatorName(info.Uses[id]) != "" {
				sc.callees[id] = true
				for _, a := range n.Args {
					if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
						lambdaLits[lit] = true
					}
				}
			}
		case *ast.Ident:
			if v, ok := info.Uses[n].(*types.Var); ok && isPackageLevel(v) && !seenGlobal[v] {
				seenGlobal[v] = true
				sc.globals = append(sc.globals, v)
			}
		}
		return true
	}
	if fd.Recv != nil {
		ast.Inspect(fd.Recv, visit)
	}
	ast.Inspect(fd.Type, visit)
	ast.Inspect(fd.Body, visit)
	for _, lit := range closures {
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && !isPackageLevel(v) && !within(v.Pos(), lit) && sc.defs[v] > 1 {
					sc.escaped[v] = true
				}
			}
			return true
		})
	}
	for obj, lit := range sc.lit {
		if sc.defs[obj] != 1 || sc.escaped[obj] {
			delete(sc.lit, obj)
			_ = lit
		}
	}
	return sc
}

// valueRoot returns the variable whose own storage e denotes (x, x.f for a
// struct value x, x[i] for an array value x), or nil when e goes through a
// pointer, slice or map, or is not rooted at a variable.
func valueRoot(info *types.Info, e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			if _, ok := info.ObjectOf(x).(*types.Var); ok {
				return x
			}
			return nil
		case *ast.SelectorExpr:
			sel := info.Selections[x]
			if sel == nil || sel.Kind() != types.FieldVal || sel.Indirect() || isPointer(info.TypeOf(x.X)) {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			if !isArray(info.TypeOf(x.X)) {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// within reports whether pos lies inside n.
func within(pos token.Pos, n ast.Node) bool { return n.Pos() <= pos && pos < n.End() }

// isPackageLevel reports whether obj is a package-level variable (of any
// package).
func isPackageLevel(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

func isArray(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Array)
	return ok
}

func isPointer(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// ptrRecv reports whether obj is a method with a pointer receiver.
func ptrRecv(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && isPointer(sig.Recv().Type())
}
