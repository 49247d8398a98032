package report_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/soacgen/soacgen/analyzer/build"
	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/internal/randpipe"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/report"
)

// scaleSpecs and the SOAC bounds are the size the analysis must
// handle in under 2 s: one package of 500 specs with 5-10 SOACs each.
const (
	scaleSpecs  = 500
	scaleMinOps = 5
	scaleMaxOps = 10
)

// loadScalePackage writes a module with one generated package of
// scaleSpecs specs and loads it with syntax and types for every package,
// as cmd/soacgen does.
func loadScalePackage(tb testing.TB) []*packages.Package {
	tb.Helper()
	dir := tb.TempDir()
	pkg := randpipe.Generate(1, randpipe.Config{Package: "scale", Specs: scaleSpecs, MinOps: scaleMinOps, MaxOps: scaleMaxOps, HazardRate: 0.2})
	if err := randpipe.WriteModule(dir, randpipe.RepoRoot(), []randpipe.Package{pkg}); err != nil {
		tb.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax | packages.NeedModule,
		Dir:  dir,
		Env:  append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off"),
	}
	pkgs, err := packages.Load(cfg, "./scale")
	if err != nil {
		tb.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		tb.Fatal("generated package does not type-check")
	}
	return pkgs
}

// analyzeAndReport runs the whole analysis of one loaded package (purity
// over it and its dependencies, the IR builder, fusion of every function)
// and renders the report, returning the number of specs reported.
func analyzeAndReport(tb testing.TB, pkgs []*packages.Package, w io.Writer) int {
	return analyzeAndReportWith(tb, pkgs, w, "")
}

// analyzeAndReportWith is analyzeAndReport with a clustering method.
func analyzeAndReportWith(tb testing.TB, pkgs []*packages.Package, w io.Writer, method string) int {
	graph, err := checker.Analyze([]*analysis.Analyzer{build.Analyzer}, pkgs, nil)
	if err != nil {
		tb.Fatal(err)
	}
	var rep report.Report
	for _, act := range graph.Roots {
		if act.Err != nil {
			tb.Fatal(act.Err)
		}
		prog := act.Result.(*ir.Program)
		var plans []*fusion.Plan
		for _, fn := range prog.Funcs {
			plans = append(plans, fusion.Fuse(fn, fusion.Options{Fset: prog.Fset, Cluster: method}))
		}
		rep.Packages = append(rep.Packages, report.NewPackage(prog.Fset, act.Package.PkgPath, plans, report.Options{Root: filepath.Dir(act.Package.Module.GoMod)}))
	}
	if err := rep.WriteJSON(w); err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, p := range rep.Packages {
		n += len(p.Functions)
	}
	return n
}

// TestScalePackage checks that the 500-spec package is analysed and every
// spec reported; BenchmarkAnalyze500Specs measures it.
func TestScalePackage(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a 500-spec package")
	}
	pkgs := loadScalePackage(t)
	if n := analyzeAndReport(t, pkgs, io.Discard); n != scaleSpecs {
		t.Fatalf("reported %d specs, want %d", n, scaleSpecs)
	}
}

// BenchmarkAnalyze500Specs measures the analysis and report of one package
// of 500 specs with 5-10 SOACs each (the bound is 2 s), after
// loading and type-checking, which the go command's own caches dominate.
func BenchmarkAnalyze500Specs(b *testing.B) {
	pkgs := loadScalePackage(b)
	for b.Loop() {
		analyzeAndReport(b, pkgs, io.Discard)
	}
}

// BenchmarkAnalyze500SpecsCluster is BenchmarkAnalyze500Specs with each
// clustering method.
func BenchmarkAnalyze500SpecsCluster(b *testing.B) {
	pkgs := loadScalePackage(b)
	for _, m := range fusion.Methods() {
		b.Run(m, func(b *testing.B) {
			for b.Loop() {
				analyzeAndReportWith(b, pkgs, io.Discard, m)
			}
		})
	}
}

// BenchmarkLoad500Specs measures loading and type-checking the same
// package from source, for comparison.
func BenchmarkLoad500Specs(b *testing.B) {
	for b.Loop() {
		loadScalePackage(b)
	}
}
