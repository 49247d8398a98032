package randpipe

import (
	"bytes"
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

// runDiff writes pkgs and their harness (compared as hc says) into a
// temporary module, runs gen and then one `go test ./...` over the whole
// batch.
func runDiff(t *testing.T, pkgs []Package, gen generator, hc HarnessConfig) diffResult {
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
	res := runDiff(t, pkgs, identity(nil), HarnessConfig{})
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
	res = runDiff(t, pkgs[1:], identity(mut), HarnessConfig{})
	if len(res.failed) != len(pkgs[1].Specs) {
		t.Fatalf("mutant generator: %d failing tests, want %d: %v\n%s", len(res.failed), len(pkgs[1].Specs), res.failed, lastLines(res.output, 40))
	}
}

// reassocSource is a spec whose Filter compares a float Scan's running
// totals with a threshold they reach exactly, at some indices, on the
// harness's inputs of 1000 and 100000 elements
// (testdata/regress/parallelbig.go).
const reassocSource = `package rpassoc

import "github.com/soacgen/soacgen/runtime/soac"

func spec3(xs []int64, fs []float64, k int64) []float64 {
	a3 := soac.Scan(fs, 0, func(a, b float64) float64 { return a + b })
	return soac.Filter(a3, func(x float64) bool { return x < 3.75 })
}
`

// chunkedScan is the body of a stand-in for spec3 that scans as a
// parallel backend's two passes do: each chunk totals its elements from
// -0, its carry is the sum of the totals before it, and it continues the
// scan from its carry. The chunks are runtime/parallel's for the parallel
// backend's code of the spec above its grain (Chunks(n, 1785), Bounds)
// when size is 0, else of size elements (as a device's work-groups).
// drop, when not negative, starts the chunk at that index from 0 instead
// (a lost carry, which the harness must catch).
func chunkedScan(size, drop int) string {
	count, bounds := "parallel.Chunks(len(fs), 1785)", "parallel.Bounds(len(fs), chunks, c)"
	if size > 0 {
		count, bounds = fmt.Sprintf("(len(fs) + %d) / %d", size-1, size), fmt.Sprintf("c*%d, min(c*%d+%d, len(fs))", size, size, size)
	}
	return fmt.Sprintf(`ps := make([]float64, len(fs))
	carry := 0.0
	chunks := %s
	for c := range chunks {
		lo, hi := %s
		total := math.Copysign(0, -1)
		for _, x := range fs[lo:hi] {
			total += x
		}
		acc := carry
		if c == %d {
			acc = 0
		}
		for i := lo; i < hi; i++ {
			acc += fs[i]
			ps[i] = acc
		}
		carry += total
	}
	_, _, _ = xs, k, parallel.Chunks
	return soac.Filter(ps, func(x float64) bool { return x < 3.75 })`, count, bounds, drop)
}

// TestHarnessReassociated runs the harness as the runs of the backends
// that re-associate compare (Approx, Large) on stand-ins for
// reassocSource's spec that re-associate its scan over chunks as the
// contract allows: they must pass (the inputs' sums are exact in any
// order, so the filter keeps what the spec keeps; on a grid of 1/40 some
// running totals rounded to the other side of the threshold, at 1e5
// elements in the parallel backend's chunks and at 1000 in groups of
// 16), and one dropping a chunk's carry must fail.
func TestHarnessReassociated(t *testing.T) {
	spec := Spec{Func: "spec3", Name: "Fused3", Params: []Param{{"xs", "[]int64"}, {"fs", "[]float64"}, {"k", "int64"}}, Results: []string{"[]float64"}}
	hc := HarnessConfig{Approx: true, Large: true}
	for _, c := range []struct{ size, drop int }{{0, -1}, {16, -1}, {0, 7}} {
		p := Package{Name: "rpassoc", Source: []byte(reassocSource), Specs: []Spec{spec}}
		gen := func(t *testing.T, dir string, pkgs []Package) error {
			src := IdentitySource(p, func(Spec) string { return chunkedScan(c.size, c.drop) })
			src = bytes.Replace(src, []byte("package rpassoc\n"), []byte("package rpassoc\n\nimport (\n\t\"math\"\n\n\t\"github.com/soacgen/soacgen/runtime/parallel\"\n\t\"github.com/soacgen/soacgen/runtime/soac\"\n)\n"), 1)
			return os.WriteFile(filepath.Join(dir, p.Name, p.Name+"_soac.go"), src, 0o644)
		}
		res := runDiff(t, []Package{p}, gen, hc)
		switch {
		case c.drop < 0 && len(res.failed) > 0:
			t.Errorf("the scan re-associated in chunks of %d (0: the runtime's): failures %v\n%s", c.size, res.failed, failureExcerpt(res.output))
		case c.drop >= 0 && len(res.failed) != 1:
			t.Errorf("the scan dropping chunk %d's carry: failures %v, want 1\n%s", c.drop, res.failed, lastLines(res.output, 40))
		}
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
	res := runDiff(t, pkgs, soacgen, HarnessConfig{})
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
