package pipelines

// This file runs the Go translations of Futhark's fusion test suite
// (analyzer/fusion/testdata/src/futhark) through the code generator and
// compares every generated NAME with its spec on random inputs
// (rewrite/difftest: sizes 0, 1, 7, 1000 and 1e5, floats with NaN, ±0 and
// ±Inf, unequal lengths). It does not check the plans' structure
// (analyzer/fusion's TestFutharkSuite does).

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/internal/randpipe"
)

var fuseDirective = regexp.MustCompile(`(?m)^//soac:fuse (\w+)\nfunc (\w+)\(`)

// futharkArgs makes the arguments of the specs whose inputs nest: the
// inner arrays stay short, so that size 1e5 stays linear.
var futharkArgs = map[string]string{
	"consumption1": "[]any{difftest.Random(r, reflect.TypeFor[[]int32](), min(n, 5)).Interface(), difftest.Random(r, reflect.TypeFor[[]bool](), n).Interface()}",
	"iswim3":       "[]any{difftest.Random(r, reflect.TypeFor[[][]float64](), min(n, 5)).Interface(), difftest.Random(r, reflect.TypeFor[[][]float64](), n).Interface(), difftest.Random(r, reflect.TypeFor[[]float64](), min(n, 5)).Interface()}",
	// inner0's spans are short (its operator compares two spans element
	// by element) and in range but one at size 7 (a slice out of range
	// panics), its elements few (ties).
	"inner0": "func() []any { a := difftest.Random(r, reflect.TypeFor[[]int32](), n).Interface().([]int32); for i := range a { a[i] %= 3 }; s := make([]span, n); for i := range s { lo := r.IntN(n + 1); s[i] = span{lo, min(n, lo+r.IntN(6))} }; if n == 7 { s[3].hi = n + 1 }; return []any{a, s} }()",
	// horizontalSharedInput's rows all have w's row length, at and wht
	// as many rows each (the dot products and the last Map2 check them).
	"horizontalSharedInput": "func() []any { k, p := min(n, 4), min(n, 3); mk := func(rows, cols int) [][]int32 { m := make([][]int32, rows); for i := range m { m[i] = difftest.Random(r, reflect.TypeFor[[]int32](), cols).Interface().([]int32) }; return m }; return []any{mk(n, k), mk(p, k), mk(p, k)} }()",
	"consumption2":          "[]any{difftest.Random(r, reflect.TypeFor[[]int32](), min(n, 5)).Interface(), difftest.Random(r, reflect.TypeFor[[]bool](), n).Interface()}",
}

// TestFutharkSuiteDifferential generates every spec of the suite with
// the cpu backend and runs its differential test.
func TestFutharkSuiteDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	src, err := os.ReadFile(filepath.Join(randpipe.RepoRoot(), "analyzer", "fusion", "testdata", "src", "futhark", "futhark.go"))
	if err != nil {
		t.Fatal(err)
	}
	ms := fuseDirective.FindAllSubmatch(src, -1)
	if len(ms) < 40 {
		t.Fatalf("found %d specs, want the whole suite", len(ms))
	}
	var b strings.Builder
	b.WriteString("package futhark\n\nimport (\n\t\"math/rand/v2\"\n\t\"reflect\"\n\t\"testing\"\n\n\t\"github.com/soacgen/soacgen/rewrite/difftest\"\n)\n\nvar _ = reflect.TypeFor[int]\n\n")
	b.WriteString("func TestFuthark(t *testing.T) {\n\tcases := []difftest.Case{\n")
	for _, m := range ms {
		name, spec := string(m[1]), string(m[2])
		args := ""
		if a, ok := futharkArgs[spec]; ok {
			args = fmt.Sprintf(", Args: func(r *rand.Rand, n int) []any { return %s }", a)
		}
		fmt.Fprintf(&b, "\t\t{Name: %q, Spec: %s, Fused: %s%s},\n", name, spec, name, args)
	}
	b.WriteString("\t}\n\tdifftest.Run(t, cases, rand.New(rand.NewPCG(14, 14)))\n}\n")
	dir := t.TempDir()
	pkgs := []randpipe.Package{{Name: "futhark", Source: src}}
	if err := randpipe.WriteModule(dir, randpipe.RepoRoot(), pkgs); err != nil {
		t.Fatal(err)
	}
	if err := soacgen(t, dir, pkgs); err != nil {
		t.Fatalf("generator: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "futhark", "futhark_diff_test.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, randpipe.LastLines(string(out), 60))
	}
	if !strings.Contains(string(out), "ok  \t"+randpipe.ModulePath+"/futhark") {
		t.Fatalf("the differential test did not run:\n%s", out)
	}
}
