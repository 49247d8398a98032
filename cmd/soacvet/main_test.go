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
// unitchecker protocol) and standalone, on a module with one finding and
// on one without, checking output and exit codes, then applies the fix.
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
		{"standalone finding", dirty, []string{bin, "./..."}, 3, finding},
		{"standalone clean", tidy, []string{bin, "./..."}, 0, ""},
		{"standalone json", dirty, []string{bin, "-json", "./..."}, 0, `"category": "unfused"`},
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
	cmd = exec.Command(bin, "./...")
	cmd.Dir = dirty
	if code, out := exitCode(t, cmd); code != 0 {
		t.Errorf("after -fix: exit %d\n%s", code, out)
	}
}
