package diffrun

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestSpecKeys records two cases that both have a spec twiceSpec, of
// different signatures, one with twiceSpecArgs and twiceSpecAllocs: each
// case's differential test must get its own spec's hooks (keyed by name
// alone, the later case's record replaced the earlier's, and one case ran
// with the other's Args).
func TestSpecKeys(t *testing.T) {
	srcs := map[string]string{
		"/cases/one": "package one\n\nimport \"math/rand/v2\"\n\n//soac:fuse Twice\nfunc twiceSpec(xs []int) int { return len(xs) }\n\nfunc twiceSpecArgs(r *rand.Rand, n int) []any { return nil }\n\nconst twiceSpecAllocs = 2\n",
		"/cases/two": "package two\n\n//soac:fuse Twice\nfunc twiceSpec(xs []float64, c float64) float64 { return c }\n",
	}
	var pkgs []*packages.Package
	for _, dir := range []string{"/cases/one", "/cases/two"} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, filepath.Join(dir, "spec.go"), srcs[dir], parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		conf := types.Config{Importer: importer.Default()}
		tp, err := conf.Check(filepath.Base(dir), fset, []*ast.File{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, &packages.Package{Dir: dir, Syntax: []*ast.File{f}, Types: tp})
	}
	recs := Records{}
	recs.Add(pkgs)
	for _, tc := range []struct {
		dir, args, allocs string
		maxAllocs         int
	}{
		{"/cases/one", "twiceSpecArgs", "a0 := difftest.Random(r, reflect.TypeFor[[]int](), n)", 2},
		{"/cases/two", "nil", "nil", 0},
	} {
		got := recs.Specs(t, filepath.Join(tc.dir, "spec_soac.go"), []string{"twiceSpec"}, []string{"Twice"})
		if len(got) != 1 {
			t.Fatalf("%s: %d specs, want 1", tc.dir, len(got))
		}
		si := got[0]
		if si.Args != tc.args || si.MaxAllocs != tc.maxAllocs || !strings.Contains(si.Allocs, tc.allocs) {
			t.Errorf("%s: twiceSpec has Args %s, Allocs %q (at most %d), want %s, one with %q (at most %d)", tc.dir, si.Args, si.Allocs, si.MaxAllocs, tc.args, tc.allocs, tc.maxAllocs)
		}
	}
}

// TestUsesFloats: the cases without floating-point values skip the
// GOAMD64=v3 run, those with them do not.
func TestUsesFloats(t *testing.T) {
	want := map[string]bool{"tuples": false, "refusals": false, "fma": true, "parscan": true, "basic": true}
	var patterns []string
	for c := range want {
		patterns = append(patterns, "./"+c)
	}
	mode := packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: TestdataDir()}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("testdata does not load")
	}
	for c, want := range want {
		if got := UsesFloats(t, pkgs, filepath.Join(TestdataDir(), c)); got != want {
			t.Errorf("UsesFloats(%s) = %v, want %v", c, got, want)
		}
	}
}
