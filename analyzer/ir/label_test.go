package ir_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// TestLabel checks that temporaries are named by what the source holds
// and that UserText rewrites every mention of one, and nothing else.
func TestLabel(t *testing.T) {
	fset := token.NewFileSet()
	f := fset.AddFile("/src/p/x.go", -1, 100)
	f.SetLines([]int{0, 20, 40})
	call := &ast.CallExpr{Fun: &ast.SelectorExpr{X: &ast.Ident{Name: "soac", NamePos: f.Pos(25)}, Sel: ast.NewIdent("Map")}}
	soac := &ir.SOAC{Name: "Map", Call: call}
	tmp1 := &ir.Var{ID: 1, Name: "_soac1", Def: soac, Pos: call.Pos()}
	soac.Out = tmp1
	hoisted, err := parser.ParseExprFrom(fset, "/src/p/y.go", "xs[1:]", 0)
	if err != nil {
		t.Fatal(err)
	}
	plain := &ir.Plain{Hoisted: hoisted}
	tmp2 := &ir.Var{ID: 2, Name: "_tmp1", Def: plain}
	user := &ir.Var{ID: 3, Name: "_soac9", Obj: types.NewVar(token.NoPos, nil, "_soac9", types.Typ[types.Int])}
	fn := &ir.Function{Vars: []*ir.Var{nil, tmp1, tmp2, user}}

	if got, want := tmp1.Label(fset), "the Map at x.go:2:6"; got != want {
		t.Errorf("Label = %q, want %q", got, want)
	}
	if !tmp2.Temp() || user.Temp() {
		t.Errorf("Temp: %v %v, want true false", tmp2.Temp(), user.Temp())
	}
	if got, want := user.Label(fset), "_soac9"; got != want {
		t.Errorf("a user's variable named like a temporary: Label = %q, want %q", got, want)
	}
	got := fn.UserText(fset, "len(_soac1) and _tmp1 differ; x_soac1, _soac12 and _soac9 stay")
	want := "len(the Map at x.go:2:6) and the expression xs[1:] at y.go:1:1 differ; x_soac1, _soac12 and _soac9 stay"
	if got != want {
		t.Errorf("UserText =\n%q, want\n%q", got, want)
	}
}
