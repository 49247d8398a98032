package opencl

// This file estimates what one element of an OpenCL kernel costs, for
// backend=auto's run-time cost model (runtime/opencl/launch.Worth): the
// bytes moved between host and device, and the arithmetic of the
// lambdas. It does not decide anything: the generated code does, at run
// time, with the length of the call.

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// The weights of the arithmetic estimate: a call (a math function or a
// translated helper) counts as callOps simple operations, and the body
// of a loop as loopTrips iterations. Both are round guesses: the model
// only needs the order of magnitude that separates streaming kernels
// from arithmetic-heavy ones.
const (
	callOps   = 20
	loopTrips = 16
)

// bytes returns the bytes one element moves: its inputs and outputs.
func (ck *clKernel) bytes() int {
	sizes := types.SizesFor("gc", "amd64")
	n := 0
	for _, ps := range [][]clParam{ck.ins, ck.outs} {
		for _, p := range ps {
			n += int(sizes.Sizeof(p.goElem))
		}
	}
	return n
}

// ops returns the estimated arithmetic of one element: the operators of
// every member's lambdas, with calls and loops weighted.
func (ck *clKernel) ops() int {
	n := 0
	for _, m := range ck.lk.Members {
		if m.Role == lower.Gen {
			continue
		}
		for _, l := range m.SOAC.Lambdas() {
			n += ck.lambdaOps(l)
		}
	}
	return max(n, 1)
}

// lambdaOps estimates the operations of one call of l.
func (ck *clKernel) lambdaOps(l *ir.Lambda) int {
	var body *ast.BlockStmt
	switch {
	case l.Lit != nil:
		body = l.Lit.Body
	case l.Func != nil:
		if d := ck.f.FuncDecl(l.Func); d != nil {
			body = d.Body
		}
	}
	if body == nil {
		return callOps
	}
	return nodeOps(ck.f.Info(), body)
}

// nodeOps counts the operators under n, a call as callOps (a conversion
// as one operation) and a loop's body loopTrips times.
func nodeOps(info *types.Info, n ast.Node) int {
	ops := 0
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.BinaryExpr, *ast.UnaryExpr, *ast.IncDecStmt:
			ops++
		case *ast.AssignStmt:
			if x.Tok != token.ASSIGN && x.Tok != token.DEFINE {
				ops++
			}
		case *ast.CallExpr:
			if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
				ops++
			} else {
				ops += callOps
			}
		case *ast.ForStmt:
			ops += loopTrips * nodeOps(info, x.Body)
			return false
		case *ast.RangeStmt:
			ops += loopTrips * nodeOps(info, x.Body)
			return false
		}
		return true
	})
	return ops
}
