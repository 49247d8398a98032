package purity_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/soacgen/soacgen/analyzer/internal/soactest"
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
		if !testPackages[pass.Pkg.Path()] {
			return nil, nil // a dependency from the standard library
		}
		res := pass.ResultOf[purity.Analyzer].(*purity.Verdicts)
		callsOnly := pass.Pkg.Name() == "calls"
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && callsOnly {
					pass.Reportf(c.Pos(), "call %s", describeCall(res.Call(c)))
				}
				if callsOnly {
					return true
				}
				switch n := n.(type) {
				case *ast.FuncDecl:
					if fn, ok := pass.TypesInfo.Defs[n.Name].(*types.Func); ok {
						pass.Reportf(n.Name.Pos(), "%s", describe(res.Func(fn)))
					}
				case *ast.FuncLit:
					pass.Reportf(n.Pos(), "%s", describe(res.Lit(n)))
				case *ast.CallExpr:
					if key, ok := res.TableRow(n); ok {
						rowsHit.Store(key, true)
					}
				}
				return true
			})
		}
		return nil, nil
	},
}

// testPackages are the testdata packages.
var testPackages = map[string]bool{"a": true, "b": true, "stdtable": true, "hof": true, "calls": true, "bounds": true, "local": true}

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

// describeCall formats a call's effect: its purity, then the written
// arguments and flags.
func describeCall(ce purity.CallEffect) string {
	s := describe(ce.Purity)
	if len(ce.WritesArgs) > 0 {
		s += fmt.Sprintf("; writes %v", ce.WritesArgs)
	}
	if ce.ArgWritesOnly {
		s += "; argwritesonly"
	}
	if ce.WritesGlobal {
		s += "; writes global"
	}
	if ce.NoReturn {
		s += "; noreturn"
	}
	if len(ce.FreshResults) > 0 {
		s += fmt.Sprintf("; fresh %v", ce.FreshResults)
	}
	return s
}

// rowsHit records the keys of the table rows that decided a call in the
// testdata.
var rowsHit sync.Map

func TestVerdicts(t *testing.T) {
	analysistest.Run(t, soactest.Dir(t, "testdata"), verdicts, "a", "b", "stdtable", "hof", "calls", "bounds", "local")
	// Every row of the standard-library table must decide some call of
	// the testdata.
	for _, row := range purity.StdTable {
		if _, ok := rowsHit.Load(row.Key()); !ok {
			t.Errorf("table row %s has no test case", row.Key())
		}
	}
}

func TestTableKeysUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, row := range purity.StdTable {
		if seen[row.Key()] {
			t.Errorf("duplicate table row %s", row.Key())
		}
		seen[row.Key()] = true
	}
}
