package clc

// This file translates the chunk function of a StreamRed whose result is
// a row it allocates itself:
//
//	func(chunk []T) []E {
//		row := make([]E, n) // n computed from captures and constants
//		... row[i] = v, row[i] += v, row[i]++ ...
//		return row
//	}
//
// The row is the room the caller passes (the function's out view, a row
// of the device's scratch buffer of rows): the make checks that its
// length is the room's and zeroes it, writes to the row's elements are
// checked against its length, reads see it as any slice, and returning
// it returns the room. The host computes the length before the launch,
// from the make's length expression (Chunk returns it), so that it can
// give every chunk its row. It does not translate any other allocation:
// a second make, an append, a row assigned, a row of unknown length or
// another slice returned are refused with the reason.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// rowLocal is the row a chunk function allocates and returns.
type rowLocal struct {
	obj  types.Object
	elem *Type // the row's element type
	// appended marks a StreamMap's row made with a capacity and grown
	// by appends (chunkmap.go).
	appended bool
}

// Chunk translates lit, the chunk function of a StreamRed that returns
// the row it makes, typed by info. It returns the function (its Result a
// slice, written through the out view the caller passes: room of the
// row's length) and the length expression of the make, which reads only
// constants and variables lit captures, for the host to evaluate before
// the launch.
func (u *Unit) Chunk(lit *ast.FuncLit, info *types.Info) (*Func, ast.Expr, error) {
	return u.chunk(lit, info, true, nil)
}

// chunk is Chunk, and ChunkMap when hostLen is false (the make's length
// is then any expression, checked on the device against the room). With
// decl not nil, lit holds the type and body of declared function decl
// (ChunkMapDeclared), which captures nothing.
func (u *Unit) chunk(lit *ast.FuncLit, info *types.Info, hostLen bool, decl *types.Func) (*Func, ast.Expr, error) {
	sig, _ := info.TypeOf(lit).(*types.Signature)
	if decl != nil {
		sig = decl.Signature()
	}
	if sig == nil {
		return nil, nil, u.refuse(lit.Pos(), "function literal", "has no type information")
	}
	if sig.Results().Len() != 1 {
		return nil, nil, u.refuse(lit.Pos(), "chunk function", "it must return one slice")
	}
	if _, ok := sig.Results().At(0).Type().Underlying().(*types.Slice); !ok {
		return nil, nil, u.refuse(lit.Pos(), "chunk function", "it must return a slice it makes (a row)")
	}
	obj, n, err := u.rowOf(lit, info, hostLen)
	if err != nil {
		return nil, nil, err
	}
	f := newFn(u, info, nil, sig, lit.Pos(), lit.End(), decl == nil)
	et, bad := u.types.of(obj.Type().Underlying().(*types.Slice).Elem())
	if bad != "" {
		return nil, nil, u.refuse(lit.Pos(), "row of "+bad, "only rows of numbers and structs of them are translated")
	}
	f.row = &rowLocal{obj: obj, elem: et, appended: !hostLen}
	fn, err := f.translate(u.funcName("soac__chunk"), lit.Type, lit.Body)
	if err != nil {
		return nil, nil, err
	}
	return fn, n, nil
}

// rowOf finds the row of lit: a local defined by ROW := make([]E, n) at
// the top level of the body, the only make, never assigned again, and
// the result of every return. With hostLen, n must read only constants
// and captured variables (and len of those), through + - * and
// parentheses.
func (u *Unit) rowOf(lit *ast.FuncLit, info *types.Info, hostLen bool) (types.Object, ast.Expr, error) {
	var obj types.Object
	var n ast.Expr
	var made *ast.CallExpr
	for _, s := range lit.Body.List {
		as, ok := s.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isMake(info, as.Rhs[0]) {
			continue
		}
		call := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		id, _ := as.Lhs[0].(*ast.Ident)
		if id == nil || info.Defs[id] == nil {
			return nil, nil, u.refuse(as.Pos(), "row", "the row must be a new local")
		}
		if obj != nil {
			return nil, nil, u.refuse(as.Pos(), "second make", "a chunk function makes one row")
		}
		if len(call.Args) != 2 && (hostLen || len(call.Args) != 3) {
			return nil, nil, u.refuse(call.Pos(), "make with a capacity", "a row is made with its length only")
		}
		obj, n, made = info.Defs[id], call.Args[1], call
	}
	if obj == nil && !hostLen {
		return nil, nil, u.refuse(lit.Pos(), "chunk function", "its body does not begin a top-level row := make([]E, len(chunk)): the device writes the row it makes at its chunk's place in the output")
	}
	if obj == nil {
		return nil, nil, u.refuse(lit.Pos(), "chunk function", "its body does not begin a top-level row := make([]E, n): the length of its result is not known before the launch")
	}
	if pos, why := hostLength(info, n, lit); hostLen && why != "" {
		return nil, nil, u.refuse(pos, "length of the row", why)
	}
	var err error
	ast.Inspect(lit.Body, func(x ast.Node) bool {
		if err != nil {
			return false
		}
		switch x := x.(type) {
		case *ast.FuncLit:
			return false // a nested SOAC's lambda: it cannot return the row
		case *ast.CallExpr:
			if x != made && isMake(info, x) {
				err = u.refuse(x.Pos(), "second make", "a chunk function makes one row")
			}
		case *ast.ReturnStmt:
			if len(x.Results) != 1 || !isObj(info, x.Results[0], obj) {
				err = u.refuse(x.Pos(), "return", "a chunk function returns the row it makes")
			}
		case *ast.AssignStmt:
			if !hostLen && isRowAppend(info, x, obj) {
				return true // a StreamMap's row grown in its room (chunkmap.go)
			}
			for _, l := range x.Lhs {
				if isObj(info, l, obj) && info.Defs[l.(*ast.Ident)] == nil {
					err = u.refuse(l.Pos(), "assignment to the row", "the row stays the room it is made in")
				}
			}
		case *ast.UnaryExpr:
			if x.Op == token.AND && isObj(info, x.X, obj) {
				err = u.refuse(x.Pos(), "address of the row", "pointers are not translated")
			}
		}
		return true
	})
	if err != nil {
		return nil, nil, err
	}
	return obj, n, nil
}

// isMake reports whether e is a call of the builtin make.
func isMake(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == "make"
}

// isObj reports whether e names obj.
func isObj(info *types.Info, e ast.Expr, obj types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && (info.Uses[id] == obj || info.Defs[id] == obj)
}

// hostLength checks that n can be evaluated on the host where the
// kernel launches: constants, variables declared outside lit, len of
// those, + - * and parentheses. It returns where and why not.
func hostLength(info *types.Info, n ast.Expr, lit *ast.FuncLit) (token.Pos, string) {
	if tv := info.Types[n]; tv.Value != nil {
		return token.NoPos, ""
	}
	switch e := n.(type) {
	case *ast.ParenExpr:
		return hostLength(info, e.X, lit)
	case *ast.Ident:
		switch obj := info.Uses[e].(type) {
		case *types.Const:
			return token.NoPos, ""
		case *types.Var:
			if obj.Pos() >= lit.Pos() && obj.Pos() < lit.End() {
				return e.Pos(), "it reads " + e.Name + ", a local of the chunk function: the host computes the length before the launch"
			}
			if obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() {
				return e.Pos(), "it reads the package-level variable " + e.Name
			}
			return token.NoPos, ""
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD || e.Op == token.SUB || e.Op == token.MUL {
			if p, why := hostLength(info, e.X, lit); why != "" {
				return p, why
			}
			return hostLength(info, e.Y, lit)
		}
	case *ast.CallExpr:
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && len(e.Args) == 1 {
			if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "len" {
				if x, ok := ast.Unparen(e.Args[0]).(*ast.Ident); ok {
					if _, isSlice := info.TypeOf(x).Underlying().(*types.Slice); isSlice {
						return hostLength(info, x, lit)
					}
				}
			}
		}
	}
	return n.Pos(), "it is not made of constants, captured variables, len of captured slices, + - * and parentheses: the host computes the length before the launch"
}

// rowDefine writes the row's make: the room must have the length asked
// for (the host made it so; a negative length, for which Go panics,
// never reaches the device), its elements are zeroed, and the row is a
// view of it.
func (f *fn) rowDefine(s *ast.AssignStmt) {
	call := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
	if f.row.appended {
		f.rowDefineMap(s, call) // chunkmap.go
		return
	}
	n := f.spill(val{f.convertTo(f.expr(call.Args[1]), scalars[types.Int64]), scalars[types.Int64]})
	t := f.typ(f.row.obj.Type(), s.Pos())
	if f.failed() {
		return
	}
	f.u.helper("soac__panic", panicHelper)
	f.w.open("if ((long)(%s) != soac__out.n) {", n.c)
	f.w.line("soac__panic(soac__err, %d);", f.u.site(call.Pos(), "makeslice: len out of range"))
	f.w.line("return %s;", f.zeroResult())
	f.w.close("}")
	i := f.temp()
	f.w.line("for (long %s = 0; %s < soac__out.n; %s++) soac__out.p[%s] = %s;", i, i, i, i, zeroOf(f.row.elem))
	f.w.line("%s %s = %s__mk(soac__out.p, soac__out.n);", t.C, f.declare(f.row.obj), t.C)
}

// isRowDefine reports whether s is the row's make.
func (f *fn) isRowDefine(s *ast.AssignStmt) bool {
	return f.row != nil && s.Tok == token.DEFINE && len(s.Lhs) == 1 && isObj(f.info, s.Lhs[0], f.row.obj) && f.info.Defs[s.Lhs[0].(*ast.Ident)] == f.row.obj
}

// rowElem returns the lvalue of row[i], i checked against the row's
// length, when e is an element of the row.
func (f *fn) rowElem(e *ast.IndexExpr) (string, *Type, bool) {
	if f.row == nil || !isObj(f.info, e.X, f.row.obj) {
		return "", nil, false
	}
	row := f.locals[f.row.obj]
	ix := f.expr(e.Index)
	if f.failed() {
		return "0", f.row.elem, true
	}
	f.u.helper("soac__panic", panicHelper)
	f.u.helper("soac__ix", "static inline long soac__ix(const long i, const long n, int *e, const int site) { if ((ulong)i >= (ulong)n) { soac__panic(e, site); return 0; } return i; }")
	t := f.temp()
	f.w.line("const long %s = soac__ix((long)(%s), %s.n, soac__err, %d);", t, ix.c, row, f.u.site(e.Lbrack, "index out of range"))
	return "((__global " + f.row.elem.C + " *)" + row + ".p)[" + t + "]", f.row.elem, true
}

// rowReturn writes the return of the row, which is the room itself.
func (f *fn) rowReturn(s *ast.ReturnStmt) bool {
	if f.row == nil || len(s.Results) != 1 || !isObj(f.info, s.Results[0], f.row.obj) {
		return false
	}
	f.w.line("return %s__mk(soac__out.p, %s.n);", outView(f.result.Elem), f.locals[f.row.obj])
	return true
}
