package build

import (
	"fmt"
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
	// A package with type errors is built as far as its types allow: a
	// function whose types are too incomplete to model is left out with a
	// Problem saying so (see Build).
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	b := Build
	if len(pass.TypeErrors) > 0 {
		b = buildDespiteErrors
	}
	return b(pass.Fset, pass.Files, pass.Pkg, pass.TypesInfo, purityOf(pass)), nil
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
	return build(fset, files, pkg, info, pur, buildFunc)
}

// buildDespiteErrors is Build for a package with type errors: a function
// whose missing type information breaks the builder is left out of the
// program, with a Problem at its name saying so, and the other functions are
// built as usual.
func buildDespiteErrors(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info, pur purity.Result) *ir.Program {
	return build(fset, files, pkg, info, pur, func(fset *token.FileSet, info *types.Info, pur purity.Result, fd *ast.FuncDecl, obj *types.Func) (fn *ir.Function) {
		defer func() {
			if r := recover(); r != nil {
				fn = nil
			}
		}()
		return buildFunc(fset, info, pur, fd, obj)
	})
}

// funcBuilder builds the IR of one function declaration; it returns nil
// when it cannot.
type funcBuilder func(fset *token.FileSet, info *types.Info, pur purity.Result, fd *ast.FuncDecl, obj *types.Func) *ir.Function

func build(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info, pur purity.Result, buildOne0 funcBuilder) *ir.Program {
	prog := &ir.Program{Fset: fset, Pkg: pkg}
	buildOne := func(fset *token.FileSet, info *types.Info, pur purity.Result, fd *ast.FuncDecl, obj *types.Func, prog *ir.Program) *ir.Function {
		fn := buildOne0(fset, info, pur, fd, obj)
		if fn == nil {
			prog.Problems = append(prog.Problems, ir.Problem{Pos: fd.Name.Pos(), Untyped: true,
				Msg: fmt.Sprintf("%s is not analysed: its type information is incomplete (fix the type errors first)", fd.Name.Name)})
		}
		return fn
	}
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
			fn := buildOne(fset, info, pur, fd, obj, prog)
			if fn == nil {
				continue
			}
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
