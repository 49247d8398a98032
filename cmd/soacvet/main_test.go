package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// repoRoot is the soacgen repository, found from this file's location.
func repoRoot(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// writeModule creates module example.com in a temporary directory, with
// the soacgen module replaced by the repository, and returns its root.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com\n\ngo 1.26.0\n\nrequire github.com/soacgen/soacgen v0.0.0\n\nreplace github.com/soacgen/soacgen => " + repoRoot(t) + "\n"
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const firstTry = `package p

import "github.com/soacgen/soacgen/runtime/soac"

// SumSquares returns the sum of the squares of xs.
func SumSquares(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0, func(a, b float64) float64 { return a + b })
}
`

const clean = `package p

import "github.com/soacgen/soacgen/runtime/soac"

// Sum returns the sum of xs.
func Sum(xs []float64) float64 {
	return soac.Reduce(xs, 0, func(a, b float64) float64 { return a + b })
}
`

const finding = "p/p.go:7:9: pipeline of 2 SOACs makes 2 passes and allocates 1 intermediate slice; //soac:fuse would make it 1 pass"

// exitCode runs cmd and returns its exit status and combined output.
func exitCode(t *testing.T, cmd *exec.Cmd) (int, string) {
	t.Helper()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String()
	}
	t.Fatalf("%s: %v", cmd, err)
	return 0, ""
}

// TestCommand builds soacvet and runs it both as go vet's -vettool (the
// unitchecker protocol) and standalone, on a module with one finding, one
// without and one with a type error, checking output and exit codes
// (go vet's in both modes) and the usual flags, then applies the fix.
func TestCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs go vet")
	}
	bin := filepath.Join(t.TempDir(), "soacvet")
	if code, out := exitCode(t, exec.Command("go", "build", "-o", bin, ".")); code != 0 {
		t.Fatalf("go build: exit %d\n%s", code, out)
	}
	dirty := writeModule(t, map[string]string{"p/p.go": firstTry})
	tidy := writeModule(t, map[string]string{"p/p.go": clean})
	broken := writeModule(t, map[string]string{"p/p.go": clean + "\nvar bad int = \"s\"\n"})

	for _, tc := range []struct {
		name string
		dir  string
		args []string
		code int
		want string // substring of the output; "" means no output
	}{
		{"vet finding", dirty, []string{"go", "vet", "-vettool=" + bin, "./..."}, 1, finding},
		{"vet clean", tidy, []string{"go", "vet", "-vettool=" + bin, "./..."}, 0, ""},
		{"vet category off", dirty, []string{"go", "vet", "-vettool=" + bin, "-categories=size", "./..."}, 0, ""},
		{"vet json", dirty, []string{"go", "vet", "-vettool=" + bin, "-json", "./..."}, 0, `"category": "unfused"`},
		{"vet type error", broken, []string{"go", "vet", "-vettool=" + bin, "./..."}, 1, `p/p.go:10:15: cannot use "s"`},
		{"vet bad category", tidy, []string{"go", "vet", "-vettool=" + bin, "-categories=stael", "./..."}, 1, `unknown category "stael"`},
		{"standalone finding", dirty, []string{bin, "./..."}, 1, finding},
		{"standalone clean", tidy, []string{bin, "./..."}, 0, ""},
		{"standalone json", dirty, []string{bin, "-json", "./..."}, 0, `"category": "unfused"`},
		{"standalone context", dirty, []string{bin, "-c=0", "./..."}, 1, "7\t\treturn soac.Reduce(soac.Map("},
		{"standalone diff", dirty, []string{bin, "-fix", "-diff", "./..."}, 0, "+//soac:fuse SumSquaresFused"},
		{"standalone type error", broken, []string{bin, "./..."}, 1, `p/p.go:10:15: cannot use "s"`},
		{"standalone unknown flag", tidy, []string{bin, "-bogus", "./..."}, 2, "flag provided but not defined: -bogus"},
		{"standalone bad category", tidy, []string{bin, "-categories=stael", "./..."}, 2, `unknown category "stael"`},
	} {
		cmd := exec.Command(tc.args[0], tc.args[1:]...)
		cmd.Dir = tc.dir
		code, out := exitCode(t, cmd)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d; output:\n%s", tc.name, code, tc.code, out)
		}
		if tc.want == "" && strings.TrimSpace(out) != "" || !strings.Contains(out, tc.want) {
			t.Errorf("%s: output %q, want it to contain %q", tc.name, out, tc.want)
		}
	}

	// -fix applies the suggested fix; the fixed package is clean.
	cmd := exec.Command(bin, "-fix", "./...")
	cmd.Dir = dirty
	exitCode(t, cmd)
	fixed, err := os.ReadFile(filepath.Join(dirty, "p", "p.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fixed), "// SumSquares returns the sum of the squares of xs.\n//\n//soac:fuse SumSquaresFused\nfunc SumSquares(") {
		t.Errorf("after -fix:\n%s", fixed)
	}
	staleCheck(t, bin, dirty)
}

// staleCheck follows the marked spec of dir (module p, spec SumSquares
// marked //soac:fuse SumSquaresFused) through go generate and two edits,
// checking the stale findings with the real soacgen and go vet.
func staleCheck(t *testing.T, bin, dir string) {
	run := func(name string, args []string, code int, want ...string) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		got, out := exitCode(t, cmd)
		if got != code {
			t.Errorf("%s: exit %d, want %d; output:\n%s", name, got, code, out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output %q, want it to contain %q", name, out, w)
			}
		}
	}
	edit := func(old, new string) {
		t.Helper()
		path := filepath.Join(dir, "p", "p.go")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(old)) {
			t.Fatalf("p.go has no %q:\n%s", old, b)
		}
		if err := os.WriteFile(path, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gen := filepath.Join(t.TempDir(), "soacgen")
	if code, out := exitCode(t, exec.Command("go", "build", "-o", gen, "../soacgen")); code != 0 {
		t.Fatalf("go build soacgen: exit %d\n%s", code, out)
	}

	// The new spec has no generated code yet; go generate writes it. (The
	// fix also added a //go:generate line after the package clause, so the
	// directive is on line 9.)
	run("before go generate", []string{bin, "./..."}, 1,
		"p/p.go:9:1: stale: p_soac.go is missing (it holds SumSquaresFused, generated from SumSquares); run go generate")
	run("soacgen", []string{gen, "./..."}, 0)
	run("after go generate", []string{bin, "./..."}, 0)
	run("vet after go generate", []string{"go", "vet", "-vettool=" + bin, "./..."}, 0)

	// A changed body: the generated function is stale.
	edit("x * x", "x * x * x")
	run("vet after a body change", []string{"go", "vet", "-vettool=" + bin, "./..."}, 1,
		"p/p.go:9:1: stale: SumSquaresFused in p_soac.go is out of date with SumSquares; run go generate")

	// The stale finding's fix (the file as go generate writes it) is in
	// the -json output, but soacvet -fix, like every x/tools driver,
	// never edits a generated file: the finding stays.
	run("stale fix in -json", []string{bin, "-json", "./..."}, 0, `"message": "regenerate p_soac.go as go generate would"`)
	run("-fix skips the stale fix", []string{bin, "-fix", "./..."}, 0)
	run("after -fix", []string{bin, "./..."}, 1, "stale: SumSquaresFused in p_soac.go is out of date with SumSquares")

	// A changed signature: stale, and the generated file no longer
	// compiles, which go vet reports instead of analysing the package.
	edit("(xs []float64)", "(xs []float64, _ int)")
	run("after a signature change", []string{bin, "./..."}, 1,
		"stale: SumSquaresFused in p_soac.go is out of date with SumSquares; run go generate",
		"soacgenRerunGoGenerate_SumSquaresFused")
	run("vet after a signature change", []string{"go", "vet", "-vettool=" + bin, "./..."}, 1,
		"soacgenRerunGoGenerate_SumSquaresFused")
	run("soacgen again", []string{gen, "./..."}, 0)
	run("vet after go generate again", []string{"go", "vet", "-vettool=" + bin, "./..."}, 0)
}
