package build

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/purity"
)

// analyzerRequires lists the analyzers soacir depends on.
//
// TODO(build): add purity.Analyzer once branch purity defines it, and read
// its result in purityOf.
func analyzerRequires() []*analysis.Analyzer {
	return []*analysis.Analyzer{inspect.Analyzer}
}

// purityOf returns the purity verdicts for the pass.
var purityOf = func(*analysis.Pass) purityResult { return conservative{} }

// purityResult is purity.Result; the alias lets tests name it without the import.
type purityResult = purity.Result

// conservative is the purity.Result that knows nothing: every function and
// literal is impure, and every call may write its arguments and global
// state. It is the safe answer when no purity analysis is available.
type conservative struct{}

func (conservative) Func(fn *types.Func) ir.Purity {
	return ir.Purity{Reason: "calls " + fn.FullName() + " (no purity information)", Pos: fn.Pos(), MayPanic: true}
}

func (conservative) Lit(lit *ast.FuncLit) ir.Purity {
	return ir.Purity{Reason: "function literal (no purity information)", Pos: lit.Pos(), MayPanic: true}
}

func (conservative) Call(call *ast.CallExpr) purity.CallEffect {
	w := []int{-1}
	for i := range call.Args {
		w = append(w, i)
	}
	return purity.CallEffect{
		Purity:       ir.Purity{Reason: "call (no purity information)", Pos: call.Pos(), MayPanic: true},
		WritesArgs:   w,
		WritesGlobal: true,
	}
}
