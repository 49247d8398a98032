package purity_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/soacgen/soacgen/analyzer/purity"
)

// TestCallMayPanic checks the call rule the fusion engine's panic-order
// checks use: conversions, builtins and standard-library functions by the
// table, anything else may panic.
func TestCallMayPanic(t *testing.T) {
	const src = `package p

import (
	"math"
	"math/rand"
	"sort"
	"strconv"
)

type myFloat float64

func f() int { return 0 }

func calls(s []int, x float64, n, b int) {
	_ = math.Inf(-1)
	_ = math.Mod(x, 0)
	_ = -math.MaxFloat64
	_ = float32(x)
	_ = int8(n)
	_ = myFloat(x)
	_ = len(s)
	_ = make([]int, len(s))
	_ = strconv.FormatInt(int64(n), 10)
	_ = [2]int(s)
	_ = f()
	_ = make([]int, n)
	_ = strconv.FormatInt(int64(n), b)
	panic(1)
	sort.Slice(s, nil)
	_ = rand.Intn(n)
	_ = rand.Float64()
}
`
	want := map[string]bool{
		"math.Inf(-1)": false, "math.Mod(x, 0)": false, "float32(x)": false, "int8(n)": false, "myFloat(x)": false,
		"len(s)": false, "make([]int, len(s))": false, "strconv.FormatInt(int64(n), 10)": false, "int64(n)": false,
		"[2]int(s)": true, "f()": true, "make([]int, n)": true, "strconv.FormatInt(int64(n), b)": true,
		"panic(1)": true, "sort.Slice(s, nil)": true, "rand.Intn(n)": true, "rand.Float64()": false,
	}
	// The calls that compute their result from their arguments alone.
	pure := map[string]bool{"math.Inf(-1)": true, "math.Mod(x, 0)": true, "float32(x)": true, "int8(n)": true,
		"myFloat(x)": true, "len(s)": true, "strconv.FormatInt(int64(n), 10)": true, "int64(n)": true}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("p", fset, []*ast.File{file}, info); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		text := types.ExprString(c)
		w, ok := want[text]
		if !ok {
			t.Errorf("no expectation for %s", text)
			return true
		}
		seen[text] = true
		if got := purity.CallMayPanic(info, c); got != w {
			t.Errorf("CallMayPanic(%s) = %v, want %v", text, got, w)
		}
		if got := purity.CallPure(info, c); got != pure[text] {
			t.Errorf("CallPure(%s) = %v, want %v", text, got, pure[text])
		}
		return true
	})
	for text := range want {
		if !seen[text] {
			t.Errorf("%s not met", text)
		}
	}
	if !purity.CallMayPanic(nil, &ast.CallExpr{Fun: ast.NewIdent("len")}) {
		t.Error("without types every call may panic")
	}
}
