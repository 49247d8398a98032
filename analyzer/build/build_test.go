package build

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/soacgen/soacgen/analyzer/internal/soactest"
	"github.com/soacgen/soacgen/analyzer/ir"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

// fakeAnalyzer is Analyzer with fakePurity in place of the purity
// analyzer, so that golden files do not change with its verdicts (and the
// tests need not analyse the standard library for facts).
var fakeAnalyzer = &analysis.Analyzer{
	Name:       "soacirfake",
	Doc:        "soacir with a fixed purity oracle",
	ResultType: Analyzer.ResultType,
	Run: func(pass *analysis.Pass) (any, error) {
		return Build(pass.Fset, pass.Files, pass.Pkg, pass.TypesInfo, fakePurity{pass.TypesInfo}), nil
	},
}

// collectInternal fails the test if the builder reports a violation of its
// own assumptions.
func collectInternal(t *testing.T) {
	internalHook = func(fn *ir.Function, msgs []string) {
		for _, m := range msgs {
			t.Errorf("%s: builder internal error: %s", fn.Name, m)
		}
	}
	t.Cleanup(func() { internalHook = nil })
}

// runPkgs runs the analyzer on the testdata packages and returns the
// Program of each.
func runPkgs(t *testing.T, pkgs ...string) map[string]*ir.Program {
	t.Helper()
	collectInternal(t)
	dir := soactest.Dir(t, "testdata")
	results := analysistest.Run(t, dir, fakeAnalyzer, pkgs...)
	progs := make(map[string]*ir.Program)
	for _, r := range results {
		prog, ok := r.Result.(*ir.Program)
		if !ok {
			t.Fatalf("%s: result is %T", r.Pass.Pkg.Path(), r.Result)
		}
		for _, fn := range prog.Funcs {
			if err := ir.Verify(fn); err != nil {
				t.Errorf("%v", err)
			}
		}
		progs[r.Pass.Pkg.Path()] = prog
	}
	return progs
}

// dumpFile returns the golden dump of the functions and problems of one
// source file of prog.
func dumpFile(prog *ir.Program, base string) string {
	var buf bytes.Buffer
	for _, fn := range prog.Funcs {
		if filepath.Base(prog.Fset.Position(fn.Decl.Pos()).Filename) != base {
			continue
		}
		ir.Fprint(&buf, prog.Fset, fn)
		buf.WriteString("\n")
	}
	for _, p := range prog.Problems {
		pos := prog.Fset.Position(p.Pos)
		if filepath.Base(pos.Filename) != base {
			continue
		}
		fmt.Fprintf(&buf, "problem %d:%d: %s\n", pos.Line, pos.Column, p.Msg)
	}
	return buf.String()
}

// goldenPkgs are the testdata packages with golden IR dumps.
var goldenPkgs = []string{"basic", "lambdas", "control", "effects", "unsupported", "directives", "imports", "torture"}

func TestGolden(t *testing.T) {
	progs := props(t)
	for _, pkg := range goldenPkgs {
		prog := progs[pkg]
		if prog == nil {
			t.Errorf("no result for %s", pkg)
			continue
		}
		files, _ := filepath.Glob(filepath.Join("testdata", "src", pkg, "*.go"))
		sort.Strings(files)
		for _, f := range files {
			got := dumpFile(prog, filepath.Base(f))
			golden := strings.TrimSuffix(f, ".go") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Errorf("%s: %v (run go test -update)", golden, err)
				continue
			}
			if got != string(want) {
				t.Errorf("%s: IR differs from golden file (run go test -update and review the diff):\n%s", golden, diff(string(want), got))
			}
		}
	}
}

// diff returns the first differing lines of want and got.
func diff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out []string
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			out = append(out, fmt.Sprintf("line %d:\n  want %s\n  got  %s", i+1, w, g))
			if len(out) == 10 {
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

// TestRealPurity builds every testdata package with the purity analyzer's
// own result: the IR must verify, and the builder must not trip over its
// assumptions.
func TestRealPurity(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the standard library for purity facts")
	}
	collectInternal(t)
	dir := soactest.Dir(t, "testdata")
	results := analysistest.Run(t, dir, Analyzer, goldenPkgs...)
	n := 0
	for _, r := range results {
		prog := r.Result.(*ir.Program)
		for _, fn := range prog.Funcs {
			n++
			if err := ir.Verify(fn); err != nil {
				t.Errorf("%v", err)
			}
		}
	}
	if n == 0 {
		t.Fatal("no functions built")
	}
}
