package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeVetCommand runs README.md's vet command, go vet
// -vettool=soacvet ./..., on this repository, whose README says it has no
// findings there: it must exit 0 with no output.
func TestReadmeVetCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("vets the whole repository")
	}
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const cmdLine = "go vet -vettool=$PWD/soacvet ./...   # no findings on this repository"
	if !strings.Contains(string(readme), cmdLine) {
		t.Fatalf("README.md no longer has the line %q", cmdLine)
	}
	bin := filepath.Join(t.TempDir(), "soacvet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command("go", "vet", "-vettool="+bin, "./...")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("go vet -vettool=soacvet ./... on the repository: %v\n%s", err, out)
	}
}

// TestReadmeExampleCount checks that README.md counts the example
// packages under examples/ (those with a //soac:fuse spec) right.
func TestReadmeExampleCount(t *testing.T) {
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := os.ReadDir(filepath.Join(root, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(root, "examples", d.Name(), "*.go"))
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), "\n//soac:fuse ") {
				n++
				break
			}
		}
	}
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}
	m := regexp.MustCompile("`examples/` \\| ([a-z]+) example pipelines").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no \"`examples/` | N example pipelines\" row")
	}
	if n >= len(words) || string(m[1]) != words[n] {
		t.Errorf("README.md says %s example pipelines; examples/ has %d packages with specs", m[1], n)
	}
}
