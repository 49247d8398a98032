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

// scanFunc scans the declaration fd, its receiver, signature and body,
// function literals included.
func scanFunc(info *types.Info, fd *ast.FuncDecl) *scan {
	sc := &scan{
		defs:    make(map[types.Object]int),
		lit:     make(map[types.Object]*ast.FuncLit),
		escaped: make(map[types.Object]bool),
		callees: make(map[*ast.Ident]bool),
		litGoto: make(map[*ast.FuncLit]token.Pos),
	}
	w := &scanner{info: info, sc: sc, seenGlobal: make(map[*types.Var]bool), lambdaLits: make(map[*ast.FuncLit]bool)}
	if fd.Recv != nil {
		ast.Inspect(fd.Recv, w.visit)
	}
	ast.Inspect(fd.Type, w.visit)
	ast.Inspect(fd.Body, w.visit)
	w.escapeCaptured()
	// A variable resolves to its literal only when that literal is its
	// one definition and nothing can change it behind the builder's back.
	for obj := range sc.lit {
		if sc.defs[obj] != 1 || sc.escaped[obj] {
			delete(sc.lit, obj)
		}
	}
	return sc
}

// scanner is the state of scanFunc's pass over a declaration.
type scanner struct {
	info *types.Info
	sc   *scan
	// seenGlobal holds the package-level variables already in sc.globals.
	seenGlobal map[*types.Var]bool
	// lits are the function literals enclosing the node visited,
	// innermost last.
	lits []*ast.FuncLit
	// lambdaLits are the function literals passed to a combinator: its
	// lambdas.
	lambdaLits map[*ast.FuncLit]bool
	// closures are the other function literals, in the order visited.
	closures []*ast.FuncLit
}

// visit is the ast.Inspect callback of the pass; it enters function
// literals itself, to keep lits.
func (w *scanner) visit(n ast.Node) bool {
	info, sc := w.info, w.sc
	switch n := n.(type) {
	case *ast.FuncLit:
		if !w.lambdaLits[n] {
			w.closures = append(w.closures, n)
		}
		w.lits = append(w.lits, n)
		ast.Inspect(n.Type, w.visit)
		ast.Inspect(n.Body, w.visit)
		w.lits = w.lits[:len(w.lits)-1]
		return false
	case *ast.Field:
		for _, id := range n.Names {
			if _, ok := info.Defs[id].(*types.Var); ok {
				sc.defs[info.Defs[id]]++
			}
		}
	case *ast.AssignStmt:
		w.assign(n)
	case *ast.ValueSpec:
		w.valueSpec(n)
	case *ast.IncDecStmt:
		w.lhs(n.X)
	case *ast.RangeStmt:
		if n.Key != nil {
			w.lhs(n.Key)
		}
		if n.Value != nil {
			w.lhs(n.Value)
		}
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			w.addrOf(n.X)
		}
	case *ast.SliceExpr:
		if isArray(info.TypeOf(n.X)) {
			w.addrOf(n.X)
		}
	case *ast.SelectorExpr:
		if sel := info.Selections[n]; sel != nil && (sel.Kind() == types.MethodVal) {
			if ptrRecv(sel.Obj()) && !isPointer(info.TypeOf(n.X)) {
				w.addrOf(n.X)
			}
		}
	case *ast.BranchStmt:
		if n.Tok == token.GOTO {
			w.gotoAt(n.Pos())
		}
	case *ast.CallExpr:
		if id := calleeIdent(n.Fun); id != nil && combinatorName(info.Uses[id]) != "" {
			sc.callees[id] = true
			for _, a := range n.Args {
				if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
					w.lambdaLits[lit] = true
				}
			}
		}
	case *ast.Ident:
		if v, ok := info.Uses[n].(*types.Var); ok && isPackageLevel(v) && !w.seenGlobal[v] {
			w.seenGlobal[v] = true
			sc.globals = append(sc.globals, v)
		}
	}
	return true
}

// def records a definition of the variable named by id, made inside the
// innermost literal of lits.
func (w *scanner) def(id *ast.Ident) {
	obj := w.info.ObjectOf(id)
	if obj == nil || id.Name == "_" {
		return
	}
	w.sc.defs[obj]++
	if len(w.lits) > 0 && !within(obj.Pos(), w.lits[len(w.lits)-1]) && !isPackageLevel(obj) {
		w.sc.escaped[obj] = true
	}
}

// addrOf records that the address of the variable at the root of e is
// taken: it escapes, and counts as defined many times.
func (w *scanner) addrOf(e ast.Expr) {
	if id := valueRoot(w.info, e); id != nil {
		if obj := w.info.ObjectOf(id); obj != nil {
			w.sc.defs[obj] += manyDefs
			w.sc.escaped[obj] = true
		}
	}
}

// lhs records the definitions made by assigning to e.
func (w *scanner) lhs(e ast.Expr) {
	if id := valueRoot(w.info, e); id != nil {
		w.def(id)
	}
}

// assign records the definitions an assignment makes, and the function
// literal each variable it defines or assigns one to one is given.
func (w *scanner) assign(n *ast.AssignStmt) {
	for _, l := range n.Lhs {
		w.lhs(l)
	}
	if n.Tok != token.DEFINE && n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
		return
	}
	for i, l := range n.Lhs {
		if lit, ok := ast.Unparen(n.Rhs[i]).(*ast.FuncLit); ok {
			if id, ok := l.(*ast.Ident); ok && w.info.ObjectOf(id) != nil {
				w.sc.lit[w.info.ObjectOf(id)] = lit
			}
		}
	}
}

// valueSpec records the variables a var declaration defines, and the
// function literal each is initialised with.
func (w *scanner) valueSpec(n *ast.ValueSpec) {
	for i, id := range n.Names {
		w.def(id)
		if len(n.Values) == len(n.Names) {
			if lit, ok := ast.Unparen(n.Values[i]).(*ast.FuncLit); ok && w.info.Defs[id] != nil {
				w.sc.lit[w.info.Defs[id]] = lit
			}
		}
	}
}

// gotoAt records a goto statement at pos, in the body of the innermost
// function literal of lits or else of the function itself, when it is
// the first there.
func (w *scanner) gotoAt(pos token.Pos) {
	if len(w.lits) > 0 {
		if lit := w.lits[len(w.lits)-1]; !w.sc.litGoto[lit].IsValid() {
			w.sc.litGoto[lit] = pos
		}
	} else if !w.sc.gotoPos.IsValid() {
		w.sc.gotoPos = pos
	}
}

// escapeCaptured marks as escaped every local variable that a closure (a
// function literal other than a SOAC's lambda) captures and that is
// defined more than once: it may change whenever the closure runs.
func (w *scanner) escapeCaptured() {
	for _, lit := range w.closures {
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := w.info.Uses[id].(*types.Var); ok && !v.IsField() && !isPackageLevel(v) && !within(v.Pos(), lit) && w.sc.defs[v] > 1 {
					w.sc.escaped[v] = true
				}
			}
			return true
		})
	}
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
