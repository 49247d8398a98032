package report_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/report"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

// source is testdata/mod/p/n.go parsed, with the SOAC calls of each function
// in source order, for building plans by hand.
type source struct {
	fset  *token.FileSet
	root  string
	decls map[string]*ast.FuncDecl
	calls map[string][]*ir.SOAC
}

func parseSource(t *testing.T) *source {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("testdata", "mod"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(root, "p", "n.go"), nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	src := &source{fset: fset, root: root, decls: map[string]*ast.FuncDecl{}, calls: map[string][]*ir.SOAC{}}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		src.decls[fd.Name.Name] = fd
		// Collect calls in the order their evaluation finishes (arguments
		// first), the order of let-normalisation.
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			for _, a := range call.Args {
				ast.Inspect(a, visit)
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "soac" {
					id := len(src.calls[fd.Name.Name])
					src.calls[fd.Name.Name] = append(src.calls[fd.Name.Name], &ir.SOAC{
						ID: id, Call: call, Name: sel.Sel.Name,
						Out: &ir.Var{ID: id, Name: "_soac" + string(rune('0'+id))},
					})
				}
			}
			return false
		}
		ast.Inspect(fd.Body, visit)
	}
	return src
}

// function returns an ir.Function for the named declaration.
func (s *source) function(name string, fuse *ir.Directive) *ir.Function {
	return &ir.Function{Name: name, Decl: s.decls[name], Fuse: fuse}
}

// plans builds the plans of the three functions of n.go by hand: normalize2
// fused as Robinson et al., "Clustering for Array-Backed Streams" (2014) [Robinson-ILP] fuses it (the two reductions and the filter in one
// pass over xs, the two maps in a second), sumSquares and scaleSpec as one
// kernel each.
func (s *source) plans() []*fusion.Plan {
	n := s.calls["normalize2Spec"] // Reduce, Filter, Reduce, Map, Map
	xs := &ir.Var{Name: "xs"}
	n[0].Out.Name, n[1].Out.Name, n[2].Out.Name, n[3].Out.Name, n[4].Out.Name = "sum1", "gts", "sum2", "ys1", "ys2"
	norm := &fusion.Plan{
		Func: s.function("normalize2Spec", &ir.Directive{Name: "Normalize2"}),
		Kernels: []*fusion.Kernel{
			{ID: 0, SOACs: n[:3], Inputs: []*ir.Var{xs}, Outputs: []*ir.Var{n[0].Out, n[2].Out}, Internal: []*ir.Var{n[1].Out}, Form: "filter-redomap", Rules: []string{"horizontal", "filter->redomap"}},
			{ID: 1, SOACs: n[3:], Inputs: []*ir.Var{xs}, Outputs: []*ir.Var{n[3].Out, n[4].Out}, Form: "map", Rules: []string{"horizontal"}},
		},
		Notes: []fusion.Note{{
			Pos: n[3].Pos(), Producer: n[0], Consumer: n[3], Var: n[0].Out, Rule: "scalar-dependency",
			Reason: "Reduce sum1 at p/n.go:13:10 cannot fuse with Map at p/n.go:16:8: the map reads the reduction's result sum1",
		}},
		Stats: fusion.Stats{Rules: map[string]int{"horizontal": 2, "filter->redomap": 1}, PassesBefore: 5, PassesAfter: 2, IntermediatesRemoved: 1},
	}
	sq := s.calls["sumSquares"] // Map, Reduce
	sumSq := &fusion.Plan{
		Func:    s.function("sumSquares", nil),
		Kernels: []*fusion.Kernel{{SOACs: sq, Form: "redomap", Rules: []string{"map->reduce"}}},
		Stats:   fusion.Stats{Rules: map[string]int{"map->reduce": 1}, PassesBefore: 2, PassesAfter: 1, IntermediatesRemoved: 1},
	}
	sc := s.calls["scaleSpec"] // Map, Map
	scale := &fusion.Plan{
		Func:    s.function("scaleSpec", &ir.Directive{Name: "Scale", Backend: "opencl"}),
		Kernels: []*fusion.Kernel{{SOACs: sc, Form: "map", Rules: []string{"map->map"}, Internal: []*ir.Var{sc[0].Out}}},
		Stats:   fusion.Stats{Rules: map[string]int{"map->map": 1}, PassesBefore: 2, PassesAfter: 1, IntermediatesRemoved: 1},
	}
	// Out of source order on purpose: the report sorts.
	return []*fusion.Plan{scale, sumSq, norm}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output; got:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestReportGolden(t *testing.T) {
	src := parseSource(t)
	r := &report.Report{Packages: []*report.Package{
		report.NewPackage(src.fset, "example.com/p", src.plans(), report.Options{Root: src.root}),
	}}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	golden(t, "normalize2.json.golden", buf.Bytes())
}

// TestContractShape checks the docs/contract.md fields of the report through a
// generic JSON decoding, independently of the golden file.
func TestContractShape(t *testing.T) {
	src := parseSource(t)
	r := &report.Report{Packages: []*report.Package{
		report.NewPackage(src.fset, "example.com/p", src.plans(), report.Options{Root: src.root, Backend: "parallel"}),
	}}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	type op struct{ Op, Pos string }
	var got struct {
		Packages []struct {
			Path      string
			Functions []struct {
				Spec, Name, Pos string
				Kernels         []struct {
					Ops     []op
					Depth   *int
					Backend string
				}
				Notes []struct{ Pos, Reason string }
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Packages) != 1 || got.Packages[0].Path != "example.com/p" {
		t.Fatalf("packages = %+v", got.Packages)
	}
	fns := got.Packages[0].Functions
	if len(fns) != 2 {
		t.Fatalf("got %d functions, want the 2 specs (sumSquares has no directive)", len(fns))
	}
	n := fns[0]
	if n.Spec != "normalize2Spec" || n.Name != "Normalize2" || n.Pos != "p/n.go:12:1" {
		t.Errorf("function = %s %s %s, want normalize2Spec Normalize2 p/n.go:12:1", n.Spec, n.Name, n.Pos)
	}
	if len(n.Kernels) != 2 {
		t.Fatalf("normalize2: %d kernels, want 2", len(n.Kernels))
	}
	wantOps := [][]op{
		{{"Reduce", "p/n.go:13:10"}, {"Filter", "p/n.go:14:9"}, {"Reduce", "p/n.go:15:10"}},
		{{"Map", "p/n.go:16:8"}, {"Map", "p/n.go:17:8"}},
	}
	for i, k := range n.Kernels {
		if k.Depth == nil || *k.Depth != 0 {
			t.Errorf("kernel %d: depth missing or not 0", i)
		}
		if k.Backend != "parallel" {
			t.Errorf("kernel %d: backend %q, want the -backend default parallel", i, k.Backend)
		}
		if len(k.Ops) != len(wantOps[i]) {
			t.Fatalf("kernel %d: ops %v, want %v", i, k.Ops, wantOps[i])
		}
		for j := range k.Ops {
			if k.Ops[j] != wantOps[i][j] {
				t.Errorf("kernel %d op %d = %v, want %v", i, j, k.Ops[j], wantOps[i][j])
			}
		}
	}
	if len(n.Notes) != 1 || n.Notes[0].Pos != "p/n.go:16:8" || !strings.Contains(n.Notes[0].Reason, "sum1") {
		t.Errorf("notes = %+v", n.Notes)
	}
	s := fns[1]
	if s.Spec != "scaleSpec" || s.Name != "Scale" || len(s.Kernels) != 1 || s.Kernels[0].Backend != "opencl" {
		t.Errorf("scaleSpec: %+v; want its directive's backend opencl", s)
	}
}

// TestEmptyListsAreArrays checks that a package without specs and a spec
// without kernels or notes print [] rather than null, as a consumer of the
// contract expects lists.
func TestEmptyListsAreArrays(t *testing.T) {
	src := parseSource(t)
	for _, tc := range []struct {
		name  string
		plans []*fusion.Plan
		want  string
	}{
		{"no specs", []*fusion.Plan{{Func: src.function("sumSquares", nil)}}, `"functions": []`},
		{"empty spec", []*fusion.Plan{{Func: src.function("scaleSpec", &ir.Directive{Name: "Scale"})}}, `"notes": []`},
		{"empty spec kernels", []*fusion.Plan{{Func: src.function("scaleSpec", &ir.Directive{Name: "Scale"})}}, `"kernels": []`},
		{"no rules", nil, `"rules": []`},
	} {
		r := &report.Report{Packages: []*report.Package{report.NewPackage(src.fset, "example.com/p", tc.plans, report.Options{Root: src.root})}}
		var buf bytes.Buffer
		if err := r.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), tc.want) {
			t.Errorf("%s: output lacks %s:\n%s", tc.name, tc.want, buf.String())
		}
		if strings.Contains(buf.String(), "null") {
			t.Errorf("%s: output contains null:\n%s", tc.name, buf.String())
		}
	}
	var buf bytes.Buffer
	if err := (&report.Report{}).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(buf.String()); got != "{\n  \"packages\": []\n}" {
		t.Errorf("empty report = %q", got)
	}
}

func TestFormatPos(t *testing.T) {
	fset := token.NewFileSet()
	root := filepath.FromSlash("/mod")
	in := fset.AddFile(filepath.FromSlash("/mod/p/n.go"), -1, 100)
	out := fset.AddFile(filepath.FromSlash("/elsewhere/q.go"), -1, 100)
	sibling := fset.AddFile(filepath.FromSlash("/module/r.go"), -1, 100)
	in.SetLines([]int{0, 10, 20})
	for _, tc := range []struct {
		pos  token.Pos
		root string
		want string
	}{
		{in.Pos(23), root, "p/n.go:3:4"},
		{in.Pos(0), root, "p/n.go:1:1"},
		{in.Pos(23), "", "/mod/p/n.go:3:4"},
		{out.Pos(5), root, "/elsewhere/q.go:1:6"},
		{sibling.Pos(0), root, "/module/r.go:1:1"},
		{token.NoPos, root, "-"},
	} {
		if got := report.FormatPos(fset, tc.pos, tc.root); got != filepath.ToSlash(tc.want) && got != tc.want {
			t.Errorf("FormatPos(%v, %q) = %q, want %q", tc.pos, tc.root, got, tc.want)
		}
	}
}

func TestStats(t *testing.T) {
	src := parseSource(t)
	p := report.NewPackage(src.fset, "example.com/p", src.plans(), report.Options{Root: src.root})
	// Only the two specs count: sumSquares.s map->reduce is not in the stats.
	s := p.Stats
	if s.Specs != 2 || s.PassesBefore != 7 || s.PassesAfter != 3 || s.IntermediatesRemoved != 2 {
		t.Errorf("stats = %+v, want 2 specs, 7 passes before, 3 after, 2 removed", s)
	}
	if s.Count("map->reduce") != 0 || s.Count("horizontal") != 2 || s.Count("map->map") != 1 || s.Count("filter->redomap") != 1 {
		t.Errorf("rule counts = %+v", s.Rules)
	}
	for i := 1; i < len(s.Rules); i++ {
		if s.Rules[i-1].Rule >= s.Rules[i].Rule {
			t.Errorf("rules not sorted: %+v", s.Rules)
		}
	}
	if f := p.Functions[1].Stats; f.PassesBefore != 2 || f.Count("map->map") != 1 || f.Count("horizontal") != 0 {
		t.Errorf("scaleSpec stats = %+v", f)
	}

	// A second package, to show the total column.
	q := report.NewPackage(src.fset, "example.com/q", []*fusion.Plan{{
		Func:  src.function("sumSquares", &ir.Directive{Name: "SumSquares"}),
		Stats: fusion.Stats{Rules: map[string]int{"map->reduce": 1}, PassesBefore: 2, PassesAfter: 1, IntermediatesRemoved: 1},
	}}, report.Options{Root: src.root})
	var buf bytes.Buffer
	if err := report.WriteStats(&buf, &report.Report{Packages: []*report.Package{p, q}}); err != nil {
		t.Fatal(err)
	}
	golden(t, "stats.golden", buf.Bytes())
}
