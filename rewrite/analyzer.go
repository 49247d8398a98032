package rewrite

import (
	"fmt"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/soacgen/soacgen/analyzer/build"
	"github.com/soacgen/soacgen/analyzer/purity"
)

// Analyzer builds the IR of a package with the purity verdicts, fuses its
// specs and generates their code. It reports nothing; its result is the
// package's []Output (empty when the package has no specs). A package
// whose specs cannot be generated fails the analysis with the error.
var Analyzer = &analysis.Analyzer{
	Name:       "soacgen",
	Doc:        "generate the fused functions of the package's //soac:fuse specs\n\nThe analyzer reports nothing; its result is a []rewrite.Output.",
	URL:        "https://pkg.go.dev/github.com/soacgen/soacgen/rewrite",
	Requires:   []*analysis.Analyzer{purity.Analyzer},
	ResultType: reflect.TypeOf([]Output(nil)),
	Run:        run,
}

func run(pass *analysis.Pass) (any, error) {
	pur := pass.ResultOf[purity.Analyzer].(*purity.Verdicts)
	prog := build.Build(pass.Fset, pass.Files, pass.Pkg, pass.TypesInfo, pur)
	// No Plans: Generate fuses every spec with default options.
	return Generate(&Input{Fset: pass.Fset, Files: pass.Files, Pkg: pass.Pkg, Info: pass.TypesInfo, Prog: prog, ReadFile: pass.ReadFile, Check: checkStagesAlways})
}

// checkStagesAlways makes Analyzer verify every stage's result
// (Input.Check); the package's tests set it.
var checkStagesAlways bool

// LoadMode is the packages.Load mode GeneratePackages needs.
const LoadMode = packages.LoadAllSyntax

// GeneratePackages runs Analyzer on pkgs (loaded with LoadMode) and
// returns the outputs of every root package, in the order of pkgs.
func GeneratePackages(pkgs []*packages.Package) ([]Output, error) {
	graph, err := checker.Analyze([]*analysis.Analyzer{Analyzer}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	var outs []Output
	for _, act := range graph.Roots {
		if act.Err != nil {
			return nil, fmt.Errorf("%s: %v", act.Package.PkgPath, act.Err)
		}
		outs = append(outs, act.Result.([]Output)...)
	}
	return outs, nil
}
