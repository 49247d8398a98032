package parallel

// Below its grain a generated parallel function must run what
// the cpu backend's runs. The backend places the cpu backend's own code
// of each kernel in the branch `if parallel.Sequential(length, grain)`
// takes (belowGrain, seqOrPar). This test checks the generated files of
// the examples, which hold each spec twice, X for the cpu backend and
// XPar for the parallel one: XPar's body, with each such if statement
// replaced by its first branch, must be X's body up to the names of
// locals. A sequential branch that allocated with parallel.Alloc, cut an
// output with [:n], declared anything beside the cpu backend's code or
// ran another loop fails it.

import (
	"github.com/soacgen/soacgen/rewrite/hostgo"

	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// nestedSplit are the Par functions whose sequential branch differs from
// the cpu backend's code on purpose: a kernel nested in their lambdas
// folds over 4 accumulators from 8 inner elements on (nested.go) in
// both branches, so that the association depends on the inner length
// only, never on the outer one.
var nestedSplit = map[string]bool{"MatMulPar": true, "MatMul32Par": true}

func TestSequentialBranchIsCPU(t *testing.T) {
	root := moduleRoot(t)
	files, err := filepath.Glob(filepath.Join(root, "examples", "*", "*_soac.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	type fn struct {
		decl   *ast.FuncDecl
		parPkg string // the file's name of runtime/parallel
	}
	funcs := map[string]fn{} // "dir.Name"
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
				funcs[filepath.Dir(file)+"."+fd.Name.Name] = fn{fd, importName(f, hostgo.ParallelPath)}
			}
		}
	}
	var keys []string
	for k := range funcs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pairs, kernels := 0, 0
	for _, k := range keys {
		par := funcs[k]
		base, ok := strings.CutSuffix(k, "Par")
		if !ok || par.parPkg == "" || !par.decl.Name.IsExported() {
			continue
		}
		cpu, ok := funcs[base]
		if !ok {
			continue
		}
		name := par.decl.Name.Name
		found := 0
		body := spliceSequential(par.decl.Body, par.parPkg, &found)
		if found == 0 {
			t.Errorf("%s: no `if %s.Sequential(...)` statement", name, par.parPkg)
			continue
		}
		pairs++
		kernels += found
		got, want := canonical(fset, body), canonical(fset, cpu.decl.Body)
		if nestedSplit[name] {
			if got == want {
				t.Errorf("%s: its sequential branch is the cpu backend's code now: remove it from nestedSplit", name)
			}
			continue
		}
		if got != want {
			t.Errorf("%s below its grain is not %s's code (names of locals aside):\n%s", name, cpu.decl.Name.Name, firstDiff(want, got))
		}
	}
	t.Logf("compared %d functions of %d kernels", pairs, kernels)
	if pairs < 12 || kernels < 14 {
		t.Fatalf("compared %d functions of %d kernels, want at least 12 of 14: were the examples' Par functions renamed?", pairs, kernels)
	}
}

// spliceSequential returns a copy of body in which every statement `if
// par.Sequential(...) { X } else { Y }` is replaced by X's statements,
// counting them in found, and a lone stream's temporary (parStream: `var
// r T; r = e; v := r`, where the cpu backend's code is `v := e`) is
// dropped.
func spliceSequential(body *ast.BlockStmt, par string, found *int) *ast.BlockStmt {
	body = copyNode(body).(*ast.BlockStmt)
	splice := func(list []ast.Stmt) []ast.Stmt {
		var out []ast.Stmt
		spliced := map[ast.Stmt]bool{}
		for _, s := range list {
			if is, ok := s.(*ast.IfStmt); ok && is.Init == nil && isCall(is.Cond, par, "Sequential") {
				*found++
				out = append(out, is.Body.List...)
				if len(is.Body.List) == 1 {
					spliced[is.Body.List[0]] = true
				}
				continue
			}
			out = append(out, s)
		}
		// var r T; r = e; v := r (or v = r) → v := e (v = e), where
		// r = e is a whole sequential branch.
		for i := 0; i+2 < len(out); i++ {
			r, ok := declaredVar(out[i])
			if !ok || !spliced[out[i+1]] {
				continue
			}
			set, ok := out[i+1].(*ast.AssignStmt)
			if !ok || set.Tok != token.ASSIGN || len(set.Lhs) != 1 || len(set.Rhs) != 1 || !isIdent(set.Lhs[0], r) {
				continue
			}
			use, ok := out[i+2].(*ast.AssignStmt)
			if !ok || len(use.Lhs) != 1 || len(use.Rhs) != 1 || !isIdent(use.Rhs[0], r) {
				continue
			}
			use.Rhs[0] = set.Rhs[0]
			out = append(out[:i], out[i+2:]...)
		}
		return out
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			n.List = splice(n.List)
		case *ast.CaseClause:
			n.Body = splice(n.Body)
		case *ast.CommClause:
			n.Body = splice(n.Body)
		}
		return true
	})
	return body
}

// declaredVar returns the name s declares when it is `var r T`.
func declaredVar(s ast.Stmt) (string, bool) {
	d, ok := s.(*ast.DeclStmt)
	if !ok {
		return "", false
	}
	g, ok := d.Decl.(*ast.GenDecl)
	if !ok || g.Tok != token.VAR || len(g.Specs) != 1 {
		return "", false
	}
	v := g.Specs[0].(*ast.ValueSpec)
	if len(v.Names) != 1 || len(v.Values) != 0 {
		return "", false
	}
	return v.Names[0].Name, true
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// isCall reports whether e calls pkg.name.
func isCall(e ast.Expr, pkg, name string) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == name && isIdent(sel.X, pkg)
}

// canonical prints body with its locals (the names it declares) and its
// kernels' vector functions renamed
// in the order they first occur and no positions, so that two bodies
// that differ only in the names of locals print the same.
func canonical(fset *token.FileSet, body *ast.BlockStmt) string {
	body = copyNode(body).(*ast.BlockStmt)
	locals := map[string]bool{}
	declare := func(es ...ast.Expr) {
		for _, e := range es {
			if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
				locals[id.Name] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				declare(n.Lhs...)
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				declare(n.Key, n.Value)
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				declare(id)
			}
		case *ast.TypeSpec:
			declare(n.Name)
		case *ast.LabeledStmt:
			declare(n.Label)
		case *ast.FuncType:
			for _, l := range []*ast.FieldList{n.Params, n.Results} {
				if l != nil {
					for _, fd := range l.List {
						for _, id := range fd.Names {
							declare(id)
						}
					}
				}
			}
		}
		return true
	})
	names := map[string]string{}
	var rename func(n ast.Node) bool
	rename = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, rename)
			return false
		case *ast.Ident:
			// A kernel's vector function is named after the function
			// generated (its forms are the translator's of one kernel).
			if locals[n.Name] || strings.HasPrefix(n.Name, "soacgenVec_") {
				c, ok := names[n.Name]
				if !ok {
					c = "v" + strconv.Itoa(len(names))
					names[n.Name] = c
				}
				n.Name = c
			}
		}
		return true
	}
	ast.Inspect(body, rename)
	clearPos(reflect.ValueOf(body))
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, body); err != nil {
		return "error: " + err.Error()
	}
	return b.String()
}

// copyNode returns a deep copy of n (the AST holds no cycles below a
// function body).
func copyNode(n ast.Node) ast.Node {
	return deepCopy(reflect.ValueOf(n)).Interface().(ast.Node)
}

func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		if _, ok := v.Interface().(*ast.Object); ok {
			return reflect.Zero(v.Type())
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(deepCopy(v.Elem()))
		return c
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(deepCopy(v.Elem()))
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(deepCopy(v.Index(i)))
		}
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		for i := range v.NumField() {
			if c.Field(i).CanSet() {
				c.Field(i).Set(deepCopy(v.Field(i)))
			}
		}
		return c
	}
	return v
}

// clearPos sets every token.Pos below v to NoPos, so that the printer
// lays out the code by its structure only.
func clearPos(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			clearPos(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			clearPos(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Type() == reflect.TypeFor[token.Pos]() && f.CanSet() {
				f.SetInt(0)
				continue
			}
			clearPos(f)
		}
	}
}

// firstDiff returns the first line where want and got differ, with a
// few lines of context.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		if i >= len(w) || i >= len(g) || w[i] != g[i] {
			lo := max(0, i-3)
			var b strings.Builder
			for j := lo; j < i+4; j++ {
				if j < len(w) {
					b.WriteString("\tcpu: " + w[j] + "\n")
				}
			}
			for j := lo; j < i+4; j++ {
				if j < len(g) {
					b.WriteString("\tpar: " + g[j] + "\n")
				}
			}
			return b.String()
		}
	}
	return ""
}

// TestSequentialBranchCheck checks the comparison itself: a sequential
// branch that renames locals matches, one that allocates with
// parallel.Alloc, reslices, or runs a different loop does not.
func TestSequentialBranchCheck(t *testing.T) {
	const cpu = `package p
func F(xs []int) []int {
	var t []int
	{
		n := len(xs)
		var out []int
		out = make([]int, n)
		for i := 0; i < n; i++ {
			out[i] = xs[i] + 1
		}
		t = out
	}
	return t
}`
	par := func(seq string) string {
		return `package p
func FPar(xs []int) []int {
	var t []int
	if parallel.Sequential(len(xs), 100) {
		{
			n2 := len(xs)
			var out3 []int
			` + seq + `
			for i4 := 0; i4 < n2; i4++ {
				out3[i4] = xs[i4] + 1
			}
			t = out3
		}
	} else {
		parallel.For(len(xs), 10, func(lo, hi int) {})
	}
	return t
}`
	}
	fset := token.NewFileSet()
	body := func(src string) *ast.BlockStmt {
		f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		return f.Decls[0].(*ast.FuncDecl).Body
	}
	want := canonical(fset, body(cpu))
	for seq, same := range map[string]bool{
		"out3 = make([]int, n2)":                  true,
		"out3 = parallel.Alloc[int](n2)":          false,
		"out3 = make([]int, n2)[:n2]":             false,
		"out3 = make([]int, n2+1)":                false,
		"out3 = make([]int, n2); _ = out3[n2-1:]": false,
	} {
		found := 0
		got := canonical(fset, spliceSequential(body(par(seq)), "parallel", &found))
		if found != 1 {
			t.Errorf("%s: %d sequential branches found, want 1", seq, found)
		}
		if (got == want) != same {
			t.Errorf("%s: same as the cpu code = %v, want %v\n%s", seq, got == want, same, firstDiff(want, got))
		}
	}
}
