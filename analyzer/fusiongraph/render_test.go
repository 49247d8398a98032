package fusiongraph_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/fusiongraph"
)

// svgGroup is a <g> element of dot's SVG output: its class ("graph",
// "cluster", "node" or "edge"), its <title> (the node ID, "a->b" for an
// edge, the cluster name) and its text lines.
type svgGroup struct {
	Class  string     `xml:"class,attr"`
	Title  string     `xml:"title"`
	Texts  []string   `xml:"text"`
	Paths  []svgPath  `xml:"path"`
	Groups []svgGroup `xml:"g"`
	// Links hold the shapes of nodes and edges with a tooltip.
	Links []svgGroup `xml:"a"`
}

type svgPath struct {
	Stroke string `xml:"stroke,attr"`
	Dash   string `xml:"stroke-dasharray,attr"`
}

// texts returns the text lines of g and of its links and nested groups.
func (g svgGroup) texts() []string {
	out := slices.Clone(g.Texts)
	for _, c := range slices.Concat(g.Groups, g.Links) {
		out = append(out, c.texts()...)
	}
	return out
}

// paths returns the paths of g and of its links and nested groups.
func (g svgGroup) paths() []svgPath {
	out := slices.Clone(g.Paths)
	for _, c := range slices.Concat(g.Groups, g.Links) {
		out = append(out, c.paths()...)
	}
	return out
}

type svgDoc struct {
	XMLName xml.Name   `xml:"svg"`
	Groups  []svgGroup `xml:"g"`
}

// groups returns every <g> of the document, depth first.
func (d svgDoc) groups() []svgGroup {
	var out []svgGroup
	var walk func(gs []svgGroup)
	walk = func(gs []svgGroup) {
		for _, g := range gs {
			out = append(out, g)
			walk(g.Groups)
		}
	}
	walk(d.Groups)
	return out
}

// checkSVG parses the SVG that dot rendered for g and checks that it
// shows g: one cluster per kernel, one node per SOAC and input with its
// combinator and position, one edge per edge, blocked edges red and dashed
// with their rule.
func checkSVG(t *testing.T, g *fusiongraph.Graph, svg []byte) {
	t.Helper()
	var doc svgDoc
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Errorf("%s: SVG does not parse: %v", g.Spec, err)
		return
	}
	byClass := map[string][]svgGroup{}
	for _, gr := range doc.groups() {
		byClass[gr.Class] = append(byClass[gr.Class], gr)
	}
	var kernels []string
	var count func(cs []*fusiongraph.Cluster)
	count = func(cs []*fusiongraph.Cluster) {
		for _, c := range cs {
			kernels = append(kernels, fmt.Sprintf("cluster_k%d", c.Kernel))
			count(c.Children)
		}
	}
	count(g.Clusters)
	var clusters []string
	for _, c := range byClass["cluster"] {
		clusters = append(clusters, c.Title)
	}
	slices.Sort(kernels)
	slices.Sort(clusters)
	if !slices.Equal(clusters, kernels) {
		t.Errorf("%s: SVG clusters %v, want %v", g.Spec, clusters, kernels)
	}
	nodes := map[string]svgGroup{}
	for _, n := range byClass["node"] {
		nodes[n.Title] = n
	}
	if len(nodes) != len(g.Nodes) {
		t.Errorf("%s: SVG has %d nodes, want %d", g.Spec, len(nodes), len(g.Nodes))
	}
	for _, n := range g.Nodes {
		text := strings.Join(nodes[n.ID].texts(), "\n")
		want := n.Var
		if n.Kind == fusiongraph.SOAC {
			want = n.Op
			if !strings.Contains(text, n.Pos[strings.LastIndex(n.Pos, "/")+1:]) {
				t.Errorf("%s: node %s shows %q, without its position %s", g.Spec, n.ID, text, n.Pos)
			}
		}
		if !strings.Contains(text, want) {
			t.Errorf("%s: node %s shows %q, want %q in it", g.Spec, n.ID, text, want)
		}
	}
	edges := map[string]svgGroup{}
	for _, e := range byClass["edge"] {
		edges[e.Title] = e
	}
	if len(byClass["edge"]) != len(g.Edges) {
		t.Errorf("%s: SVG has %d edges, want %d", g.Spec, len(byClass["edge"]), len(g.Edges))
	}
	for _, e := range g.Edges {
		se, ok := edges[e.From+"->"+e.To]
		if !ok {
			t.Errorf("%s: SVG has no edge %s->%s", g.Spec, e.From, e.To)
			continue
		}
		text := strings.Join(se.texts(), "\n")
		if e.Var != "" && !strings.HasPrefix(e.From, "in") && !strings.Contains(text, e.Var) {
			t.Errorf("%s: edge %s->%s shows %q, want its variable %s", g.Spec, e.From, e.To, text, e.Var)
		}
		if e.Kind == fusiongraph.Blocked {
			if !strings.Contains(text, "["+e.Rule+"]") {
				t.Errorf("%s: blocked edge %s->%s shows %q, want its rule [%s]", g.Spec, e.From, e.To, text, e.Rule)
			}
			if ps := se.paths(); len(ps) == 0 || ps[0].Stroke != "#c62828" || ps[0].Dash == "" {
				t.Errorf("%s: blocked edge %s->%s is not drawn red and dashed: %+v", g.Spec, e.From, e.To, ps)
			}
		}
	}
}

// TestRenderExamples renders the graph of every spec of every example
// (and of testdata/shapes, which has blocked edges) with Graphviz and
// checks the SVG against the graph.
func TestRenderExamples(t *testing.T) {
	requireGraphviz(t)
	specs := loadSpecs(t, "../..", "./examples/...", "./analyzer/fusiongraph/testdata/shapes")
	examples, blocked := 0, 0
	for _, s := range specs {
		g := newGraph(s)
		svg, err := fusiongraph.SVG(dotOf(t, g))
		if err != nil {
			t.Errorf("%s.%s: %v", g.Package, g.Spec, err)
			continue
		}
		checkSVG(t, g, svg)
		if strings.Contains(g.Package, "/examples/") {
			examples++
		}
		for _, e := range g.Edges {
			if e.Kind == fusiongraph.Blocked {
				blocked++
			}
		}
	}
	// Every example has at least one spec; this guards against loading
	// nothing.
	if examples < 14 {
		t.Errorf("rendered %d example specs, want at least 14", examples)
	}
	if blocked < 3 {
		t.Errorf("rendered %d blocked edges, want at least 3 (testdata/shapes)", blocked)
	}
}

// TestHTML checks the page: every section shows its graph as inline SVG
// (no XML prolog) and its report as escaped text; without SVG, the DOT
// and the reason.
func TestHTML(t *testing.T) {
	gs := shapes(t)
	page := fusiongraph.Page{Title: "fusion graphs"}
	for _, name := range []string{"twice", "loop"} {
		g := gs[name]
		sec := fusiongraph.Section{Graph: g, DOT: dotOf(t, g), Report: []byte(`{"spec": "` + name + `", "x": "<b>"}`)}
		if name == "twice" {
			sec.SVG = []byte(`<?xml version="1.0"?>` + "\n<!DOCTYPE svg>\n" + `<svg id="twice-svg"></svg>`)
		} else {
			sec.Missing = "dot not found"
		}
		page.Sections = append(page.Sections, sec)
	}
	var b bytes.Buffer
	if err := fusiongraph.WriteHTML(&b, page); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		`<svg id="twice-svg"></svg>`,
		`{&#34;spec&#34;: &#34;twice&#34;, &#34;x&#34;: &#34;&lt;b&gt;&#34;}`,
		`<p class="missing">dot not found</p>`,
		`digraph &#34;loop&#34;`,
		`<h2>twice → Twice</h2>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page has no %s:\n%s", want, html)
		}
	}
	for _, bad := range []string{"<?xml", "<!DOCTYPE svg", "<b>"} {
		if strings.Contains(html, bad) {
			t.Errorf("page contains %s", bad)
		}
	}
}

// TestCommittedPicture checks that docs/normalize2-graph.svg, the picture
// in README.md, shows the graph of examples/normalize2 as it is now:
// regenerate it with
//
//	go run ./cmd/soacgen -graph=/tmp/g ./examples/normalize2 &&
//	dot -Tsvg /tmp/g/normalize2.normalize2Spec.Normalize2.dot -o docs/normalize2-graph.svg
//
// (normalize2Spec has several directives, so its graphs are named by
// NAME too; the picture is the first, Normalize2's.)
func TestCommittedPicture(t *testing.T) {
	svg, err := os.ReadFile(filepath.Join("..", "..", "docs", "normalize2-graph.svg"))
	if err != nil {
		t.Fatal(err)
	}
	specs := slices.DeleteFunc(loadSpecs(t, "../..", "./examples/normalize2"), func(s spec) bool { return s.plan.Func.Name != "normalize2Spec" })
	if len(specs) != 1 {
		t.Fatalf("examples/normalize2 has %d specs normalize2Spec, want 1", len(specs))
	}
	g := newGraph(specs[0])
	checkSVG(t, g, svg)
	if title := g.Spec + " → " + g.Name; !bytes.Contains(svg, []byte(">"+title+"<")) {
		t.Errorf("the picture's title is not %q", title)
	}
}
