package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/rewrite"
)

// TestGoGenerateOrphan runs the real go generate ./... on a module whose
// package p has its //go:generate line in doc.go and its spec in x.go,
// and whose package q (after p) has a spec of its own. Once the spec is
// removed from x.go, x_soac.go is stale and sorts after doc.go, so go
// generate, which listed it before running soacgen, still reads it:
// go generate ./... must exit 0, x_soac.go must be gone at the end, q
// must be generated, and the module must build and pass soacgen -check.
func TestGoGenerateOrphan(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go generate, which builds soacgen")
	}
	const spec = "package p\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\n//soac:fuse Inc\nfunc incSpec(xs []int) []int { return soac.Map(xs, func(x int) int { return x + 1 }) }\n"
	mod := writeModule(t, map[string]string{
		"p/doc.go": "// Package p is a test package.\npackage p\n\n//go:generate go run github.com/soacgen/soacgen/cmd/soacgen\n",
		"p/x.go":   spec,
		"q/q.go":   "package q\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\n//go:generate go run github.com/soacgen/soacgen/cmd/soacgen\n\n//soac:fuse Dec\nfunc decSpec(xs []int) []int { return soac.Map(xs, func(x int) int { return x - 1 }) }\n",
	})
	// go run verifies soacgen's dependencies against go.sum (offline).
	write(t, filepath.Join(mod, "go.sum"), readFile(t, filepath.Join(repoRoot(t), "go.sum")))
	gocmd := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(mod, filepath.FromSlash(rel)))
		return err == nil
	}
	gocmd("generate", "./...")
	if !exists("p/x_soac.go") || !exists("q/q_soac.go") {
		t.Fatal("go generate did not write p/x_soac.go and q/q_soac.go")
	}
	// The spec goes away; q's spec changes, so that q is generated again.
	write(t, filepath.Join(mod, "p", "x.go"), "package p\n\n// Inc is written by hand now.\nfunc Inc(xs []int) []int { return xs }\n")
	write(t, filepath.Join(mod, "q", "q.go"), strings.Replace(readFile(t, filepath.Join(mod, "q", "q.go")), "x - 1", "x - 2", 1))
	os.Remove(filepath.Join(mod, "q", "q_soac.go"))
	gocmd("generate", "./...")
	if exists("p/x_soac.go") {
		t.Errorf("p/x_soac.go still exists after go generate:\n%s", readFile(t, filepath.Join(mod, "p", "x_soac.go")))
	}
	if !exists("q/q_soac.go") || !strings.Contains(readFile(t, filepath.Join(mod, "q", "q_soac.go")), "x - 2") {
		t.Error("go generate ./... stopped before q")
	}
	gocmd("build", "./...")
	if code, _, stderr := soacgen(mod, "-check", "./..."); code != 0 {
		t.Errorf("soacgen -check ./...: exit %d\n%s", code, stderr)
	}
}

// TestTombstone checks the pieces of the go generate protocol directly: a
// stale output that go generate has still to read becomes a tombstone
// carrying the directive that ran soacgen; soacgen run from the
// tombstone's directive deletes it and does nothing else; a tombstone left
// behind (build-ignored) is deleted by the next run.
func TestTombstone(t *testing.T) {
	mod := writeModule(t, map[string]string{
		"p/doc.go": "package p\n\n//go:generate go tool soacgen -backend=cpu\n",
		"p/x.go":   "package p\n\nfunc f() {}\n",
	})
	p := filepath.Join(mod, "p")
	stale := filepath.Join(p, "x_soac.go")
	write(t, stale, rewrite.Header+"\n\npackage p\n\nfunc old() {}\n")
	t.Setenv("GOFILE", "doc.go")
	t.Setenv("GOLINE", "3")
	if code, _, stderr := soacgen(p); code != 0 {
		t.Fatalf("soacgen: exit %d\n%s", code, stderr)
	}
	tomb := readFile(t, stale)
	if !rewrite.IsTombstone([]byte(tomb)) || !strings.Contains(tomb, "\n//go:generate go tool soacgen -backend=cpu\n") || !strings.Contains(tomb, "\n//go:build ignore\n") || !strings.HasSuffix(tomb, "\npackage p\n") {
		t.Fatalf("x_soac.go is not the tombstone:\n%s", tomb)
	}
	// Run from the tombstone's directive: it deletes itself.
	t.Setenv("GOFILE", "x_soac.go")
	t.Setenv("GOLINE", "7")
	if code, stdout, stderr := soacgen(p, "-json"); code != 0 || stdout != "" {
		t.Fatalf("soacgen from the tombstone: exit %d, stdout %q\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("the tombstone was not deleted: %v", err)
	}
	// A tombstone left behind (go generate stopped before it) goes on
	// the next run, inside go generate or not.
	write(t, stale, tomb)
	t.Setenv("GOFILE", "")
	if code, _, stderr := soacgen(p, "-check"); code != 1 || !strings.Contains(stderr, "x_soac.go: generated file would be deleted") {
		t.Errorf("soacgen -check with a tombstone: exit %d, stderr %q; want 1 and the deletion", code, stderr)
	}
	if code, _, stderr := soacgen(p); code != 0 {
		t.Fatalf("soacgen: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the left-over tombstone was not deleted: %v", err)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
