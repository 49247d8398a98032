package soactest_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/soacgen/soacgen/analyzer/internal/soactest"
)

// callReporter reports every call of a runtime/soac function, so that the
// test shows testdata can import the runtime and be type-checked.
var callReporter = &analysis.Analyzer{
	Name:     "callreporter",
	Doc:      "reports calls of runtime/soac",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
			call := n.(*ast.CallExpr)
			if fn := typeutil.StaticCallee(pass.TypesInfo, call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == soactest.RuntimeImportPath {
				pass.Reportf(call.Pos(), "soac call %s", fn.Name())
			}
		})
		return nil, nil
	},
}

func TestDirLoadsRuntime(t *testing.T) {
	analysistest.Run(t, soactest.Dir(t, "testdata"), callReporter, "p")
}
