package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// multiSrc is a package whose specs carry several //soac:fuse directives:
// sumSpec three (cpu, parallel, opencl), scaleSpec two.
const multiSrc = `package p

import "github.com/soacgen/soacgen/runtime/soac"

// sumSpec adds the squares of xs.
//
//soac:fuse Sum
//soac:fuse SumPar backend=parallel cluster=wsp
//soac:fuse SumCL backend=opencl
func sumSpec(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0, func(a, b float64) float64 { return a + b })
}

//soac:fuse Scale
//soac:fuse ScalePar backend=parallel
func scaleSpec(xs []float64, k float64) []float64 {
	return soac.Map(soac.Map(xs, func(x float64) float64 { return x * k }), func(x float64) float64 { return x + 1 })
}
`

// TestSeveralDirectives runs soacgen on a package of specs with several
// directives: one report entry, one generated function, one signature
// guard and one fusion graph per directive, in source order, then
// directive order; -check passes after generating and fails once a
// directive is added or removed.
func TestSeveralDirectives(t *testing.T) {
	// The repository's go.sum: the generated opencl code imports
	// runtime/opencl's dependencies, which the go command verifies.
	mod := writeModule(t, map[string]string{"p/m.go": multiSrc, "go.sum": readFile(t, filepath.Join(repoRoot(t), "go.sum"))})
	p := filepath.Join(mod, "p")
	code, stdout, stderr := soacgen(p, "-json", "-graph=../graphs")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep struct {
		Packages []struct {
			Functions []struct {
				Spec, Name, Pos string
				Kernels         []struct{ Backend string }
				Cluster         struct{ Method string }
			}
			Stats struct{ Specs int }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Packages) != 1 {
		t.Fatalf("report: %v\n%s", err, stdout)
	}
	var got []string
	for _, f := range rep.Packages[0].Functions {
		got = append(got, f.Spec+" "+f.Name+" "+f.Pos+" "+f.Kernels[0].Backend+" "+f.Cluster.Method)
	}
	want := []string{
		"sumSpec Sum p/m.go:10:1 cpu greedy",
		"sumSpec SumPar p/m.go:10:1 parallel wsp",
		"sumSpec SumCL p/m.go:10:1 opencl greedy",
		"scaleSpec Scale p/m.go:16:1 cpu greedy",
		"scaleSpec ScalePar p/m.go:16:1 parallel greedy",
	}
	if !slices.Equal(got, want) || rep.Packages[0].Stats.Specs != 5 {
		t.Errorf("report functions:\n%s\nwant:\n%s\n(stats.specs %d, want 5)", strings.Join(got, "\n"), strings.Join(want, "\n"), rep.Packages[0].Stats.Specs)
	}
	gen := readFile(t, filepath.Join(p, "m_soac.go"))
	var funcs []string
	for _, l := range strings.Split(gen, "\n") {
		if name, ok := strings.CutPrefix(l, "func soacgenRerunGoGenerate_"); ok {
			funcs = append(funcs, name[:strings.Index(name, "(")])
		}
	}
	if names := []string{"Sum", "SumPar", "SumCL", "Scale", "ScalePar"}; !slices.Equal(funcs, names) {
		t.Errorf("signature guards for %v, want %v", funcs, names)
	}
	for _, sig := range []string{"func Sum(xs []float64) float64 {", "func SumCL(xs []float64) float64 {", "func ScalePar(xs []float64, k float64) []float64 {"} {
		if !strings.Contains(gen, "\n"+sig) {
			t.Errorf("m_soac.go has no %s", sig)
		}
	}
	wantGraphs := []string{"index.html", "p.scaleSpec.Scale.dot", "p.scaleSpec.ScalePar.dot", "p.sumSpec.Sum.dot", "p.sumSpec.SumCL.dot", "p.sumSpec.SumPar.dot"}
	if got := listDir(t, filepath.Join(mod, "graphs")); !slices.Equal(got, wantGraphs) {
		t.Errorf("-graph wrote %v, want %v", got, wantGraphs)
	}
	if dot := readFile(t, filepath.Join(mod, "graphs", "p.sumSpec.SumCL.dot")); !strings.Contains(dot, "sumSpec → SumCL") || !strings.Contains(dot, `depth 0, opencl"`) {
		t.Errorf("p.sumSpec.SumCL.dot is not SumCL's graph:\n%s", dot)
	}
	html := readFile(t, filepath.Join(mod, "graphs", "index.html"))
	for _, w := range []string{`<section id="example.com/p.SumPar">`, "<h2>sumSpec → SumPar</h2>", "&#34;name&#34;: &#34;ScalePar&#34;"} {
		if !strings.Contains(html, w) {
			t.Errorf("index.html has no %s", w)
		}
	}
	if code, _, stderr := soacgen(p, "-check"); code != 0 {
		t.Fatalf("-check after generating: exit %d\n%s", code, stderr)
	}
	// A directive added, then one removed: the generated file is stale.
	for _, edit := range []struct{ old, new string }{
		{"//soac:fuse ScalePar backend=parallel\n", "//soac:fuse ScalePar backend=parallel\n//soac:fuse ScaleCL backend=opencl\n"},
		{"//soac:fuse SumPar backend=parallel cluster=wsp\n", ""},
	} {
		src := strings.Replace(multiSrc, edit.old, edit.new, 1)
		if err := os.WriteFile(filepath.Join(p, "m.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := soacgen(p, "-check"); code != 1 || !strings.Contains(stderr, "m_soac.go: generated file would be updated") {
			t.Errorf("-check after %q -> %q: exit %d, stderr %q; want 1 and m_soac.go updated", edit.old, edit.new, code, stderr)
		}
	}
}

// TestSeveralDirectivesErrors checks the errors of specs with several
// directives: each is file:line:col at the directive, soacgen exits 1 and
// writes nothing.
func TestSeveralDirectivesErrors(t *testing.T) {
	const head = "package p\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\n"
	const body = " { return soac.Map(xs, func(x int) int { return x }) }\n"
	mod := writeModule(t, map[string]string{
		// One spec naming one NAME twice.
		"a/a.go": head + "//soac:fuse A\n//soac:fuse A backend=parallel\nfunc aSpec(xs []int) []int" + body,
		// Two specs of one file naming one NAME.
		"b/b.go": head + "//soac:fuse B\n//soac:fuse B2 backend=parallel\nfunc bSpec(xs []int) []int" + body +
			"\n//soac:fuse B2\nfunc b2Spec(xs []int) []int" + body,
		// Two files naming one NAME: the package does not load.
		"c/c1.go": head + "//soac:fuse C\n//soac:fuse CPar backend=parallel\nfunc cSpec(xs []int) []int" + body,
		"c/c2.go": head + "//soac:fuse CPar\nfunc c2Spec(xs []int) []int" + body,
		// A second directive naming a declared function.
		"d/d.go": head + "func Taken() {}\n\n//soac:fuse D\n//soac:fuse Taken backend=parallel\nfunc dSpec(xs []int) []int" + body,
		// A second directive with an unknown option.
		"e/e.go": head + "//soac:fuse E\n//soac:fuse EPar backend=parallel grain=64\nfunc eSpec(xs []int) []int" + body,
		// Directives on a variable.
		"f/f.go": head + "//soac:fuse F\n//soac:fuse FPar backend=parallel\nvar f = soac.Iota(3)\n",
	})
	for _, tc := range []struct{ pkg, want string }{
		{"./a", "a/a.go:6:1: duplicate //soac:fuse name A: aSpec already has a directive A (at a.go:5:1); each directive of a spec generates a function of its own name\n"},
		{"./b", "b/b.go:9:1: duplicate //soac:fuse name B2 (already used at b.go:6:1, on bSpec)\n"},
		{"./c", "c/c2.go:5:13: CPar redeclared in this block\nc/c1.go:6:13: \tother declaration of CPar\n"},
		{"./d", "d/d.go:8:13: Taken redeclared in this block\nd/d.go:5:6: \tother declaration of Taken\n"},
		{"./e", `e/e.go:6:1: malformed //soac:fuse on eSpec: unknown key "grain" (the keys are backend and cluster)` + "\n"},
		{"./f", "f/f.go:5:1: //soac:fuse must be in the doc comment of a top-level function\nf/f.go:6:1: //soac:fuse must be in the doc comment of a top-level function\n"},
	} {
		code, stdout, stderr := soacgen(mod, "-json", tc.pkg)
		if code != 1 || stdout != "" || stderr != tc.want {
			t.Errorf("soacgen -json %s: exit %d, stdout %q, stderr %q; want exit 1, no output, stderr %q", tc.pkg, code, stdout, stderr, tc.want)
		}
		if files, _ := filepath.Glob(filepath.Join(mod, tc.pkg, "*_soac.go")); len(files) > 0 {
			t.Errorf("%s: wrote %v", tc.pkg, files)
		}
	}
}
