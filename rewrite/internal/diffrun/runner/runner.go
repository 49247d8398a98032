// Package runner runs one shard of rewrite's differential test
// (diffrun.Shards): it generates the shard's testdata cases, builds each
// in a temporary module with its generated files and a test comparing
// every generated function with its spec on random inputs of sizes 0, 1,
// 7, 1000 and 1e5 (same results, floats bit for bit, nil and empty slices
// apart; same panics; same writes to the arguments), and runs that test,
// again under GOAMD64=v3 where the case has floats, and, for the entries
// that name it, built with GOEXPERIMENT=simd at each vector width the
// host has (difftest then adds the lengths around the lane counts).
package runner

import (
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/rewrite"
	"github.com/soacgen/soacgen/rewrite/internal/diffrun"
	"golang.org/x/tools/go/packages"
)

// Run runs the differential test of every case of shard, each in a
// parallel subtest named after the case: the runs its entry names
// (diffrun.Entry). It skips under -short.
func Run(t *testing.T, shard string) {
	if testing.Short() {
		t.Skip("builds a module per case")
	}
	entries, ok := diffrun.Shards[shard]
	if !ok {
		t.Fatalf("no shard %s in diffrun.Shards", shard)
	}
	var cases []string
	runs := map[string][]string{}
	for _, e := range entries {
		c, r := diffrun.Entry(e)
		cases = append(cases, c)
		runs[c] = r
	}
	pkgs, outs := generate(t, cases)
	recs := diffrun.Records{}
	recs.Add(pkgs)
	fma := diffrun.HostHasFMA()
	for _, c := range cases {
		t.Run(c, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(diffrun.TestdataDir(), c)
			if len(outs[c]) == 0 {
				t.Fatalf("no generated file for testdata/%s", c)
			}
			tmp := diffrun.CaseModule(t, dir, c)
			var specs []diffrun.Spec
			for _, o := range outs[c] {
				for _, gf := range o.Files() {
					diffrun.Write(t, filepath.Join(tmp, filepath.Base(gf.Path)), gf.Content)
				}
				specs = append(specs, recs.Specs(t, o.Path, o.Specs, o.Names)...)
			}
			diffrun.Write(t, filepath.Join(tmp, "soacdiff_test.go"), diffrun.TestSource(diffrun.PkgName(t, outs[c][0].Content), specs))
			if slices.Contains(runs[c], diffrun.RunBase) {
				goTest(t, tmp, c)
			}
			if slices.Contains(runs[c], diffrun.RunSIMD) {
				simdTest(t, tmp, c)
			}
			if !slices.Contains(runs[c], diffrun.RunFMA) || !fma || !diffrun.UsesFloats(t, pkgs, dir) {
				return
			}
			// Again with FMA contraction allowed (amd64 fuses x*y + z
			// from GOAMD64=v3, as arm64 always does): results must
			// still be the spec's, bit for bit.
			goTest(t, tmp, c, "GOAMD64=v3")
		})
	}
}

// generate loads the testdata cases together (the standard library is
// analysed once) and generates them, returning the loaded packages and
// the outputs by case.
func generate(t *testing.T, cases []string) ([]*packages.Package, map[string][]rewrite.Output) {
	t.Helper()
	var patterns []string
	for _, c := range cases {
		patterns = append(patterns, "./"+c)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: rewrite.LoadMode, Dir: diffrun.TestdataDir()}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("testdata does not load")
	}
	res, err := rewrite.GeneratePackages(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	outs := map[string][]rewrite.Output{}
	for _, o := range res {
		c := filepath.Base(filepath.Dir(o.Path))
		if !slices.Contains(cases, c) {
			t.Fatalf("output %s is of no case of the shard", o.Path)
		}
		outs[c] = append(outs[c], o)
	}
	return pkgs, outs
}

// simdTest builds the test of case module tmp (case c) with
// GOEXPERIMENT=simd, whose generated vector forms it then runs, and runs
// it at each vector width the host has (runtime/lanes' SOACGEN_SIMD),
// failing t when a run fails. A host without AVX2 runs none.
func simdTest(t *testing.T, tmp, c string) {
	t.Helper()
	widths := diffrun.HostWidths()
	if len(widths) == 0 {
		t.Logf("%s: no vector unit on this host: the vector forms are not run", c)
		return
	}
	bin := filepath.Join(tmp, "simd.test")
	cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
	cmd.Dir = tmp
	cmd.Env = diffrun.OfflineEnv("GOEXPERIMENT=simd")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOEXPERIMENT=simd go test -c in %s: %v\n%s", c, err, out)
	}
	for _, w := range widths {
		run := exec.Command(bin, "-test.count=1")
		run.Dir = tmp
		run.Env = diffrun.OfflineEnv("SOACGEN_SIMD=" + w)
		if out, err := run.CombinedOutput(); err != nil {
			t.Fatalf("SOACGEN_SIMD=%s, built with GOEXPERIMENT=simd, in %s: %v\n%s", w, c, err, out)
		}
	}
}

// goTest runs go test in the case module tmp of case c, with env added
// to the environment, failing t when the test fails.
func goTest(t *testing.T, tmp, c string, env ...string) {
	t.Helper()
	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = tmp
	cmd.Env = diffrun.OfflineEnv(env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v go test in %s: %v\n%s", env, c, err, out)
	}
}
