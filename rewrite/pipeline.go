package rewrite

// This file composes soacgen's pipeline, once, for every caller: the
// soacgen command (through NewAnalyzer), this package's tests and goldens
// (through Analyzer), and vet's stale check (through Regenerate). It does
// not load packages (each caller has its own way: packages.Load with
// Overlay, an analysis pass, a second type-check) nor write files (Sync).

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/soacgen/soacgen/analyzer/build"
	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/purity"
	"github.com/soacgen/soacgen/analyzer/report"
)

// Options configure a run of the pipeline.
type Options struct {
	// Backend is the backend of specs whose directive names none ("":
	// cpu).
	Backend string
	// Gas stops the fusion engine after Gas fusions per function (0: no
	// limit), to bisect a wrong fusion.
	Gas int
	// Cluster is the clustering method of specs whose directive names
	// none ("": fusion.DefaultMethod): greedy, ilp or wsp.
	Cluster string
	// Check verifies the result of every stage: ir.Verify on the IR,
	// fusion.Check on the plans, lowered.Verify on the lowered kernels. A
	// broken invariant fails the run.
	Check bool
}

// Package is one type-checked package and its purity verdicts: what Run
// needs.
type Package struct {
	Fset   *token.FileSet
	Files  []*ast.File
	Pkg    *types.Package
	Info   *types.Info
	Purity purity.Result
	// ReadFile reads a source file; nil means os.ReadFile.
	ReadFile func(string) ([]byte, error)
}

// Result is what Run produces for one package.
type Result struct {
	// Prog is the package's IR. When it has Problems (malformed
	// directives, unsupported specs), Plans and Outputs are empty: soacgen
	// reports the problems and writes nothing.
	Prog *ir.Program
	// Plans are the fusion plans of the generated functions, one per
	// //soac:fuse directive, in source order, then directive order.
	Plans []*fusion.Plan
	// Outputs are the generated files, in source-file order.
	Outputs []Output
}

// Run is soacgen's pipeline on one package: build the IR
// (analyzer/build), fuse every spec (analyzer/fusion), lower each plan's
// kernels (rewrite/lower), render them through the backend chain and
// assemble the files (Generate). The same package and options give
// byte-identical outputs.
func Run(p *Package, opts Options) (*Result, error) {
	prog := build.Build(p.Fset, p.Files, p.Pkg, p.Info, p.Purity)
	res := &Result{Prog: prog}
	if len(prog.Problems) > 0 {
		return res, nil
	}
	// One plan per directive (ir.Function.Directed), fused with opts: a
	// directive's cluster= chooses its plan's clustering. Generate
	// generates each directive's function from its plan, keyed by the
	// directive: Directed's Functions differ from call to call.
	plans := map[*ir.Directive]*fusion.Plan{}
	for _, spec := range prog.Funcs {
		for _, fn := range spec.Directed() {
			pl := fusion.Fuse(fn, fusion.Options{Gas: opts.Gas, Fset: p.Fset, Cluster: opts.Cluster})
			plans[fn.Fuse] = pl
			res.Plans = append(res.Plans, pl)
		}
	}
	outs, err := Generate(&Input{
		Fset: p.Fset, Files: p.Files, Pkg: p.Pkg, Info: p.Info, Prog: prog, Plans: plans,
		ReadFile: p.ReadFile, Backend: opts.Backend, Check: opts.Check,
	})
	if err != nil {
		return nil, err
	}
	res.Outputs = outs
	return res, nil
}

// Report renders the fusion report of the package (import path path),
// positions relative to root (see report.Options), with the backend that
// generated each kernel.
func (r *Result) Report(fset *token.FileSet, path, root, backend string) *report.Package {
	return report.NewPackage(fset, path, r.Plans, r.ReportOptions(root, backend))
}

// ReportOptions returns the options that render the package's report and
// graphs: positions relative to root, backend the default of specs whose
// directive names none, and the backend that generated each kernel.
func (r *Result) ReportOptions(root, backend string) report.Options {
	opts := report.Options{Backend: backend, Root: root, Generated: map[*fusion.Kernel]report.Generated{}}
	for _, o := range r.Outputs {
		for k, g := range o.Generated {
			opts.Generated[k] = g
		}
	}
	return opts
}

// NewAnalyzer returns an analyzer that runs the pipeline (Run) with opts
// on every package. It reports nothing; its result is the package's
// *Result.
func NewAnalyzer(opts Options) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "soacgen",
		Doc:        "generate the fused functions of the package's //soac:fuse specs\n\nThe analyzer reports nothing; its result is a *rewrite.Result.",
		URL:        "https://pkg.go.dev/github.com/soacgen/soacgen/rewrite",
		Requires:   []*analysis.Analyzer{purity.Analyzer},
		ResultType: reflect.TypeOf((*Result)(nil)),
		Run: func(pass *analysis.Pass) (any, error) {
			return Run(&Package{
				Fset: pass.Fset, Files: pass.Files, Pkg: pass.Pkg, Info: pass.TypesInfo,
				Purity: pass.ResultOf[purity.Analyzer].(*purity.Verdicts), ReadFile: pass.ReadFile,
			}, opts)
		},
	}
}

// LoadMode is the packages.Load mode GeneratePackages needs.
const LoadMode = packages.LoadAllSyntax

// RunPackages runs the pipeline with opts on pkgs (loaded with LoadMode)
// and returns the results of the root packages, in the order of pkgs.
func RunPackages(pkgs []*packages.Package, opts Options) ([]*Result, error) {
	a := NewAnalyzer(opts)
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	var results []*Result
	for _, act := range graph.Roots {
		if act.Err != nil {
			return nil, fmt.Errorf("%s: %v", act.Package.PkgPath, act.Err)
		}
		results = append(results, act.Result.(*Result))
	}
	return results, nil
}

// GeneratePackages runs the pipeline on pkgs (loaded with LoadMode) with
// default options and every stage checked (Options.Check), as tests do,
// and returns the outputs of the root packages, in the order of pkgs.
func GeneratePackages(pkgs []*packages.Package) ([]Output, error) {
	results, err := RunPackages(pkgs, Options{Check: true})
	if err != nil {
		return nil, err
	}
	var outs []Output
	for _, r := range results {
		outs = append(outs, r.Outputs...)
	}
	return outs, nil
}
