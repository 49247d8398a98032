package purity

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"

	"golang.org/x/tools/go/analysis"
)

// This file analyses a second view of an analysed package (its files type
// checked again, some replaced) with the facts the first analysis
// imported. It does not decide what the view holds: its caller does.

// Reanalyze returns the verdicts on another type-check of r's package:
// files, pkg and info come from checking a variant of the package's files
// (soacgen's view of it, say, with its generated files replaced by stubs)
// against the same imported packages, so that every function of another
// package it references is one r's analysis referenced too. The effects of
// those functions are the ones r's analysis imported; a function of
// another package that r's analysis did not import is judged by the
// standard-library table or as unknown (impure). Reanalyze exports no
// facts.
//
// It returns nil when r judged its package by the standard-library table
// alone (a standard-library package, or one whose type errors broke the
// analysis): r imported nothing then, so its verdicts cannot be carried
// over, and when the new view breaks the analysis.
func (r *Verdicts) Reanalyze(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info) (v *Verdicts) {
	if r.s.tableOnly {
		return nil
	}
	pass := &analysis.Pass{
		Analyzer:          Analyzer,
		Fset:              fset,
		Files:             files,
		Pkg:               pkg,
		TypesInfo:         info,
		ResultOf:          map[*analysis.Analyzer]any{},
		Report:            func(analysis.Diagnostic) {},
		ImportObjectFact:  func(types.Object, analysis.Fact) bool { return false },
		ExportObjectFact:  func(types.Object, analysis.Fact) {},
		ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
		ExportPackageFact: func(analysis.Fact) {},
		AllObjectFacts:    func() []analysis.ObjectFact { return nil },
		AllPackageFacts:   func() []analysis.PackageFact { return nil },
	}
	s := newState(pass)
	// The cached effects are never modified once cached, so the two
	// analyses can share them.
	s.external = maps.Clone(r.s.external)
	defer func() {
		if recover() != nil {
			v = nil
		}
	}()
	return s.analyze()
}
