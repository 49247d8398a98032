package clc

// This file recognises the chunk function of a StreamRed that counts
// into bins (a histogram, k-means' cluster sizes):
//
//	func(chunk []T) []E {
//		row := make([]E, n) // n from captures and constants
//		for _, x := range chunk {
//			... locals computed from x and captures ...
//			row[i] += v // or row[i]++, row[i] -= v, row[i]--
//		}
//		return row
//	}
//
// with E a 32- or 64-bit integer, and translates its per-element part as
// a function of the element that returns the bin i and the amount added
// (v, 1, -v or -1), so that a kernel can add it to bins of its own in
// any order: integer addition wraps alike in every order. Anything else
// is refused with the reason; the caller then keeps the chunk function
// whole (Chunk).

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// Bins is a chunk function recognised as counting into bins.
type Bins struct {
	// Fn is the per-element function, static R NAME(T x, captures...,
	// int *soac__err): R is a struct whose field BinField (long) is the
	// element's bin, unchecked, and AddField (Elem) the amount added to it.
	Fn *Func
	// BinField and AddField are the C names of the result's fields.
	BinField, AddField string
	// Elem is the row's element type, a 32- or 64-bit integer.
	Elem *Type
	// Len is the make's length expression, for the host (as Chunk's).
	Len ast.Expr
	// One reports that every element adds the constant 1 (row[i]++).
	One bool
}

// binsShape is the reason every refusal of the shape gives.
const binsShape = "the chunk function is not row := make([]E, n); for _, x := range chunk { locals; row[i] += v }; return row"

// Bins recognises lit, the chunk function of a StreamRed typed by info,
// as counting into bins, and translates its per-element part; it
// returns a *Refusal saying why not otherwise.
func (u *Unit) Bins(lit *ast.FuncLit, info *types.Info) (*Bins, error) {
	sig, _ := info.TypeOf(lit).(*types.Signature)
	if sig == nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 {
		return nil, u.refuse(lit.Pos(), "chunk function", binsShape)
	}
	row, n, err := u.rowOf(lit, info, true)
	if err != nil {
		return nil, err
	}
	body := lit.Body.List
	if len(body) != 3 {
		return nil, u.refuse(lit.Pos(), "chunk function", binsShape)
	}
	rs, ok := body[1].(*ast.RangeStmt)
	if !ok || !isObj(info, rs.X, sig.Params().At(0)) || len(rs.Body.List) == 0 {
		return nil, u.refuse(body[1].Pos(), "chunk function", binsShape+": its second statement is not a range over the chunk")
	}
	if rs.Key != nil && !isBlank(rs.Key) {
		return nil, u.refuse(rs.Key.Pos(), "index of the chunk's element", "the bins may depend on the element and captures only, not on its place in a chunk")
	}
	elem, ok := basicKind(row.Type().Underlying().(*types.Slice).Elem())
	if !ok || !binKinds[elem] {
		return nil, u.refuse(body[0].Pos(), "row of "+row.Type().String(), "bins are 32- or 64-bit integers (OpenCL's atomic additions); float bins are added in chunk order")
	}
	last := rs.Body.List[len(rs.Body.List)-1]
	idx, v, op, why := binUpdate(info, last, row)
	if why != "" {
		return nil, u.refuse(last.Pos(), "last statement of the loop", why)
	}
	pre := rs.Body.List[:len(rs.Body.List)-1]
	forbidden := []types.Object{row, sig.Params().At(0)}
	for _, s := range pre {
		if pos, why := binLocal(info, s, forbidden); why != "" {
			return nil, u.refuse(pos, "statement of the loop", why)
		}
	}
	for _, e := range []ast.Expr{idx, v} {
		if e == nil {
			continue
		}
		if pos, why := binLocal(info, &ast.ExprStmt{X: e}, forbidden); why != "" {
			return nil, u.refuse(pos, "bin or amount", why)
		}
	}
	return u.binsFunc(lit, info, sig, rs, pre, idx, v, op, row, n)
}

// binKinds are the integer kinds OpenCL adds atomically.
var binKinds = map[types.BasicKind]bool{types.Int: true, types.Int32: true, types.Int64: true, types.Uint: true, types.Uint32: true, types.Uint64: true}

// basicKind returns the kind of t's underlying basic type.
func basicKind(t types.Type) (types.BasicKind, bool) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return 0, false
	}
	return b.Kind(), true
}

// isBlank reports whether e is the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// binUpdate returns the index i and amount v of s, row[i] += v (op ADD)
// or row[i] -= v (SUB); v is nil for row[i]++ and row[i]-- (1 added or
// subtracted); or why s is not such an update.
func binUpdate(info *types.Info, s ast.Stmt, row types.Object) (idx, v ast.Expr, op token.Token, why string) {
	var lhs ast.Expr
	switch s := s.(type) {
	case *ast.IncDecStmt:
		lhs, op = s.X, token.ADD
		if s.Tok == token.DEC {
			op = token.SUB
		}
	case *ast.AssignStmt:
		if (s.Tok != token.ADD_ASSIGN && s.Tok != token.SUB_ASSIGN) || len(s.Lhs) != 1 {
			return nil, nil, 0, "it is not row[i] += v, row[i] -= v, row[i]++ or row[i]--"
		}
		lhs, v, op = s.Lhs[0], s.Rhs[0], token.ADD
		if s.Tok == token.SUB_ASSIGN {
			op = token.SUB
		}
	default:
		return nil, nil, 0, "it is not row[i] += v, row[i] -= v, row[i]++ or row[i]--"
	}
	ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
	if !ok || !isObj(info, ix.X, row) {
		return nil, nil, 0, "it does not update an element of the row"
	}
	return ix.Index, v, op, ""
}

// binLocal checks a statement of the loop before the update (or the
// update's index or amount): it may not read the row, the chunk or the
// loop's other variables (forbidden), return, or break or continue the
// loop. It returns where and why not.
func binLocal(info *types.Info, s ast.Stmt, forbidden []types.Object) (token.Pos, string) {
	var pos token.Pos
	why := ""
	var walk func(n ast.Node, loops, switches int)
	walk = func(n ast.Node, loops, switches int) {
		ast.Inspect(n, func(x ast.Node) bool {
			if why != "" || x == nil {
				return false
			}
			switch x := x.(type) {
			case *ast.FuncLit:
				return true // a nested SOAC's lambda: its returns are its own
			case *ast.Ident:
				for _, o := range forbidden {
					if info.Uses[x] == o {
						pos, why = x.Pos(), "it reads "+x.Name+": each element's bin and amount are computed from the element and captures"
					}
				}
			case *ast.ReturnStmt:
				pos, why = x.Pos(), "a return inside the loop: each element updates one bin"
			case *ast.BranchStmt:
				if x.Label != nil {
					pos, why = x.Pos(), "a labelled "+x.Tok.String()+" inside the loop: not recognised"
				} else if loops == 0 && (x.Tok != token.BREAK || switches == 0) {
					pos, why = x.Pos(), x.Tok.String()+" leaves or skips the loop's update: each element updates one bin"
				}
			case *ast.ForStmt:
				walk(x.Body, loops+1, switches)
				walkParts(walk, loops, switches, x.Init, x.Cond, x.Post)
				return false
			case *ast.RangeStmt:
				walk(x.Body, loops+1, switches)
				walkParts(walk, loops, switches, x.X)
				return false
			case *ast.SwitchStmt:
				walk(x.Body, loops, switches+1)
				walkParts(walk, loops, switches, x.Init, x.Tag)
				return false
			}
			return true
		})
	}
	walk(s, 0, 0)
	return pos, why
}

// walkParts walks the parts of a statement's header that are there.
func walkParts(walk func(ast.Node, int, int), loops, switches int, parts ...ast.Node) {
	for _, p := range parts {
		if p != nil {
			walk(p, loops, switches)
		}
	}
}

// binsFunc translates the per-element part of lit (Bins): the loop's
// statements before the update (pre), then the bin idx and the amount v
// (nil: 1), subtracted when op is SUB, returned as the fields of a struct.
func (u *Unit) binsFunc(lit *ast.FuncLit, info *types.Info, sig *types.Signature, rs *ast.RangeStmt, pre []ast.Stmt, idx, v ast.Expr, op token.Token, row types.Object, n ast.Expr) (*Bins, error) {
	f := newFn(u, info, nil, sig, lit.Pos(), lit.End(), true)
	ek := row.Type().Underlying().(*types.Slice).Elem()
	et := f.typ(ek, lit.Pos())
	xt := sig.Params().At(0).Type().Underlying().(*types.Slice).Elem()
	res := f.typ(types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, nil, "bin", types.Typ[types.Int64], false),
		types.NewField(token.NoPos, nil, "add", ek, false),
	}, nil), lit.Pos())
	out := &Func{Name: u.funcName("soac__bins"), Pos: u.fset.Position(lit.Pos()), Result: res}
	pt := f.typ(xt, rs.Pos())
	var x string
	if id, ok := rs.Value.(*ast.Ident); ok && id.Name != "_" && info.Defs[id] != nil {
		x = f.declare(info.Defs[id])
	} else {
		x = f.temp()
	}
	out.Params = []Param{{Name: "x", C: x, Type: pt}}
	f.result = res
	f.block(pre)
	bin := f.spill(val{f.convertTo(f.expr(idx), scalars[types.Int64]), scalars[types.Int64]})
	add := val{fmt.Sprintf("((%s)1)", et.C), et}
	if v != nil {
		add = val{f.convertTo(f.expr(v), et), et}
	}
	if op == token.SUB {
		add = val{f.binary(token.SUB, val{zeroOf(et), et}, add, et, nil, rs.Pos()), et}
	}
	if f.failed() {
		return nil, f.w.err
	}
	f.w.line("return %s__mk(%s, %s);", res.C, bin.c, add.c)
	params := []string{fmt.Sprintf("%s %s", pt.C, x)}
	for _, c := range f.caps {
		params = append(params, fmt.Sprintf("const %s %s", c.Type.C, c.C))
	}
	params = append(params, "int *soac__err")
	out.Captures = f.caps
	out.Proto = proto(out.Name, res, params)
	var w writer
	w.line("%s {", out.Proto)
	w.raw(f.w.String())
	w.line("}")
	u.funcs = append(u.funcs, w.String())
	return &Bins{Fn: out, BinField: res.Fields[0].C, AddField: res.Fields[1].C, Elem: et, Len: n, One: v == nil && op == token.ADD}, nil
}
