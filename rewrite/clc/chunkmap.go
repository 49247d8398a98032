package clc

// This file translates the chunk function of a StreamMap whose result is
// a row it allocates itself, of its chunk's length:
//
//	func(chunk []T) []E {
//		row := make([]E, len(chunk))
//		... row[i] = v ...
//		return row
//	}
//
// as Chunk does a StreamRed's, except that the row's length may be any
// expression: the room the caller passes is the chunk's part of the
// output, and the make checks its length against the room on the
// device (a row of another length sets the panic flag, and the CPU code
// then raises the spec's panic).

import (
	"go/ast"
	"go/token"
	"go/types"
)

// ChunkMap translates lit, the chunk function of a StreamMap that
// returns the row it makes, typed by info. The function's Result is a
// slice written through the out view the caller passes (the chunk's
// part of the output, of the chunk's length); a make of another length
// sets the panic flag (a makeslice site).
func (u *Unit) ChunkMap(lit *ast.FuncLit, info *types.Info) (*Func, error) {
	fn, _, err := u.chunk(lit, info, false, nil)
	return fn, err
}

// ChunkMapDeclared is ChunkMap for the chunk function fn, a function
// declared in a package whose syntax the Unit's resolver has (not a
// method, not generic).
func (u *Unit) ChunkMapDeclared(fn *types.Func) (*Func, error) {
	if fn.Signature().Recv() != nil || fn.Signature().TypeParams().Len() > 0 || fn.Origin() != fn {
		return nil, u.refuse(fn.Pos(), "chunk function "+fn.FullName(), "methods and generic functions are not translated as chunk functions")
	}
	decl, info := u.resolve(fn)
	if decl == nil || decl.Body == nil {
		return nil, u.refuse(fn.Pos(), "chunk function "+fn.FullName(), "its source is not available to translate (not declared in a package loaded with syntax)")
	}
	f, _, err := u.chunk(&ast.FuncLit{Type: decl.Type, Body: decl.Body}, info, false, fn)
	return f, err
}

// A StreamMap's row may also be made with a capacity and grown by
// appends, as Go code that keeps some elements writes it:
//
//	out := make([]E, n, c)
//	... out = append(out, v) ...
//	return out
//
// The room is still the chunk's part of the output: the make checks
// 0 <= n <= c (Go's makeslice panics) and n against the room, an append
// past the room sets the panic flag (the result would be longer than
// the chunk, which StreamMap's spec rejects), and the result's length
// is checked against the room where the chunk function returns. The
// capacity itself never matters to the values: Go's append reallocates
// past it, which changes nothing the chunk function can observe of a
// row it returns.

// isRowAppend reports whether s is row = append(row, v), one value
// appended to the row obj.
func isRowAppend(info *types.Info, s *ast.AssignStmt, obj types.Object) bool {
	if s.Tok != token.ASSIGN || len(s.Lhs) != 1 || len(s.Rhs) != 1 || !isObj(info, s.Lhs[0], obj) {
		return false
	}
	call, ok := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
	if !ok || len(call.Args) != 2 || call.Ellipsis.IsValid() || !isObj(info, call.Args[0], obj) {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == "append"
}

// rowDefineMap writes the make of a StreamMap's row, with or without a
// capacity: its length n within [0, c] (else makeslice's panic) and
// within the room (else the flag of a result of the wrong length), its
// n elements zeroed, the row a view of them.
func (f *fn) rowDefineMap(s *ast.AssignStmt, call *ast.CallExpr) {
	n := f.spill(val{f.convertTo(f.expr(call.Args[1]), scalars[types.Int64]), scalars[types.Int64]})
	bad := "(long)(" + n.c + ") < 0"
	if len(call.Args) == 3 {
		c := f.spill(val{f.convertTo(f.expr(call.Args[2]), scalars[types.Int64]), scalars[types.Int64]})
		bad += " || (long)(" + n.c + ") > (long)(" + c.c + ")"
	}
	t := f.typ(f.row.obj.Type(), s.Pos())
	if f.failed() {
		return
	}
	f.u.helper("soac__panic", panicHelper)
	f.w.open("if (%s) {", bad)
	f.w.line("soac__panic(soac__err, %d);", f.u.site(call.Pos(), "makeslice: len out of range"))
	f.w.line("return %s;", f.zeroResult())
	f.w.close("}")
	f.w.open("if ((long)(%s) > soac__out.n) {", n.c)
	f.w.line("soac__panic(soac__err, %d);", f.u.site(call.Pos(), "a row longer than its chunk"))
	f.w.line("return %s;", f.zeroResult())
	f.w.close("}")
	i := f.temp()
	f.w.line("for (long %s = 0; %s < (long)(%s); %s++) soac__out.p[%s] = %s;", i, i, n.c, i, i, zeroOf(f.row.elem))
	f.w.line("%s %s = %s__mk(soac__out.p, (long)(%s));", t.C, f.declare(f.row.obj), t.C, n.c)
}

// rowAppend writes row = append(row, v) of a StreamMap's row: v in the
// room's next element, or the flag of a row longer than its chunk.
func (f *fn) rowAppend(s *ast.AssignStmt) bool {
	if f.row == nil || !f.row.appended || !isRowAppend(f.info, s, f.row.obj) {
		return false
	}
	call := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
	v := f.spill(val{f.convertTo(f.expr(call.Args[1]), f.row.elem), f.row.elem})
	if f.failed() {
		return true
	}
	row := f.locals[f.row.obj]
	f.u.helper("soac__panic", panicHelper)
	f.w.open("if (%s.n >= soac__out.n) {", row)
	f.w.line("soac__panic(soac__err, %d);", f.u.site(call.Pos(), "an append past its chunk's length"))
	f.w.line("return %s;", f.zeroResult())
	f.w.close("}")
	f.w.line("((__global %s *)%s.p)[%s.n] = %s;", f.row.elem.C, row, row, v.c)
	f.w.line("%s.n++;", row)
	return true
}
