package rewrite

// This file regenerates a package inside an analysis pass (a vet run) as
// soacgen would generate it from the files on disk. It does not compare
// the result with the files on disk: the caller does.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/soacgen/soacgen/analyzer/build"
	"github.com/soacgen/soacgen/analyzer/purity"
)

// Regenerate returns the files soacgen would write now for the package
// that pass analyses (its non-test files, as soacgen sees no test files),
// byte for byte, and whether soacgen would write them at all.
//
// The pass cannot simply be handed to Generate: it holds soacgen's
// previous outputs, and what Generate writes depends on them: the fresh
// names it picks avoid every name of the package scope, so a name a stale
// output declares (the old NAME of a renamed spec) would change them, and
// a spec calling another spec's generated function would see that
// function's type and purity as generated, not the spec's. The first makes
// the difference between reporting a stale function and missing it
// (analyzer/soacvet's testdata package stale/renamed shows one). soacgen
// never sees those outputs:
// it loads the package through Overlay, which blanks every file carrying
// soacgen's header to its package clause and appends to each spec's file
// a stub that declares the spec's NAME with the spec's signature.
// Regenerate rebuilds that view from the pass: the pass's files without
// soacgen's outputs, each spec's file parsed again with its stubs
// appended (into pass.Fset, under the same name, so positions in the
// spec's part are unchanged); type-checked again against the very
// packages the pass imports; purity recomputed on the new types with the
// facts the pass's purity analysis imported (purity.Verdicts.Reanalyze);
// then the IR builder, the fusion engine with default options (no
// -fuse.gas) and Generate, exactly as soacgen runs them. The other syntax
// trees are shared with the pass: the second type-check records its own
// types.Info and leaves the pass's unchanged.
//
// ok is false, with nil outputs, when soacgen would write nothing: the
// package does not type-check in that view (soacgen reports the type
// errors), a //soac:fuse directive is malformed (soacgen reports it), or
// pur cannot be recomputed (pur.Reanalyze returns nil). err is an error
// soacgen would report too: Generate's, or the first type error of that
// view when the package itself type-checks (a function declared by hand
// with a spec's NAME).
func Regenerate(pass *analysis.Pass, pur *purity.Verdicts) (outs []Output, ok bool, err error) {
	fset := pass.Fset
	name := func(f *ast.File) string { return fset.File(f.FileStart).Name() }
	var files []*ast.File
	for _, f := range pass.Files {
		n := name(f)
		if strings.HasSuffix(n, "_test.go") || GeneratedFile(f) {
			continue
		}
		if !hasSpecComment(f) {
			files = append(files, f)
			continue
		}
		src, err := pass.ReadFile(n)
		if err != nil {
			return nil, false, nil
		}
		stub := stubs(fset, f, src)
		if stub == nil {
			files = append(files, f)
			continue
		}
		// Overlay appends the stubs to the spec's own file: parse that
		// text as the file (the spec's part keeps its offsets).
		sf, err := parser.ParseFile(fset, n, append(src[:len(src):len(src)], stub...), parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, false, nil // a signature the stub cannot repeat: soacgen fails to load too
		}
		files = append(files, sf)
	}
	// A hand-written file at a spec's output path is not hidden by
	// Overlay: soacgen then fails on the names it declares twice (and Sync
	// would refuse to overwrite it). Leave it out here, so that the caller
	// can compare it with the output and say what is wrong.
	outPaths := map[string]bool{}
	for _, f := range files {
		if hasSpecComment(f) {
			outPaths[OutputPath(name(f))] = true
		}
	}
	files = slices.DeleteFunc(files, func(f *ast.File) bool { return outPaths[name(f)] })
	// The loader lists a package's files sorted by name, the overlaid
	// output paths among them.
	slices.SortStableFunc(files, func(a, b *ast.File) int { return strings.Compare(filepath.Base(name(a)), filepath.Base(name(b))) })

	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		Instances:    map[*ast.Ident]types.Instance{},
		FileVersions: map[*ast.File]string{},
	}
	var typeErrors []types.Error
	conf := types.Config{
		Importer:  importsOf(pass),
		Sizes:     pass.TypesSizes,
		GoVersion: pass.Pkg.GoVersion(),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				typeErrors = append(typeErrors, te)
			}
		},
	}
	pkg, _ := conf.Check(pass.Pkg.Path(), fset, files, info)
	if len(typeErrors) > 0 && len(pass.TypeErrors) == 0 {
		// The package type-checks, but not as soacgen loads it: a
		// declaration conflicts with a spec's NAME (a hand-written
		// function of that name, or two specs asking for one NAME).
		// soacgen fails with this error; say so.
		te := typeErrors[0]
		p := fset.Position(te.Pos)
		return nil, false, fmt.Errorf("the package does not type-check with each spec's NAME declared, as soacgen loads it: %s:%d:%d: %s", filepath.Base(p.Filename), p.Line, p.Column, te.Msg)
	}
	if len(typeErrors) > 0 || pkg == nil {
		return nil, false, nil
	}
	pur2 := pur.Reanalyze(fset, files, pkg, info)
	if pur2 == nil {
		return nil, false, nil
	}
	prog := build.Build(fset, files, pkg, info, pur2)
	if len(prog.Problems) > 0 {
		return nil, false, nil
	}
	// No Plans: Generate fuses every spec with default options.
	outs, err = Generate(&Input{Fset: fset, Files: files, Pkg: pkg, Info: info, Prog: prog, ReadFile: pass.ReadFile})
	if err != nil {
		return nil, false, err
	}
	return outs, true, nil
}

// GeneratedFile reports whether f carries soacgen's header (the syntax
// tree's form of IsGenerated).
func GeneratedFile(f *ast.File) bool {
	return len(f.Comments) > 0 && f.Comments[0].Pos() == f.FileStart && f.Comments[0].List[0].Text == Header
}

// hasSpecComment reports whether a comment of f starts with "//soac:fuse "
// (a cheap test before stubs, which looks at doc comments only).
func hasSpecComment(f *ast.File) bool {
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//soac:fuse ") {
				return true
			}
		}
	}
	return false
}

// importsOf returns an importer that resolves the import paths written in
// pass's files to the packages the pass's type-check imported for them
// (vendored and otherwise mapped paths included).
func importsOf(pass *analysis.Pass) types.Importer {
	pkgs := map[string]*types.Package{}
	for _, f := range pass.Files {
		for _, is := range f.Imports {
			path, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				continue
			}
			var obj types.Object
			if is.Name != nil {
				obj = pass.TypesInfo.Defs[is.Name]
			}
			if obj == nil {
				obj = pass.TypesInfo.Implicits[is]
			}
			if pn, ok := obj.(*types.PkgName); ok {
				pkgs[path] = pn.Imported()
			}
		}
	}
	return importerFunc(func(path string) (*types.Package, error) {
		if p, ok := pkgs[path]; ok {
			return p, nil
		}
		return nil, &importError{path}
	})
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

type importError struct{ path string }

func (e *importError) Error() string {
	return "package " + strconv.Quote(e.path) + " is not imported by the analysed package"
}
