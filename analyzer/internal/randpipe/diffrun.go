package randpipe

// This file runs the differential test of a batch of packages: it lays
// them out as a temporary module, has a generator write every NAME, and
// runs the harness (HarnessSourceFor) in one `go test`. The tests of this
// package check the harness with stand-in generators; package pipelines
// runs the real code generator.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// Generator writes the NAME functions of pkgs (laid out in dir by
// WriteModule).
type Generator func(t *testing.T, dir string, pkgs []Package) error

// DiffResult is the outcome of one differential run.
type DiffResult struct {
	// Failed lists the failing tests of the harness (TestRandpipeNAME)
	// and the packages that did not build ("PATH [build failed]"), in
	// order.
	Failed   []string
	Output   string        // go test's output
	Duration time.Duration // go test's
}

var pkgFail = regexp.MustCompile(`(?m)^FAIL\s+(\S+)\s+\[(build failed|setup failed)\]`)

// RunDiff writes pkgs and their harness (compared as hc says) into a
// temporary module, runs gen and then one `go test ./...` over the whole
// batch. With RANDPIPE_KEEP=/some/dir the module stays in that
// directory, under the test's name.
func RunDiff(t *testing.T, pkgs []Package, gen Generator, hc HarnessConfig) DiffResult {
	t.Helper()
	dir := t.TempDir()
	if keep := os.Getenv("RANDPIPE_KEEP"); keep != "" {
		// Keep the module for debugging: RANDPIPE_KEEP=/some/dir.
		dir = filepath.Join(keep, t.Name())
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteModule(dir, RepoRoot(), pkgs); err != nil {
		t.Fatal(err)
	}
	if err := gen(t, dir, pkgs); err != nil {
		t.Fatalf("generator: %v", err)
	}
	for _, p := range pkgs {
		if err := os.WriteFile(filepath.Join(dir, p.Name, p.Name+"_rp_test.go"), HarnessSourceFor(p, hc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	cmd := exec.Command("go", "test", "-count=1", "-v", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, _ := cmd.CombinedOutput()
	res := DiffResult{Output: string(out), Duration: time.Since(start)}
	// Attribute failures to packages: go test -v prints "=== RUN" lines
	// per package in order; use the FAIL summary lines instead.
	cur := ""
	for _, line := range strings.Split(res.Output, "\n") {
		if m := FailLine.FindStringSubmatch(line); m != nil {
			res.Failed = append(res.Failed, cur+m[1])
		}
		if strings.HasPrefix(line, "FAIL\t") || strings.HasPrefix(line, "ok  \t") {
			cur = ""
		}
	}
	for _, m := range pkgFail.FindAllStringSubmatch(res.Output, -1) {
		res.Failed = append(res.Failed, m[1]+" ["+m[2]+"]")
	}
	if cmd.ProcessState != nil && !cmd.ProcessState.Success() && len(res.Failed) == 0 {
		res.Failed = append(res.Failed, "go test failed: "+LastLines(res.Output, 30))
	}
	sort.Strings(res.Failed)
	return res
}

// LastLines returns the last n lines of s.
func LastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// FailureExcerpt returns the failing tests' messages and build errors of
// go test's output out (bounded).
func FailureExcerpt(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "=== RUN") || strings.HasPrefix(l, "--- PASS") || strings.HasPrefix(l, "PASS") || strings.HasPrefix(l, "ok  ") || strings.Contains(l, "rp_test.go") && strings.Contains(l, "hazard") {
			continue
		}
		keep = append(keep, l)
	}
	s := strings.Join(keep, "\n")
	if len(s) > 20000 {
		s = s[:20000] + "\n..."
	}
	return s
}
