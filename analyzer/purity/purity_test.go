package purity_test

import (
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/purity"
)

// verdicts reports the purity verdict of every function declaration and
// function literal, so that testdata's // want comments check them.
var verdicts = &analysis.Analyzer{
	Name:     "verdicts",
	Doc:      "reports purity verdicts (test only)",
	Requires: []*analysis.Analyzer{purity.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[purity.Analyzer].(purity.Result)
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					if fn, ok := pass.TypesInfo.Defs[n.Name].(*types.Func); ok {
						pass.Reportf(n.Name.Pos(), "%s", describe(res.Func(fn)))
					}
				case *ast.FuncLit:
					pass.Reportf(n.Pos(), "%s", describe(res.Lit(n)))
				}
				return true
			})
		}
		return nil, nil
	},
}

// describe formats a verdict: "pure", "impure: REASON", with "; maypanic".
func describe(p ir.Purity) string {
	var b strings.Builder
	if p.Pure {
		b.WriteString("pure")
	} else {
		b.WriteString("impure: " + p.Reason)
	}
	if p.MayPanic {
		b.WriteString("; maypanic")
	}
	return b.String()
}

func TestVerdicts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), verdicts, "a", "b")
}
