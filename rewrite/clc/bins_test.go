package clc

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestBins checks which chunk functions Unit.Bins recognises as
// counting into bins, with the reason of each refusal, and the C of an
// accepted one.
func TestBins(t *testing.T) {
	cases := []struct{ row, body, want string }{
		{"int", `rowA := make([]int, k); for _, x := range chunk { rowA[x]++ }; return rowA`, ""},
		{"uint32", `rowA := make([]uint32, k); for _, x := range chunk { i := x % k; if i < 0 { i = -i }; rowA[i] += uint32(x) }; return rowA`, ""},
		{"int64", `rowA := make([]int64, k); for _, x := range chunk { for j := 0; j < 3; j++ { if j == x { break } }; rowA[x] -= 2 }; return rowA`, ""},
		{"int", `rowA := make([]int, k); for range chunk { rowA[0]-- }; return rowA`, ""},
		{"int", `rowA := make([]int, k); for i, x := range chunk { rowA[x] += i }; return rowA`, "index of the chunk's element"},
		{"int", `rowA := make([]int, k); for _, x := range chunk { rowA[x] = 1 }; return rowA`, "it is not row[i] += v"},
		{"int", `rowA := make([]int, k); for _, x := range chunk { rowA[rowA[x]]++ }; return rowA`, "it reads rowA"},
		{"int", `rowA := make([]int, k); for _, x := range chunk { rowA[x] += len(chunk) }; return rowA`, "it reads chunk"},
		{"int", `rowA := make([]int, k); for _, x := range chunk { if x < 0 { continue }; rowA[x]++ }; return rowA`, "continue leaves or skips"},
		{"int", `rowA := make([]int, k); for _, x := range chunk { rowA[x]++; rowA[0]++ }; return rowA`, "it reads rowA"},
		{"int", `rowA := make([]int, k); rowA[0] = 1; for _, x := range chunk { rowA[x]++ }; return rowA`, "chunk function"},
		{"int", `rowA := make([]int, k); for _, x := range cs { rowA[x]++ }; return rowA`, "not a range over the chunk"},
		{"float64", `rowA := make([]float64, k); for _, x := range chunk { rowA[x]++ }; return rowA`, "float bins are added in chunk order"},
		{"int16", `rowA := make([]int16, k); for _, x := range chunk { rowA[x]++ }; return rowA`, "32- or 64-bit integers"},
	}
	for _, c := range cases {
		src := "package p\nfunc f(cs []int, k int) {\n_ = func(chunk []int) []" + c.row + " {\n" + strings.ReplaceAll(c.body, "; ", "\n") + "\n}\n}\n"
		lit, info, fset := parseLit(t, src)
		u := NewUnit(fset, nil)
		b, err := u.Bins(lit, info)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.body, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want a refusal naming %q", c.body, err, c.want)
		case c.want == "" && (b.Len == nil || b.Fn == nil):
			t.Errorf("%s: no function or length", c.body)
		}
	}
	lit, info, fset := parseLit(t, "package p\nfunc f(cs []int, k int) {\n_ = func(chunk []int) []int {\nb := make([]int, k)\nfor _, x := range chunk {\ni := x % k\nb[i] += cs[0]\n}\nreturn b\n}\n}\n")
	u := NewUnit(fset, nil)
	b, err := u.Bins(lit, info)
	if err != nil {
		t.Fatal(err)
	}
	src := u.Source()
	for _, want := range []string{b.Fn.Proto, "long i = soac__rem_long(x, cap__k", "return " + b.Fn.Result.C + "__mk(i, "} {
		if !strings.Contains(src, want) {
			t.Errorf("the program lacks %q:\n%s", want, src)
		}
	}
	if len(b.Fn.Captures) != 2 || b.One {
		t.Errorf("captures %v, One %v: want k and cs, not One", b.Fn.Captures, b.One)
	}
}

// parseLit type-checks src and returns its first function literal.
func parseLit(t *testing.T, src string) (*ast.FuncLit, *types.Info, *token.FileSet) {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{file}, info); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	var lit *ast.FuncLit
	ast.Inspect(file, func(n ast.Node) bool {
		if l, ok := n.(*ast.FuncLit); ok && lit == nil {
			lit = l
		}
		return lit == nil
	})
	return lit, info, fset
}
