package randpipe

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// identity writes NAME as a call of its spec; mutate may change bodies.
func identity(mutate func(Spec) string) Generator {
	return func(t *testing.T, dir string, pkgs []Package) error {
		for _, p := range pkgs {
			if err := os.WriteFile(filepath.Join(dir, p.Name, p.Name+"_soac.go"), IdentitySource(p, mutate), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestHarnessSelfCheck runs the harness with a stand-in generator: NAME
// calls its spec (every test passes), and a mutant that changes result 0 of
// every spec of one package (every test of that package fails), so that the
// differential test is known to catch a wrong result.
func TestHarnessSelfCheck(t *testing.T) {
	pkgs := []Package{Generate(1, Config{Specs: 6}), Generate(2, Config{Specs: 6, Package: "rpmut"})}
	res := RunDiff(t, pkgs, identity(nil), HarnessConfig{})
	if len(res.Failed) > 0 {
		t.Fatalf("identity generator: failures %v\n%s", res.Failed, LastLines(res.Output, 80))
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
	res = RunDiff(t, pkgs[1:], identity(mut), HarnessConfig{})
	if len(res.Failed) != len(pkgs[1].Specs) {
		t.Fatalf("mutant generator: %d failing tests, want %d: %v\n%s", len(res.Failed), len(pkgs[1].Specs), res.Failed, LastLines(res.Output, 40))
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
		res := RunDiff(t, []Package{p}, gen, hc)
		switch {
		case c.drop < 0 && len(res.Failed) > 0:
			t.Errorf("the scan re-associated in chunks of %d (0: the runtime's): failures %v\n%s", c.size, res.Failed, FailureExcerpt(res.Output))
		case c.drop >= 0 && len(res.Failed) != 1:
			t.Errorf("the scan dropping chunk %d's carry: failures %v, want 1\n%s", c.drop, res.Failed, LastLines(res.Output, 40))
		}
	}
}
