package lower

// This file recognises a chunk function that is a sequential loop over
// its chunk,
//
//	func(chunk []int) []int {
//		bins := make([]int, nbins)
//		for _, i := range chunk {
//			bins[i]++
//		}
//		return bins
//	}
//
// whose range loop may run over the stream's input indices and compute
// each element where it reads it, with no chunk buffer written and read
// back. The chunk parameter's only uses must be that range loop (and
// len(chunk)), the chunk function pure, and the range loop must run at
// most once per call (not inside another loop or a closure). It does not
// check that the maps' lambdas mean the same variables inside the chunk
// function: that is the host code's concern, checked by the backend.

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// chunkRange returns the range statement over the chunk function's chunk
// parameter that is its only use (besides len(chunk), returned too), or
// nil when the chunk function does not have that form.
func (lw *lowerer) chunkRange(l *ir.Lambda) (*ast.RangeStmt, []*ast.CallExpr) {
	if l.Lit == nil || !l.Purity.Pure {
		return nil, nil
	}
	var param types.Object
	for _, fl := range l.Lit.Type.Params.List {
		for _, id := range fl.Names {
			param = lw.info.Defs[id]
		}
	}
	if param == nil || param.Name() == "_" {
		return nil, nil
	}
	var rng *ast.RangeStmt
	var lens []*ast.CallExpr
	ok := true
	var stack []ast.Node
	ast.Inspect(l.Lit.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		parent := ast.Node(nil)
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !isID || lw.info.Uses[id] != param {
			return true
		}
		switch p := parent.(type) {
		case *ast.RangeStmt:
			if p.X != id || rng != nil || !rangeOnce(p, stack) {
				ok = false
			}
			rng = p
		case *ast.CallExpr:
			if b, isB := lw.info.Uses[identOf(p.Fun)].(*types.Builtin); isB && b.Name() == "len" && len(p.Args) == 1 {
				lens = append(lens, p)
				return true
			}
			ok = false
		default:
			ok = false
		}
		return true
	})
	if !ok || rng == nil {
		return nil, nil
	}
	if (rng.Key != nil || rng.Value != nil) && rng.Tok != token.DEFINE {
		return nil, nil
	}
	return rng, lens
}

// rangeOnce reports whether the range statement (the last-but-one node of
// stack, from the chunk function's body down) runs at most once per call.
func rangeOnce(r *ast.RangeStmt, stack []ast.Node) bool {
	for _, n := range stack {
		if n == ast.Node(r) {
			return true
		}
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		}
	}
	return true
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}
