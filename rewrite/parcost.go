package rewrite

// This file estimates the work per element of a kernel, for the parallel
// backend's grain (parallel.Grain): a static count over the lambdas'
// syntax, weighted by rough costs of the operations on this kind of CPU.
// The estimate only decides how many elements a chunk needs before the
// runtime splits the work; it does not decide a kernel's shape, and it is
// not a measurement (the threshold it feeds, parallel.MinChunkNanos, is).

import (
	"go/ast"
	"go/token"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// Weights, in units of about half a nanosecond (an add, a compare, an
// indexed load in cache on a ~3 GHz core with some overlap).
const (
	unitsOp       = 1    // arithmetic, comparison, indexing
	unitsDiv      = 8    // integer or float division, remainder
	unitsMathCall = 40   // math.Exp, math.Log, ...: 15-25 ns measured in Go's math benchmarks
	unitsCall     = 10   // a call of another function whose body is not counted
	unitsLoop     = 200  // a loop of unknown trip count in a lambda
	unitsNested   = 2000 // a SOAC call in a lambda: a whole array per element
	unitsPerNanos = 2
)

// kernelNanos estimates the nanoseconds of one element of lk's loop: one
// unit per member (its store or fold) plus its lambdas.
func kernelNanos(lk *lower.Kernel) int {
	u := 0
	for _, m := range lk.Members {
		u += unitsOp
		for _, l := range m.SOAC.Lambdas() {
			u += lambdaUnits(l, false)
		}
	}
	return max(1, u/unitsPerNanos)
}

// lambdaNanos estimates the nanoseconds of one application of l (of one
// element of its chunk when chunk is set: its loops run over the chunk).
func lambdaNanos(l *ir.Lambda, chunk bool) int {
	return max(1, lambdaUnits(l, chunk)/unitsPerNanos)
}

// lambdaUnits counts l's body in units; a function that is not a
// literal counts as one call.
func lambdaUnits(l *ir.Lambda, chunk bool) int {
	if l == nil || l.Lit == nil {
		return unitsCall
	}
	u := 0
	ast.Inspect(l.Lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.QUO || n.Op == token.REM {
				u += unitsDiv
			} else {
				u += unitsOp
			}
		case *ast.UnaryExpr, *ast.IndexExpr:
			u += unitsOp
		case *ast.CallExpr:
			u += callUnits(n)
		case *ast.ForStmt, *ast.RangeStmt:
			if !chunk {
				u += unitsLoop
			}
		}
		return true
	})
	return u
}

// callUnits is the weight of a call by its callee as written: math.X,
// soac.X (a nested SOAC), a conversion-like or other call.
func callUnits(c *ast.CallExpr) int {
	if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
		if pkg, ok := sel.X.(*ast.Ident); ok {
			switch pkg.Name {
			case "math":
				return unitsMathCall
			case "soac":
				return unitsNested
			}
		}
	}
	if id, ok := c.Fun.(*ast.Ident); ok {
		switch id.Name {
		case "len", "cap", "float64", "float32", "int", "int64", "int32", "uint", "uint64", "uint32", "min", "max":
			return unitsOp
		}
	}
	return unitsCall
}
