package randpipe

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/soacgen/soacgen/rewrite"
)

// generator writes the NAME functions of pkgs (laid out in dir by
// WriteModule).
type generator func(t *testing.T, dir string, pkgs []Package) error

// soacgen generates with the real code generator (package rewrite, what
// cmd/soacgen runs).
func soacgen(t *testing.T, dir string, pkgs []Package) error {
	lpkgs := loadModule(t, dir)
	outs, err := rewrite.GeneratePackages(lpkgs)
	if err != nil {
		return err
	}
	for _, o := range outs {
		if err := os.WriteFile(o.Path, o.Content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// identity writes NAME as a call of its spec; mutate may change bodies.
func identity(mutate func(Spec) string) generator {
	return func(t *testing.T, dir string, pkgs []Package) error {
		for _, p := range pkgs {
			if err := os.WriteFile(filepath.Join(dir, p.Name, p.Name+"_soac.go"), IdentitySource(p, mutate), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
}

// diffResult is the outcome of one differential run.
type diffResult struct {
	failed   []string // Package.TestName of failing tests, and packages that did not build
	output   string
	duration time.Duration
}

var failLine = regexp.MustCompile(`(?m)^\s*--- FAIL: (TestRandpipe[\w-]+)`)
var pkgFail = regexp.MustCompile(`(?m)^FAIL\s+(\S+)\s+\[(build failed|setup failed)\]`)

// runDiff writes pkgs and their harness into a temporary module, runs gen
// and then one `go test ./...` over the whole batch.
func runDiff(t *testing.T, pkgs []Package, gen generator) diffResult {
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
		if err := os.WriteFile(filepath.Join(dir, p.Name, p.Name+"_rp_test.go"), HarnessSource(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	cmd := exec.Command("go", "test", "-count=1", "-v", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, _ := cmd.CombinedOutput()
	res := diffResult{output: string(out), duration: time.Since(start)}
	// Attribute failures to packages: go test -v prints "=== RUN" lines
	// per package in order; use the FAIL summary lines instead.
	cur := ""
	for _, line := range strings.Split(res.output, "\n") {
		if m := failLine.FindStringSubmatch(line); m != nil {
			res.failed = append(res.failed, cur+m[1])
		}
		if strings.HasPrefix(line, "FAIL\t") || strings.HasPrefix(line, "ok  \t") {
			cur = ""
		}
	}
	for _, m := range pkgFail.FindAllStringSubmatch(res.output, -1) {
		res.failed = append(res.failed, m[1]+" ["+m[2]+"]")
	}
	if cmd.ProcessState != nil && !cmd.ProcessState.Success() && len(res.failed) == 0 {
		res.failed = append(res.failed, "go test failed: "+lastLines(res.output, 30))
	}
	sort.Strings(res.failed)
	return res
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// TestHarnessSelfCheck runs the harness with a stand-in generator: NAME
// calls its spec (every test passes), and a mutant that changes result 0 of
// every spec of one package (every test of that package fails), so that the
// differential test is known to catch a wrong result.
func TestHarnessSelfCheck(t *testing.T) {
	pkgs := []Package{Generate(1, Config{Specs: 6}), Generate(2, Config{Specs: 6, Package: "rpmut"})}
	res := runDiff(t, pkgs, identity(nil))
	if len(res.failed) > 0 {
		t.Fatalf("identity generator: failures %v\n%s", res.failed, lastLines(res.output, 80))
	}
	mut := func(s Spec) string {
		var args, rs []string
		for _, q := range s.Params {
			args = append(args, q.Name)
		}
		for i := range s.Results {
			rs = append(rs, fmt.Sprintf("r%d", i))
		}
		change := map[string]string{
			"[]int64": "r0 = append(r0, 1)", "[]float64": "r0 = append(r0, 1)", "[]int": "r0 = append(r0, 1)",
			"int64": "r0++", "float64": "r0 += 0.5", "int": "r0++",
		}[s.Results[0]]
		return fmt.Sprintf("%s := %s(%s)\n%s\nreturn %s", strings.Join(rs, ", "), s.Func, strings.Join(args, ", "), change, strings.Join(rs, ", "))
	}
	res = runDiff(t, pkgs[1:], identity(mut))
	if len(res.failed) != len(pkgs[1].Specs) {
		t.Fatalf("mutant generator: %d failing tests, want %d: %v\n%s", len(res.failed), len(pkgs[1].Specs), res.failed, lastLines(res.output, 40))
	}
}

// TestRandomPipelinesDifferential generates random specs of moreConfig
// (300, or 60 with -short) plus the committed regression specs, runs the
// code generator on them with the cpu backend, the only one that must
// equal the spec on operators that are not associative, and compares
// every NAME with its spec on random inputs.
func TestRandomPipelinesDifferential(t *testing.T) {
	pkgs := append(batch(t, 5000, moreConfig), regressPackages(t)...)
	specs, divides := 0, 0
	kinds := map[string]int{}
	for _, p := range pkgs {
		specs += len(p.Specs)
		for _, s := range p.Specs {
			if s.Hazard != nil {
				kinds[s.Hazard.Kind.String()]++
			}
			if s.Divides {
				divides++
			}
		}
	}
	start := time.Now()
	res := runDiff(t, pkgs, soacgen)
	t.Logf("differential: %d specs in %d packages (%d may divide by zero); hazards %s; go test %v, total %v; %d failures",
		specs, len(pkgs), divides, fmtCounts(kinds), res.duration.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), len(res.failed))
	if len(res.failed) > 0 {
		t.Errorf("mismatches: %v\n%s", res.failed, failureExcerpt(res.output))
	}
}

// failureExcerpt returns the failing tests' messages and build errors
// (bounded).
func failureExcerpt(out string) string {
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
