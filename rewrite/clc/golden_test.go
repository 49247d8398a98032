package clc

import (
	"flag"
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
	packages.NeedTypesInfo | packages.NeedImports

var (
	loadMu    sync.Mutex
	loadCache = map[string][]*packages.Package{}
)

// load loads packages (cached per pattern list), failing on errors.
func load(t *testing.T, patterns ...string) []*packages.Package {
	t.Helper()
	loadMu.Lock()
	defer loadMu.Unlock()
	k := strings.Join(patterns, " ")
	if p, ok := loadCache[k]; ok {
		return p
	}
	pkgs, err := packages.Load(&packages.Config{Mode: loadMode}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("%v do not load", patterns)
	}
	loadCache[k] = pkgs
	return pkgs
}

// lambda is the function argument of a top-level SOAC call.
type lambda struct {
	expr ast.Expr
	decl *ast.FuncDecl // the function whose body holds the call
	// chunk marks the chunk function of a StreamRed, translated as a
	// chunk function that makes its row (Unit.Chunk).
	chunk bool
	// mapChunk marks the chunk function of a StreamMap (Unit.ChunkMap).
	mapChunk bool
}

// lambdas returns the function arguments of the SOAC calls of a package
// that are not inside another lambda, in source order.
func lambdas(pkg *packages.Package) []lambda {
	var out []lambda
	for _, file := range pkg.Syntax {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || strings.HasSuffix(pkg.Fset.Position(fd.Pos()).Filename, "_soac.go") {
				continue
			}
			// par.go holds the examples' specs again, for the parallel
			// backend: the same lambdas.
			if strings.HasSuffix(pkg.Fset.Position(fd.Pos()).Filename, "/par.go") {
				continue
			}
			var visit func(n ast.Node) bool
			visit = func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				fn, ok := calleeFunc(pkg.TypesInfo, call)
				if !ok || fn.Pkg() == nil || fn.Pkg().Path() != soacPath {
					return true
				}
				for i, a := range call.Args {
					if _, isFunc := pkg.TypesInfo.TypeOf(a).Underlying().(*types.Signature); isFunc {
						out = append(out, lambda{a, fd, fn.Name() == "StreamRed" && i == len(call.Args)-1, fn.Name() == "StreamMap" && i == 1})
						continue
					}
					ast.Inspect(a, visit)
				}
				return false
			}
			ast.Inspect(fd.Body, visit)
		}
	}
	return out
}

// translateOne translates one lambda into its own unit and describes the
// result: the program, captures and panic sites, or the refusal.
func translateOne(pkg *packages.Package, l lambda) (string, *Unit, *Func, error) {
	u := NewUnit(pkg.Fset, PackageResolver(pkg.Syntax, pkg.TypesInfo))
	var f *Func
	var err error
	var room ast.Expr // the row length of a chunk function
	switch x := ast.Unparen(l.expr).(type) {
	case *ast.FuncLit:
		if l.mapChunk {
			f, err = u.ChunkMap(x, pkg.TypesInfo)
			break
		}
		if sig, _ := pkg.TypesInfo.TypeOf(x).(*types.Signature); l.chunk && sig != nil && sig.Results().Len() == 1 {
			if _, ok := sig.Results().At(0).Type().Underlying().(*types.Slice); ok {
				f, room, err = u.Chunk(x, pkg.TypesInfo)
				break
			}
		}
		f, err = u.Lambda(x, pkg.TypesInfo)
	default:
		var id *ast.Ident
		switch x := x.(type) {
		case *ast.Ident:
			id = x
		case *ast.SelectorExpr:
			id = x.Sel
		}
		if id == nil {
			err = u.refuse(l.expr.Pos(), "function value", "a lambda must be a function literal or a declared function")
			break
		}
		if lit := boundLit(pkg, l.decl, id); lit != nil {
			// A local bound once to a literal, as analyzer/ir resolves it.
			f, err = u.Lambda(lit, pkg.TypesInfo)
			break
		}
		fn, ok := pkg.TypesInfo.Uses[id].(*types.Func)
		if !ok {
			err = u.refuse(l.expr.Pos(), "function value", "a lambda must be a function literal or a declared function")
			break
		}
		if l.mapChunk {
			f, err = u.ChunkMapDeclared(fn)
			break
		}
		if sel, isSel := x.(*ast.SelectorExpr); isSel {
			// A method value of a variable: its receiver is a capture.
			if s := pkg.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
				if recv, isVar := pkg.TypesInfo.Uses[identOf(sel.X)].(*types.Var); isVar {
					f, err = u.MethodValue(fn, recv, sel.Pos())
					break
				}
			}
		}
		f, err = u.Declared(fn)
	}
	var b strings.Builder
	pos := pkg.Fset.Position(l.expr.Pos())
	fmt.Fprintf(&b, "// ===== %s:%d:%d in %s\n", filepath.Base(pos.Filename), pos.Line, pos.Column, l.decl.Name.Name)
	if err != nil {
		msg := err.Error()
		if i := strings.Index(msg, "testdata/"); i >= 0 {
			msg = msg[i:]
		}
		fmt.Fprintf(&b, "// refused: %s\n\n", relPaths(msg))
		return b.String(), u, nil, err
	}
	fmt.Fprintf(&b, "// function %s\n", f.Name)
	if room != nil {
		fmt.Fprintf(&b, "// chunk function: row of length %s\n", types.ExprString(room))
	}
	if l.mapChunk {
		b.WriteString("// stream-map chunk function: its row is the chunk's part of the output\n")
	}
	for _, c := range f.Captures {
		fmt.Fprintf(&b, "// capture %s: %s (kernel params: %s; arg: %s)\n", c.Var.Name(), c.Type.C, strings.Join(c.KernelParams(), ", "), c.Arg())
	}
	for _, s := range u.Sites() {
		fmt.Fprintf(&b, "// panic site %d: %s:%d:%d %s\n", s.ID, filepath.Base(s.Pos.Filename), s.Pos.Line, s.Pos.Column, s.What)
	}
	if ok, p := u.NeedsFP64(); ok {
		fmt.Fprintf(&b, "// needs fp64 from %s:%d:%d\n", filepath.Base(p.Filename), p.Line, p.Column)
	}
	if o := u.BuildOptions(); o != "" {
		fmt.Fprintf(&b, "// build options: %s\n", o)
	}
	b.WriteString(u.Source())
	b.WriteString("\n")
	return b.String(), u, f, nil
}

// relPaths shortens absolute file names in a message to their base.
func relPaths(msg string) string {
	fields := strings.Fields(msg)
	for i, f := range fields {
		if strings.HasPrefix(f, "/") {
			fields[i] = filepath.Base(f)
		}
	}
	return strings.Join(fields, " ")
}

// golden compares got with the file, or rewrites it under -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the translation; diff with go test -update && git diff\n%s", path, firstDiff(string(want), got))
	}
}

// firstDiff shows the first differing line.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, x, y)
		}
	}
	return ""
}

// TestGolden translates every lambda of every testdata case and compares
// the OpenCL C with the case's .cl.golden file.
func TestGolden(t *testing.T) {
	ents, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, e := range ents {
		if e.IsDir() && e.Name() != "examples" {
			patterns = append(patterns, "./testdata/"+e.Name())
		}
	}
	for _, pkg := range load(t, patterns...) {
		t.Run(pkg.Name, func(t *testing.T) {
			var b strings.Builder
			for _, l := range lambdas(pkg) {
				s, _, _, _ := translateOne(pkg, l)
				b.WriteString(s)
			}
			golden(t, filepath.Join("testdata", pkg.Name, pkg.Name+".cl.golden"), b.String())
		})
	}
}

// TestExamples translates the lambdas of the project's examples; each
// example's translations (and refusals) are a golden file.
func TestExamples(t *testing.T) {
	for _, pkg := range load(t, "../../examples/...") {
		ls := lambdas(pkg)
		if len(ls) == 0 {
			continue
		}
		t.Run(pkg.Name, func(t *testing.T) {
			var b strings.Builder
			for _, l := range ls {
				s, _, _, _ := translateOne(pkg, l)
				b.WriteString(s)
			}
			golden(t, filepath.Join("testdata", "examples", pkg.Name+".cl.golden"), b.String())
		})
	}
}

// boundLit returns the function literal a local variable id is defined
// with in decl, if any.
func boundLit(pkg *packages.Package, decl *ast.FuncDecl, id *ast.Ident) *ast.FuncLit {
	obj := pkg.TypesInfo.Uses[id]
	var lit *ast.FuncLit
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				if li, ok := l.(*ast.Ident); ok && obj != nil && pkg.TypesInfo.Defs[li] == obj {
					lit, _ = as.Rhs[i].(*ast.FuncLit)
				}
			}
		}
		return lit == nil
	})
	return lit
}

// TestIndexReadsGolden translates the lambdas of testdata/indexreads with
// LambdaReads: each read v[p] of a slice v the lambda captures, p one of
// its parameters, is an index read, grouped by v in the order of first
// reads (the fusion engine's Kernel.Gathers are found by the engine; the
// test takes every such read).
func TestIndexReadsGolden(t *testing.T) {
	pkg := load(t, "./testdata/indexreads")[0]
	var b strings.Builder
	for _, l := range lambdas(pkg) {
		lit, ok := ast.Unparen(l.expr).(*ast.FuncLit)
		if !ok {
			t.Fatalf("%s: not a literal", types.ExprString(l.expr))
		}
		reads := indexReadsOf(pkg.TypesInfo, lit)
		u := NewUnit(pkg.Fset, PackageResolver(pkg.Syntax, pkg.TypesInfo))
		f, err := u.LambdaReads(lit, pkg.TypesInfo, reads)
		pos := pkg.Fset.Position(lit.Pos())
		fmt.Fprintf(&b, "// ===== %s:%d:%d in %s\n", filepath.Base(pos.Filename), pos.Line, pos.Column, l.decl.Name.Name)
		if err != nil {
			t.Fatalf("%s: %v", l.decl.Name.Name, err)
		}
		fmt.Fprintf(&b, "// function %s\n", f.Name)
		for i, r := range f.Reads {
			fmt.Fprintf(&b, "// index read %s (%d reads): parameter %s %s\n", r.Name, len(reads[i]), r.Type.C, r.C)
		}
		for _, c := range f.Captures {
			fmt.Fprintf(&b, "// capture %s: %s\n", c.Var.Name(), c.Type.C)
		}
		for _, s := range u.Sites() {
			fmt.Fprintf(&b, "// panic site %d: %s:%d:%d %s\n", s.ID, filepath.Base(s.Pos.Filename), s.Pos.Line, s.Pos.Column, s.What)
		}
		b.WriteString(u.Source())
		b.WriteString("\n")
	}
	golden(t, filepath.Join("testdata", "indexreads", "indexreads.reads.cl.golden"), b.String())
}

// indexReadsOf returns the reads v[p] in lit of each captured slice v at
// a parameter p of lit, by v in the order of first reads.
func indexReadsOf(info *types.Info, lit *ast.FuncLit) [][]*ast.IndexExpr {
	params := map[types.Object]bool{}
	for _, f := range lit.Type.Params.List {
		for _, n := range f.Names {
			params[info.Defs[n]] = true
		}
	}
	var order []types.Object
	by := map[types.Object][]*ast.IndexExpr{}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		ix, ok := n.(*ast.IndexExpr)
		if !ok {
			return true
		}
		v, ok1 := ast.Unparen(ix.X).(*ast.Ident)
		p, ok2 := ast.Unparen(ix.Index).(*ast.Ident)
		if !ok1 || !ok2 || !params[info.Uses[p]] {
			return true
		}
		obj := info.Uses[v]
		if _, isSlice := obj.Type().Underlying().(*types.Slice); !isSlice || obj.Pos() >= lit.Pos() && obj.Pos() < lit.End() {
			return true
		}
		if by[obj] == nil {
			order = append(order, obj)
		}
		by[obj] = append(by[obj], ix)
		return true
	})
	var out [][]*ast.IndexExpr
	for _, o := range order {
		out = append(out, by[o])
	}
	return out
}

// identOf returns e as an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}
