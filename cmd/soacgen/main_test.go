package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

// repoRoot is the soacgen repository, found from this file's location.
func repoRoot(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// offline makes the go command work on temporary modules without a network
// or a go.sum: the soacgen module is replaced by the repository itself, and
// go.sum is written from the module cache (GOSUMDB=off), for the modules
// the generated code needs beyond the spec's (the opencl backend's code
// needs github.com/ebitengine/purego).
func offline(t *testing.T) {
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOWORK", "off")
}

// writeModule creates module example.com in a temporary directory with the
// given files (slash-separated paths relative to the module root) and
// returns its root.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	offline(t)
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

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// soacgen runs the command in-process in dir.
func soacgen(dir string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, dir, &out, &errOut)
	return code, out.String(), errOut.String()
}

func golden(t *testing.T, name string, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := readFile(t, path); got != want {
		t.Errorf("%s differs; got:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestJSON runs soacgen -json on a module holding docs/contract.md's normalize2
// spec and compares the report with the golden file; it also checks the
// contract's shape directly: two kernels, the op/pos format, positions
// relative to the module root.
func TestJSON(t *testing.T) {
	mod := writeModule(t, map[string]string{"p/n.go": readFile(t, filepath.Join("testdata", "mod", "p", "n.go"))})
	code, stdout, stderr := soacgen(mod, "-json", "./...")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if rest := dropBackendWarnings(stderr); rest != "" {
		t.Errorf("stderr not empty:\n%s", rest)
	}
	golden(t, "normalize2.json.golden", stdout)

	var rep struct {
		Packages []struct {
			Path      string
			Functions []struct {
				Spec, Name, Pos string
				Kernels         []struct {
					Ops []struct{ Op, Pos string }
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Packages) != 1 || rep.Packages[0].Path != "example.com/p" || len(rep.Packages[0].Functions) != 2 {
		t.Fatalf("report = %+v", rep)
	}
	n := rep.Packages[0].Functions[0]
	if n.Spec != "normalize2Spec" || n.Name != "Normalize2" || n.Pos != "p/n.go:12:1" || len(n.Kernels) != 2 {
		t.Fatalf("normalize2 = %+v, want spec normalize2Spec, name Normalize2 at p/n.go:12:1 with 2 kernels", n)
	}
	var ops []string
	for _, k := range n.Kernels {
		var names []string
		for _, o := range k.Ops {
			names = append(names, o.Op+"@"+o.Pos)
		}
		ops = append(ops, strings.Join(names, " "))
	}
	want := []string{
		"Reduce@p/n.go:13:10 Filter@p/n.go:14:9 Reduce@p/n.go:15:10",
		"Map@p/n.go:16:8 Map@p/n.go:17:8",
	}
	if strings.Join(ops, "\n") != strings.Join(want, "\n") {
		t.Errorf("kernels:\n%s\nwant:\n%s", strings.Join(ops, "\n"), strings.Join(want, "\n"))
	}
}

// TestModes checks the flags and the modes.
func TestModes(t *testing.T) {
	mod := writeModule(t, map[string]string{"p/n.go": readFile(t, filepath.Join("testdata", "mod", "p", "n.go"))})
	p := filepath.Join(mod, "p")
	// scaleSpec asks for backend opencl, which generates its kernel (with
	// the cpu code as its run-time fallback): no warning.
	const warnOpenCL = ""
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // substring; "" means empty
		stderr string // substring; "" means empty
	}{
		{"check before generating", []string{"-check"}, 1, "", "n_soac.go: generated file would be created"},
		{"check with json before generating", []string{"-check", "-json"}, 1, `"packages"`, "would be created"},
		{"generate", nil, 0, "", warnOpenCL},
		{"check", []string{"-check"}, 0, "", warnOpenCL},
		{"check with stages verified", []string{"-check", "-verify"}, 0, "", warnOpenCL},
		{"check with json", []string{"-check", "-json"}, 0, `"packages"`, warnOpenCL},
		{"bad backend", []string{"-backend=gpu"}, 2, "", `invalid -backend "gpu"`},
		{"bad flag", []string{"-nosuchflag"}, 2, "", "flag provided but not defined"},
		{"help", []string{"-h"}, 0, "", "-backend"},
		{"stats", []string{"-stats"}, 0, "passes before", warnOpenCL},
		{"stats with json", []string{"-stats", "-json"}, 0, `"packages"`, "passes before"},
		{"backend", []string{"-json", "-backend=parallel"}, 0, `"backend": "parallel"`, warnOpenCL},
	} {
		code, stdout, stderr := soacgen(p, tc.args...)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d; stderr:\n%s", tc.name, code, tc.code, stderr)
		}
		for _, c := range []struct{ name, got, want string }{{"stdout", stdout, tc.stdout}, {"stderr", stderr, tc.stderr}} {
			if c.want == "" && c.got != "" || !strings.Contains(c.got, c.want) {
				t.Errorf("%s: %s = %q, want it to contain %q", tc.name, c.name, c.got, c.want)
			}
		}
	}
	// The help text documents every flag.
	_, _, help := soacgen(p, "-h")
	for _, f := range []string{"-json", "-check", "-backend", "-stats", "-fuse.gas", "-verify"} {
		if !strings.Contains(help, f) {
			t.Errorf("-h does not document %s:\n%s", f, help)
		}
	}
	// Only the directive-less spec takes the -backend default: scaleSpec's
	// kernel is generated by its own backend=opencl (the cpu code is its
	// run-time fallback), every other kernel by parallel: the backends
	// the report names.
	_, stdout, _ := soacgen(p, "-json", "-backend=parallel")
	if strings.Count(stdout, `"backend": "opencl"`) != 1 {
		t.Errorf("scaleSpec's own backend=opencl lost:\n%s", stdout)
	}
	if !strings.Contains(stdout, `"backend": "parallel"`) {
		t.Errorf("no kernel generated by the -backend default, parallel:\n%s", stdout)
	}
}

// TestErrors checks that source, type and directive errors are printed as
// file:line:col: message, exit 1 and print no report.
func TestErrors(t *testing.T) {
	mod := writeModule(t, map[string]string{
		"p/n.go": readFile(t, filepath.Join("testdata", "mod", "p", "n.go")),
		"q/q.go": "package q\n\nfunc f() int {\n\treturn undefinedName\n}\n",
		"r/r.go": "package r\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\n//soac:fuse G backend=gpu\nfunc g(xs []int) []int { return soac.Map(xs, func(x int) int { return x }) }\n",
		"s/s.go": "package s\n\nfunc f( {\n",
		// An error in a spec's signature, or a NAME declared twice, is
		// reported once, where the user wrote it (not in the stub that
		// declares NAME while the package loads).
		"u/u.go": "package u\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\n//soac:fuse U\nfunc uSpec(xs []int, m Missing) []int { return soac.Map(xs, func(x int) int { return x }) }\n",
		"v/v.go": "package v\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\nfunc V() {}\n\n//soac:fuse V\nfunc vSpec(xs []int) []int { return soac.Map(xs, func(x int) int { return x }) }\n",
	})
	for _, tc := range []struct {
		pkg, want string
	}{
		{"./q", "q/q.go:4:9: undefined: undefinedName\n"},
		{"./r", `r/r.go:5:1: malformed //soac:fuse on g: unknown backend "gpu"`},
		{"./s", "s/s.go:3:9: "},
		{"./u", "u/u.go:6:24: undefined: Missing\n"},
		{"./v", "v/v.go:7:13: V redeclared in this block\nv/v.go:5:6: \tother declaration of V\n"},
	} {
		code, stdout, stderr := soacgen(mod, "-json", tc.pkg)
		if code != 1 || stdout != "" || !strings.HasPrefix(stderr, tc.want) || strings.HasSuffix(tc.want, "\n") && stderr != tc.want {
			t.Errorf("soacgen -json %s: exit %d, stdout %q, stderr %q; want exit 1, no output, stderr starting %q", tc.pkg, code, stdout, stderr, tc.want)
		}
	}
	// One bad package fails the whole run.
	if code, stdout, _ := soacgen(mod, "-json", "./..."); code != 1 || stdout != "" {
		t.Errorf("soacgen -json ./...: exit %d, stdout %q; want 1 and nothing", code, stdout)
	}
}

// TestBinary runs the built command the way go generate does: in the
// package directory, with no arguments (the default pattern ".").
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	mod := writeModule(t, map[string]string{"p/n.go": readFile(t, filepath.Join("testdata", "mod", "p", "n.go"))})
	bin := filepath.Join(t.TempDir(), "soacgen")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-json")
	cmd.Dir = filepath.Join(mod, "p")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("soacgen -json: %v", err)
	}
	if want := readFile(t, filepath.Join("testdata", "normalize2.json.golden")); string(out) != want {
		t.Errorf("output differs from normalize2.json.golden:\n%s", out)
	}
	cmd = exec.Command(bin)
	cmd.Dir = filepath.Join(mod, "p")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || dropBackendWarnings(stderr.String()) != "" {
		t.Errorf("soacgen: %v, stderr %q; want exit 0 and nothing", err, stderr.String())
	}
	if !strings.HasPrefix(readFile(t, filepath.Join(mod, "p", "n_soac.go")), "// Code generated by soacgen. DO NOT EDIT.\n") {
		t.Errorf("n_soac.go not generated")
	}
}

// TestGenerate runs soacgen on a module, builds it and calls the generated
// functions, then checks the file-keeping rules: unchanged outputs are not
// rewritten, a stale output that does not compile and a caller of a NAME
// not generated yet do not stop soacgen, outputs of removed specs are
// deleted, and a file without soacgen's header is never overwritten.
func TestGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	mod := writeModule(t, map[string]string{
		"p/n.go": readFile(t, filepath.Join("testdata", "mod", "p", "n.go")),
		"p/n_test.go": `package p

import (
	"reflect"
	"testing"
)

func TestFused(t *testing.T) {
	xs := []float64{3, -1, 4, -1, 5, 9, -2, 6}
	a1, a2 := normalize2Spec(xs)
	b1, b2 := Normalize2(xs)
	if !reflect.DeepEqual(a1, b1) || !reflect.DeepEqual(a2, b2) {
		t.Errorf("Normalize2 = %v, %v; spec gives %v, %v", b1, b2, a1, a2)
	}
	if got, want := Scale(xs, 2), scaleSpec(xs, 2); !reflect.DeepEqual(got, want) {
		t.Errorf("Scale = %v, spec gives %v", got, want)
	}
}
`,
	})
	p := filepath.Join(mod, "p")
	gotest := func(what string) {
		t.Helper()
		cmd := exec.Command("go", "test", "-count=1", ".")
		cmd.Dir = p
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: go test: %v\n%s", what, err, out)
		}
	}
	if code, _, stderr := soacgen(p); code != 0 {
		t.Fatalf("soacgen: exit %d\n%s", code, stderr)
	}
	gotest("after generating")
	out := filepath.Join(p, "n_soac.go")

	// A spec whose signature changed after generation breaks the build
	// with a message that says to run go generate.
	spec := readFile(t, filepath.Join(p, "n.go"))
	changed := strings.Replace(spec, "func scaleSpec(xs []float64, k float64) []float64", "func scaleSpec(xs []float64, k int) []float64", 1)
	changed = strings.Replace(changed, "return x * k", "return x * float64(k)", 1)
	if changed == spec {
		t.Fatal("testdata changed: cannot change scaleSpec's signature")
	}
	if err := os.WriteFile(filepath.Join(p, "n.go"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	vet := exec.Command("go", "vet", ".")
	vet.Dir = p
	if out, err := vet.CombinedOutput(); err == nil || !strings.Contains(string(out), "soacgenRerunGoGenerate_Scale") {
		t.Errorf("a changed spec signature: go vet: %v\n%s\nwant an error naming soacgenRerunGoGenerate_Scale", err, out)
	}
	if err := os.WriteFile(filepath.Join(p, "n.go"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}

	// A stale output that no longer compiles, and a new spec with a
	// caller, do not stop soacgen.
	if err := os.WriteFile(out, []byte("// Code generated by soacgen. DO NOT EDIT.\n\npackage p\n\nfunc Normalize2() { undefined() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	extra := "package p\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\n//soac:fuse Twice\nfunc twiceSpec(xs []int) []int { return soac.Map(xs, func(x int) int { return 2 * x }) }\n\nfunc useTwice() []int { return Twice([]int{1}) }\n"
	if err := os.WriteFile(filepath.Join(p, "m.go"), []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := soacgen(p, "-check"); code != 1 || !strings.Contains(stderr, "n_soac.go: generated file would be updated") || !strings.Contains(stderr, "m_soac.go: generated file would be created") {
		t.Errorf("soacgen -check on stale outputs: exit %d, stderr:\n%s", code, stderr)
	}
	if code, _, stderr := soacgen(p); code != 0 {
		t.Fatalf("soacgen on stale outputs: exit %d\n%s", code, stderr)
	}
	gotest("after regenerating")

	// Removing the spec file removes its output; the unchanged output is
	// not rewritten.
	first, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(p, "m.go")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := soacgen(p); code != 0 {
		t.Fatalf("soacgen after removing a spec: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(p, "m_soac.go")); !os.IsNotExist(err) {
		t.Errorf("m_soac.go not deleted: %v", err)
	}
	if again, _ := os.Stat(out); !again.ModTime().Equal(first.ModTime()) {
		t.Errorf("an unchanged output was rewritten")
	}

	// A file without the header is not overwritten.
	mine := "package p\n\n// hand-written\n"
	if err := os.WriteFile(out, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := soacgen(p); code != 1 || !strings.Contains(stderr, "not generated by soacgen") {
		t.Errorf("soacgen over a hand-written n_soac.go: exit %d, stderr:\n%s", code, stderr)
	}
	if got := readFile(t, out); got != mine {
		t.Errorf("hand-written n_soac.go overwritten:\n%s", got)
	}
}

// TestNoPurego keeps the OpenCL binding (purego) out of the commands.
func TestNoPurego(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./cmd/...")
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if !strings.Contains(string(out), "golang.org/x/tools/go/packages") {
		t.Fatalf("go list -deps output looks wrong:\n%s", out)
	}
	if strings.Contains(string(out), "github.com/ebitengine/purego") {
		t.Errorf("a command depends on github.com/ebitengine/purego")
	}
}

// dropBackendWarnings removes the warnings about backends that are
// generated as cpu code (testdata/mod's scaleSpec asks for opencl, and
// its kernel captures k, which the opencl backend refuses).
func dropBackendWarnings(stderr string) string {
	var keep []string
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if !strings.Contains(l, ": it is not built into this soacgen yet; ") && !strings.Contains(l, ": backend opencl does not generate this kernel: ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}

// TestSyntaxErrors checks that a spec file that does not parse gets the
// parser's errors alone, each as file:line:col: message, without the
// type errors the partial syntax tree causes (an undefined name, a call
// with the wrong arguments, a missing return), exit 1, no report, and
// nothing written.
func TestSyntaxErrors(t *testing.T) {
	mod := writeModule(t, map[string]string{
		"p/p.go": `package p

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse Sum
func sumSpec(xs []float64) float64 {
	ys := soac.Map(xs, func(x float64) float64 { return x * 2 }
	return soac.Reduce(ys, 0, func(a, b float64) float64 { return a + b })
}
`,
		// A package that type-checks keeps its output unwritten too.
		"q/q.go": "package q\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\n//soac:fuse Twice\nfunc twiceSpec(xs []int) []int { return soac.Map(xs, func(x int) int { return 2 * x }) }\n",
	})
	want := "p/p.go:7:61: missing ',' before newline in argument list\n" +
		"p/p.go:8:2: expected operand, found 'return'\n"
	for _, args := range [][]string{{"-json", "./..."}} {
		code, stdout, stderr := soacgen(mod, args...)
		if code != 1 || stdout != "" || !strings.HasPrefix(stderr, want) {
			t.Errorf("soacgen %s: exit %d, stdout %q, stderr:\n%s\nwant exit 1, no output, stderr starting\n%s", strings.Join(args, " "), code, stdout, stderr, want)
		}
		for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
			if !regexp.MustCompile(`^p/p\.go:\d+:\d+: (expected|missing) `).MatchString(l) {
				t.Errorf("soacgen %s: %q is not a syntax error of p/p.go at file:line:col", strings.Join(args, " "), l)
			}
		}
	}
	for _, f := range []string{"p/p_soac.go", "q/q_soac.go"} {
		if _, err := os.Stat(filepath.Join(mod, filepath.FromSlash(f))); !os.IsNotExist(err) {
			t.Errorf("%s written (%v), want nothing written", f, err)
		}
	}
}
