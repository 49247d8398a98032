package fusiongraph_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/soacgen/soacgen/analyzer/build"
	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/fusiongraph"
	"github.com/soacgen/soacgen/analyzer/ir"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

// requireGraphviz skips the test when dot is missing, except in CI (CI
// set), where scripts/test.sh installs Graphviz and the test must run.
func requireGraphviz(t *testing.T) {
	t.Helper()
	if fusiongraph.HaveGraphviz() {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatal("Graphviz's dot is not on the PATH (scripts/test.sh installs the graphviz package)")
	}
	t.Skip("Graphviz's dot is not on the PATH (apt-get install graphviz); CI=true makes this a failure")
}

// spec is one spec of a loaded package with its plan.
type spec struct {
	pkg  *packages.Package
	plan *fusion.Plan
}

// loadSpecs loads the packages matching patterns (relative to dir), builds
// their IR and fuses every spec, in package and source order.
func loadSpecs(t *testing.T, dir string, patterns ...string) []spec {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the packages have errors")
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{build.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var specs []spec
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatal(act.Err)
		}
		prog := act.Result.(*ir.Program)
		for _, fn := range prog.Funcs {
			if fn.Fuse != nil {
				specs = append(specs, spec{act.Package, fusion.Fuse(fn, fusion.Options{Fset: act.Package.Fset})})
			}
		}
	}
	slices.SortStableFunc(specs, func(a, b spec) int { return strings.Compare(a.pkg.PkgPath, b.pkg.PkgPath) })
	return specs
}

func newGraph(s spec) *fusiongraph.Graph {
	root := ""
	if s.pkg.Module != nil {
		root = s.pkg.Module.Dir
	}
	return fusiongraph.New(s.pkg.Fset, s.pkg.PkgPath, s.plan, fusiongraph.Options{Root: root})
}

func dotOf(t *testing.T, g *fusiongraph.Graph) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := fusiongraph.WriteDOT(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// shapes returns the graphs of testdata/shapes by spec name.
func shapes(t *testing.T) map[string]*fusiongraph.Graph {
	t.Helper()
	gs := map[string]*fusiongraph.Graph{}
	for _, s := range loadSpecs(t, ".", "./testdata/shapes") {
		gs[s.plan.Func.Name] = newGraph(s)
	}
	return gs
}

// TestGolden compares the DOT of every spec of testdata/shapes with
// testdata/shapes.dot.golden (go test -update rewrites it), and checks
// that building and printing again gives the same bytes.
func TestGolden(t *testing.T) {
	specs := loadSpecs(t, ".", "./testdata/shapes")
	var got bytes.Buffer
	for _, s := range specs {
		dot := dotOf(t, newGraph(s))
		if again := dotOf(t, newGraph(s)); !bytes.Equal(dot, again) {
			t.Errorf("%s: two builds print different DOT", s.plan.Func.Name)
		}
		got.Write(dot)
	}
	golden := filepath.Join("testdata", "shapes.dot.golden")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("DOT differs from %s (go test -update rewrites it):\n%s", golden, got.String())
	}
}

// edgeList renders the edges of g as "from-op -kind:var[rule]-> to-op".
func edgeList(g *fusiongraph.Graph) []string {
	label := map[string]string{}
	for _, n := range g.Nodes {
		label[n.ID] = n.Op
		if n.Kind == fusiongraph.Input {
			label[n.ID] = "input " + n.Var
		}
	}
	var es []string
	for _, e := range g.Edges {
		s := label[e.From] + " -" + e.Kind.String() + ":" + e.Var
		if e.Rule != "" {
			s += "[" + e.Rule + "]"
		}
		if e.Fused {
			s += "(fused)"
		}
		es = append(es, s+"-> "+label[e.To])
	}
	return es
}

// clusterList renders the clusters of g as "kernel form depth [ops]",
// nested clusters after their parent with one more indentation.
func clusterList(g *fusiongraph.Graph) []string {
	op := map[string]string{}
	for _, n := range g.Nodes {
		op[n.ID] = n.Op
	}
	var out []string
	var walk func(cs []*fusiongraph.Cluster, indent string)
	walk = func(cs []*fusiongraph.Cluster, indent string) {
		for _, c := range cs {
			var ops []string
			for _, id := range c.Nodes {
				ops = append(ops, op[id])
			}
			out = append(out, fmt.Sprintf("%s%d %s %d [%s]", indent, c.Kernel, c.Form, c.Depth, strings.Join(ops, " ")))
			walk(c.Children, indent+"  ")
		}
	}
	walk(g.Clusters, "")
	return out
}

// TestStructure checks the graphs of testdata/shapes as structure: which
// edges each spec has, of which kind and variable, which are blocked and
// by which rule, and how the kernels nest.
func TestStructure(t *testing.T) {
	gs := shapes(t)
	for _, tc := range []struct {
		spec     string
		edges    []string
		clusters []string
	}{
		{"writeBetween",
			[]string{"Map -blocked:ys[write-between]-> Reduce", "input xs -array:xs-> Map"},
			[]string{"1 map 0 [Map]", "2 reduce 0 [Reduce]"}},
		{"twice",
			[]string{"Map -array:ys(fused)-> Reduce", "Map -blocked:ys[consumed-twice]-> Map", "Reduce -scalar:sum-> Map", "input xs -array:xs-> Map"},
			[]string{"1 redomap 0 [Map Reduce]", "2 map 0 [Map]"}},
		{"reassigned",
			[]string{"Map -blocked:ys[capture-reassigned]-> Reduce", "input xs -array:xs-> Map"},
			[]string{"1 map 0 [Map]", "2 reduce 0 [Reduce]"}},
		{"rows",
			[]string{"Map -array:(fused)-> Reduce", "input m -array:m-> Map", "input r -array:r-> Map"},
			[]string{"1 map 0 [Map]", "  2 redomap 1 [Map Reduce]"}},
		{"branches",
			[]string{"Map -array:ys(fused)-> Reduce", "Map -array:ys(fused)-> Reduce", "input xs -array:xs-> Map"},
			[]string{"1 redomap 0 [Map Reduce]", "2 redomap 0 [Reduce]"}},
		{"loop",
			[]string{"Map -blocked:ys[loop-boundary]-> Reduce", "input xs -array:xs-> Map"},
			[]string{"1 map 0 [Map]", "2 reduce 0 [Reduce]"}},
	} {
		g := gs[tc.spec]
		if g == nil {
			t.Errorf("no graph for %s", tc.spec)
			continue
		}
		if got := edgeList(g); !slices.Equal(got, tc.edges) {
			t.Errorf("%s: edges\n\t%s\nwant\n\t%s", tc.spec, strings.Join(got, "\n\t"), strings.Join(tc.edges, "\n\t"))
		}
		if got := clusterList(g); !slices.Equal(got, tc.clusters) {
			t.Errorf("%s: clusters\n\t%s\nwant\n\t%s", tc.spec, strings.Join(got, "\n\t"), strings.Join(tc.clusters, "\n\t"))
		}
	}
	// The map of branches is a member of both branch kernels: one node,
	// placed in the first.
	for _, n := range gs["branches"].Nodes {
		if n.Op == "Map" && !slices.Equal(n.Kernels, []int{1, 2}) {
			t.Errorf("branches: Map in kernels %v, want [1 2]", n.Kernels)
		}
	}
	if g := gs["writeBetween"]; g.Name != "WriteBetween" || !strings.HasSuffix(g.Pos, "shapes.go:19:1") || g.Package != "github.com/soacgen/soacgen/analyzer/fusiongraph/testdata/shapes" {
		t.Errorf("writeBetween: name %q, pos %q, package %q", g.Name, g.Pos, g.Package)
	}
}

// TestNotASpec checks that New returns nil for a plan without a spec.
func TestNotASpec(t *testing.T) {
	if g := fusiongraph.New(nil, "p", &fusion.Plan{Func: &ir.Function{Name: "f"}}, fusiongraph.Options{}); g != nil {
		t.Errorf("New of a non-spec = %+v, want nil", g)
	}
	if g := fusiongraph.New(nil, "p", nil, fusiongraph.Options{}); g != nil {
		t.Errorf("New(nil) = %+v, want nil", g)
	}
}

// TestQuoting checks that names and reasons with quotes, backslashes and
// newlines print as valid DOT that dot renders with the same text.
func TestQuoting(t *testing.T) {
	g := &fusiongraph.Graph{Package: "p", Spec: `s"pec`, Name: "N", Pos: `a\b.go:1:1`,
		Nodes:    []*fusiongraph.Node{{ID: "s1", Op: "Map", Var: "ys", Pos: "a.go:2:3", Kernels: []int{1}}, {ID: "s2", Op: "Reduce", Pos: "a.go:3:3", Kernels: []int{2}}},
		Edges:    []*fusiongraph.Edge{{From: "s1", To: "s2", Kind: fusiongraph.Blocked, Var: "ys", Rule: "write-between", Reason: "xs written at \"a.go:2:2\"\nthen \\ read"}},
		Clusters: []*fusiongraph.Cluster{{Kernel: 1, Form: "map", Nodes: []string{"s1"}}, {Kernel: 2, Form: "reduce", Nodes: []string{"s2"}}},
	}
	dot := string(dotOf(t, g))
	for _, want := range []string{`digraph "s\"pec" {`, `a\\b.go:1:1"`, `tooltip="xs written at \"a.go:2:2\"\nthen \\ read"`} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT has no %s:\n%s", want, dot)
		}
	}
	requireGraphviz(t)
	svg, err := fusiongraph.SVG([]byte(dot))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte(`xs written at &quot;a.go:2:2&quot;`)) {
		t.Errorf("SVG lost the quoted reason:\n%s", svg)
	}
}
