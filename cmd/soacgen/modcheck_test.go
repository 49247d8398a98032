package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestMissingRequirements: a module whose go.mod requires soacgen for
// the combinators alone cannot build the opencl backend's code (it
// imports runtime/opencl, which needs github.com/ebitengine/purego):
// soacgen says so when it writes that code, naming the imports, the
// missing module and the command; after that command go build works
// and soacgen is quiet. Code that imports nothing new (backend=cpu)
// gets no warning, nor does a run under GOFLAGS=-mod=mod, where the go
// command updates go.mod itself.
func TestMissingRequirements(t *testing.T) {
	mod := writeModule(t, map[string]string{
		"p/p.go": "package p\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\n//soac:fuse Sum backend=opencl\nfunc sumSpec(xs []float64) float64 {\n\treturn soac.Reduce(soac.Map(xs, func(x float64) float64 { return 2 * x }), 0.0, func(a, b float64) float64 { return a + b })\n}\n",
		"q/q.go": "package q\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\n//soac:fuse Twice\nfunc twiceSpec(xs []int) []int { return soac.Map(xs, func(x int) int { return 2 * x }) }\n",
	})
	// The go command's defaults, as in a user's shell (writeModule's
	// -mod=mod would add the requirement silently); offline, with go.sum
	// written from the module cache.
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOTOOLCHAIN", "local")
	warning := regexp.MustCompile("(?m)^soacgen: p/p_soac.go: the generated code imports github.com/soacgen/soacgen/runtime/opencl/launch\\b.* cannot build yet \\(.*github.com/ebitengine/purego.*\\); run `(go get github.com/soacgen/soacgen/runtime/opencl/launch[^`]*)` \\(or `go mod tidy`\\), then go build$")
	code, _, stderr := soacgen(mod, "./...")
	m := warning.FindStringSubmatch(stderr)
	if code != 0 || m == nil {
		t.Fatalf("soacgen: exit %d, stderr:\n%s\nwant exit 0 and a warning matching %s", code, stderr, warning)
	}
	if strings.Contains(stderr, "q/q_soac.go") {
		t.Errorf("a warning for q_soac.go, which imports nothing new:\n%s", stderr)
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	if _, _, stderr := soacgen(mod, "./..."); strings.Contains(stderr, "cannot build yet") {
		t.Errorf("under GOFLAGS=-mod=mod: %s", stderr)
	}
	t.Setenv("GOFLAGS", "")
	if testing.Short() {
		return
	}
	// The command the warning gives makes the module build the code.
	gocmd := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	gocmd(strings.Fields(m[1])[1:]...)
	gocmd("build", "./...")
	if code, _, stderr := soacgen(mod, "./..."); code != 0 || strings.Contains(stderr, "cannot build yet") {
		t.Errorf("soacgen after %s: exit %d, stderr:\n%s", m[1], code, stderr)
	}
}
