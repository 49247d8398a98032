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

// TestChunkRefusals checks that Unit.Chunk refuses the chunk functions
// whose row it cannot place before the launch, each with its reason, and
// accepts the row made from captures.
func TestChunkRefusals(t *testing.T) {
	cases := []struct{ body, want string }{
		{`rowA := make([]int, k); for _, x := range chunk { rowA[x]++ }; return rowA`, ""},
		{`rowA := make([]int, 2*len(cs)+1); return rowA`, ""},
		{`m := k; rowA := make([]int, m); return rowA`, "a local of the chunk function"},
		{`rowA := make([]int, len(chunk)); return rowA`, "a local of the chunk function"},
		{`rowA := make([]int, k); rowB := make([]int, k); _ = rowB; return rowA`, "second make"},
		{`rowA := make([]int, k, 2*k); return rowA`, "make with a capacity"},
		{`rowA := make([]int, k); if k > 3 { return cs[:1] }; return rowA`, "a chunk function returns the row it makes"},
		{`rowA := make([]int, k); rowA = cs; return rowA`, "assignment to the row"},
		{`return cs`, "does not begin a top-level row := make"},
		{`rowA := make([]int, k/2); return rowA`, "not made of constants"},
	}
	for _, c := range cases {
		src := "package p\nfunc f(cs []int, k int) {\n_ = func(chunk []int) []int {\n" + strings.ReplaceAll(c.body, "; ", "\n") + "\n}\n}\n"
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "p.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{file}, info); err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		var lit *ast.FuncLit
		ast.Inspect(file, func(n ast.Node) bool {
			if l, ok := n.(*ast.FuncLit); ok && lit == nil {
				lit = l
			}
			return lit == nil
		})
		u := NewUnit(fset, nil)
		_, n, err := u.Chunk(lit, info)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.body, err)
		case c.want == "" && n == nil:
			t.Errorf("%s: no row length", c.body)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want a refusal naming %q", c.body, err, c.want)
		}
	}
}
