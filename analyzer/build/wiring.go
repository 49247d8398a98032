package build

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/soacgen/soacgen/analyzer/purity"
)

// analyzerRequires lists the analyzers soacir depends on.
func analyzerRequires() []*analysis.Analyzer {
	return []*analysis.Analyzer{inspect.Analyzer, purity.Analyzer}
}

// purityResult is purity.Result; the alias lets tests name it without the
// import.
type purityResult = purity.Result

// purityOf returns the purity verdicts for the pass: the purity analyzer's
// result. Tests replace it with a fixed oracle.
var purityOf = func(pass *analysis.Pass) purityResult {
	return pass.ResultOf[purity.Analyzer].(purity.Result)
}
