package main

import (
	"cmp"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/soacgen/soacgen/analyzer/fusiongraph"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/report"
	"github.com/soacgen/soacgen/rewrite"
)

// result is what analyze produces: the fusion report, the generated files
// of the specs, and the Go files of the loaded packages (among which Sync
// finds soacgen's stale outputs).
type result struct {
	rep   *report.Report
	outs  []rewrite.Output
	files []string
	// listed are the files among files that the build lists (files also
	// holds build-ignored tombstones, which Sync deletes).
	listed []string
	graphs []*fusiongraph.Graph // of the specs, in the report's order
	// warnings are printed on standard error; the run still succeeds.
	warnings []string
	// known are the packages the module builds (buildable): the loaded
	// packages and their dependencies.
	known map[string]bool
}

// analyze loads the packages matching patterns (relative to dir), runs
// soacgen's pipeline on each (rewrite.Run, with opts) and returns the
// fusion report and the generated code. soacgen's own outputs are hidden
// from the loader and each spec's NAME is declared by a stub in the spec's file
// (rewrite.Overlay), so that stale, broken or missing outputs do not stop
// it. When a package (or a dependency) has syntax or type errors, or a
// malformed //soac:fuse directive, it returns them instead, each formatted
// as "file:line:col: message" with the file relative to dir when it lies
// under it. The error result is for failures to run at all.
func analyze(dir string, patterns []string, opts rewrite.Options) (*result, []string, error) {
	wd, err := filepath.Abs(cmp.Or(dir, "."))
	if err != nil {
		return nil, nil, err
	}
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax | packages.NeedModule,
		Dir:  dir,
	}
	listed, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles, Dir: dir}, patterns...)
	if err == nil {
		var files []string
		for _, p := range listed {
			files = append(files, p.GoFiles...)
			// Outputs and specs the build context excludes
			// (contexts.go) load through the same overlay.
			files = append(files, goFiles(p.IgnoredFiles)...)
		}
		if cfg.Overlay, err = rewrite.Overlay(files); err != nil {
			return nil, nil, err
		}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, err
	}
	if errs := loadErrors(pkgs, wd); len(errs) > 0 {
		return nil, errs, nil
	}
	if len(pkgs) == 0 {
		return nil, nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}

	graph, err := checker.Analyze([]*analysis.Analyzer{rewrite.NewAnalyzer(opts)}, pkgs, nil)
	if err != nil {
		return nil, nil, err
	}
	rep := &report.Report{Packages: []*report.Package{}}
	res := &result{rep: rep, warnings: testSpecWarnings(listed, wd), known: buildable(pkgs)}
	var errs []string
	for _, act := range graph.Roots {
		r, perrs, err := generateAct(act, wd)
		if err != nil {
			return nil, nil, err
		}
		errs = append(errs, perrs...)
		res.outs = append(res.outs, r.Outputs...)
		res.files = append(res.files, act.Package.GoFiles...)
		res.listed = append(res.listed, act.Package.GoFiles...)
		for _, f := range act.Package.IgnoredFiles {
			if b, err := os.ReadFile(f); err == nil && rewrite.IsTombstone(b) {
				res.files = append(res.files, f)
			}
		}
		// Specs in files this build context excludes: generated in a
		// context of their own (contexts.go).
		other, files, cerrs, err := otherContexts(act.Package, cfg.Overlay, opts, wd)
		if err != nil {
			return nil, nil, err
		}
		errs = append(errs, cerrs...)
		res.outs = append(res.outs, other...)
		res.files = append(res.files, files...)
		root := ""
		if m := act.Package.Module; m != nil {
			root = m.Dir
		}
		ropts := r.ReportOptions(root, opts.Backend)
		rep.Packages = append(rep.Packages, report.NewPackage(act.Package.Fset, act.Package.PkgPath, r.Plans, ropts))
		res.graphs = append(res.graphs, specGraphs(act.Package.Fset, act.Package.PkgPath, r.Plans, ropts)...)
	}
	if len(errs) > 0 {
		return nil, errs, nil
	}
	slices.SortFunc(rep.Packages, func(a, b *report.Package) int { return cmp.Compare(a.Path, b.Path) })
	slices.SortStableFunc(res.graphs, func(a, b *fusiongraph.Graph) int { return cmp.Compare(a.Package, b.Package) })
	// Outputs (and so their warnings and -check's changes) by path.
	slices.SortStableFunc(res.outs, func(a, b rewrite.Output) int { return cmp.Compare(a.Path, b.Path) })
	return res, nil, nil
}

// generateAct returns the result of the pipeline (rewrite.NewAnalyzer)
// for the package of one action and its directive errors (file:line:col:
// message, relative to wd); the result has no outputs when there are
// errors.
func generateAct(act *checker.Action, wd string) (*rewrite.Result, []string, error) {
	if act.Err != nil {
		return nil, nil, fmt.Errorf("%s: %v", act.Package.PkgPath, act.Err)
	}
	r, ok := act.Result.(*rewrite.Result)
	if !ok || r == nil || r.Prog == nil {
		return nil, nil, fmt.Errorf("%s: the pipeline returned no result", act.Package.PkgPath)
	}
	var errs []string
	for _, p := range sortedProblems(act.Package.Fset, r.Prog.Problems) {
		errs = append(errs, relPos(act.Package.Fset, p.Pos, wd)+": "+p.Msg)
	}
	return r, errs, nil
}

// sortedProblems returns ps ordered by file name, then offset: token
// positions of different files follow the order the loader parsed them
// in, which varies from run to run.
func sortedProblems(fset *token.FileSet, ps []ir.Problem) []ir.Problem {
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b ir.Problem) int {
		pa, pb := fset.Position(a.Pos), fset.Position(b.Pos)
		return cmp.Or(cmp.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Offset, pb.Offset))
	})
	return ps
}

// loadErrors returns the errors of pkgs and their dependencies, in
// dependency order, without duplicates. When a file does not parse, the
// type errors are left out: the type checker sees the parser's partial
// syntax tree, so they are a cascade of the syntax errors (an undefined
// name, a missing return, a call with the wrong arguments), often at
// places the user did not write wrong. The syntax errors (and the go
// command's own) are then the whole list.
func loadErrors(pkgs []*packages.Package, wd string) []string {
	var errs []string
	seen := map[string]bool{}
	syntax := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			syntax = syntax || e.Kind == packages.ParseError
		}
	})
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if syntax && e.Kind == packages.TypeError {
				continue
			}
			msg := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				msg = relFile(e.Pos, wd) + ": " + e.Msg
			}
			if !seen[msg] {
				seen[msg] = true
				errs = append(errs, msg)
			}
		}
	})
	return errs
}

// relPos formats pos as file:line:col with the file relative to wd.
func relPos(fset *token.FileSet, pos token.Pos, wd string) string {
	if !pos.IsValid() {
		return "-"
	}
	return relFile(fset.Position(pos).String(), wd)
}

// relFile makes the file of a "file:line:col" string relative to wd when
// the file lies under wd.
func relFile(pos, wd string) string {
	if !filepath.IsAbs(pos) {
		return pos
	}
	prefix := wd + string(filepath.Separator)
	if rest, ok := strings.CutPrefix(pos, prefix); ok {
		return rest
	}
	return pos
}
