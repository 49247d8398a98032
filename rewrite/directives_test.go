package rewrite

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestSeveralDirectives checks testdata/directives, whose specs carry two
// and three //soac:fuse directives: one generated function per directive,
// in source order, then directive order, each with the spec's signature,
// its own signature guard and its own plan (StatsPar's cluster=ilp), and
// every one of them in the differential test (TestDifferential).
func TestSeveralDirectives(t *testing.T) {
	dir := filepath.Join("testdata", "directives")
	outs := generateDir(t, dir)
	if len(outs) != 1 {
		t.Fatalf("%d outputs, want 1", len(outs))
	}
	o := outs[0]
	wantSpecs := []string{"sumSqSpec", "sumSqSpec", "statsSpec", "statsSpec", "statsSpec", "checkedSpec", "checkedSpec"}
	wantNames := []string{"SumSq", "SumSqPar", "Stats", "StatsPar", "StatsCL", "CheckedPar", "Checked"}
	if !slices.Equal(o.Specs, wantSpecs) || !slices.Equal(o.Names, wantNames) {
		t.Errorf("Specs %v, Names %v; want %v, %v", o.Specs, o.Names, wantSpecs, wantNames)
	}
	src := string(o.Content)
	var order []string
	for _, m := range regexp.MustCompile(`(?m)^func (\w+)\(`).FindAllStringSubmatch(src, -1) {
		if m[1] != "_" && !strings.HasPrefix(m[1], "soacgenRerunGoGenerate_") {
			order = append(order, m[1])
		}
	}
	if !slices.Equal(order, wantNames) {
		t.Errorf("generated functions %v, want %v", order, wantNames)
	}
	sigs := map[string]string{
		"sumSqSpec":   "(xs []int) int",
		"statsSpec":   "(xs []int32, k int32) (ys []int32, pos, top int32)",
		"checkedSpec": "(xs []int) []int",
	}
	for i, name := range wantNames {
		sig := sigs[wantSpecs[i]]
		for _, want := range []string{
			"\nfunc " + name + sig + " {",
			"\nfunc soacgenRerunGoGenerate_" + name + "(func" + sig + ") {}",
			"\nfunc _() { soacgenRerunGoGenerate_" + name + "(" + wantSpecs[i] + ") }",
		} {
			if strings.Count(src, want) != 1 {
				t.Errorf("%s: %q appears %d times, want once", name, want, strings.Count(src, want))
			}
		}
	}
	var labels []string
	for _, s := range specsOf(t, o) {
		labels = append(labels, s.Label+"="+s.Spec)
	}
	if want := []string{"Checked=checkedSpec", "CheckedPar=checkedSpec", "Stats=statsSpec", "StatsCL=statsSpec", "StatsPar=statsSpec", "SumSq=sumSqSpec", "SumSqPar=sumSqSpec"}; !slices.Equal(labels, want) {
		t.Errorf("differential cases %v, want %v", labels, want)
	}

	// Each directive has its own plan, clustered as it asks.
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []*packages.Package
	for _, p := range loadPkgs {
		if p.Dir == abs {
			pkgs = append(pkgs, p)
		}
	}
	res, err := RunPackages(pkgs, Options{Check: true})
	if err != nil || len(res) != 1 {
		t.Fatalf("RunPackages: %v, %d results", err, len(res))
	}
	methods := map[string]string{}
	for _, pl := range res[0].Plans {
		methods[pl.Func.Fuse.Name] = pl.Partitioner
	}
	if len(res[0].Plans) != len(wantNames) || methods["StatsPar"] != "ilp" || methods["Stats"] != "greedy" || methods["StatsCL"] != "greedy" {
		t.Errorf("%d plans, methods %v; want %d, StatsPar's ilp and greedy for the others", len(res[0].Plans), methods, len(wantNames))
	}
	rep := res[0].Report(pkgs[0].Fset, pkgs[0].PkgPath, "", "")
	var fns []string
	for _, f := range rep.Functions {
		fns = append(fns, f.Spec+"/"+f.Name+"/"+f.Kernels[0].Backend)
	}
	if want := []string{"sumSqSpec/SumSq/cpu", "sumSqSpec/SumSqPar/parallel", "statsSpec/Stats/cpu", "statsSpec/StatsPar/parallel", "statsSpec/StatsCL/opencl", "checkedSpec/CheckedPar/parallel", "checkedSpec/Checked/cpu"}; !slices.Equal(fns, want) {
		t.Errorf("report functions %v, want %v", fns, want)
	}
}
