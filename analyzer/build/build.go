package build

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/purity"
)

var _ = inspect.Analyzer // required (see analyzerRequires): analyzers requiring soacir share it

// Analyzer builds the IR of the package's functions that use runtime/soac.
// It reports nothing; its result is an *ir.Program.
var Analyzer = &analysis.Analyzer{
	Name:       "soacir",
	Doc:        "build the let-normalised IR of functions that call runtime/soac\n\nThe analyzer reports nothing; its result is an *ir.Program (see package analyzer/ir).",
	URL:        "https://pkg.go.dev/github.com/soacgen/soacgen/analyzer/build",
	Requires:   analyzerRequires(),
	ResultType: reflect.TypeOf((*ir.Program)(nil)),
	Run:        run,
}

func run(pass *analysis.Pass) (any, error) {
	return Build(pass.Fset, pass.Files, pass.Pkg, pass.TypesInfo, purityOf(pass)), nil
}

// SOACPath is the import path of the combinator package.
const SOACPath = "github.com/soacgen/soacgen/runtime/soac"

// combinators are the names of the runtime/soac functions the IR models.
// Every other function of the package is an ordinary call.
var combinators = map[string]bool{
	"Map": true, "Map2": true, "Map3": true, "Reduce": true, "Scan": true,
	"Filter": true, "StreamMap": true, "StreamRed": true, "Iota": true, "Replicate": true,
}

// Build builds the IR of the functions of one type-checked package that use
// runtime/soac, in source order (files in the order given). pur answers the
// purity questions; info must record Types, Defs, Uses, Implicits,
// Selections and Instances. Build never fails: what it cannot model is
// recorded in Function.Unsupported or Program.Problems.
func Build(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info, pur purity.Result) *ir.Program {
	prog := &ir.Program{Fset: fset, Pkg: pkg}
	dirs := parseDirectives(fset, files, prog)
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			dir := dirs[fd]
			if dir == nil && !usesCombinator(info, fd.Body) {
				continue
			}
			obj, _ := info.Defs[fd.Name].(*types.Func)
			fn := buildFunc(fset, info, pur, fd, obj)
			fn.Fuse = dir
			prog.Funcs = append(prog.Funcs, fn)
		}
	}
	sort.SliceStable(prog.Problems, func(i, j int) bool { return prog.Problems[i].Pos < prog.Problems[j].Pos })
	return prog
}

// usesCombinator reports whether n refers to a runtime/soac combinator
// anywhere, function literals included.
func usesCombinator(info *types.Info, n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false
		}
		if id, ok := n.(*ast.Ident); ok && combinatorName(info.Uses[id]) != "" {
			found = true
		}
		return true
	})
	return found
}

// combinatorName returns the name of obj if it is one of the modelled
// runtime/soac combinators, and "" otherwise.
func combinatorName(obj types.Object) string {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != SOACPath {
		return ""
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return ""
	}
	if !combinators[fn.Name()] {
		return ""
	}
	return fn.Name()
}

// calleeIdent returns the identifier naming the function in a call's Fun
// (through parentheses, package qualifiers and explicit instantiation), or
// nil.
func calleeIdent(fun ast.Expr) *ast.Ident {
	fun = ast.Unparen(fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
	}
	switch f := fun.(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}
