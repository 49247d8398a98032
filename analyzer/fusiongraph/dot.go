package fusiongraph

// This file prints a Graph as Graphviz DOT. It does not lay out or render
// anything: dot does (render.go).

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The look of the graph. Kernels are filled boxes; a blocked edge is red,
// bold and dashed, with a tee head, so that it reads as "stops here" even
// in grey print.
const (
	fontAttrs    = `fontname="Helvetica"`
	clusterFill  = "#eef3fb"
	nestedFill   = "#dde7f7"
	blockedColor = "#c62828"
	scalarColor  = "#555555"
)

// WriteDOT writes g as a Graphviz digraph: a title naming the spec, the
// generated function and the spec's position, one cluster per kernel (nested kernels inside their
// parent's cluster), SOAC nodes as boxes labelled with the combinator, the
// result and the position, input arrays as plain ellipses, array edges
// solid (thick within a kernel), scalar edges dotted, blocked edges red
// with their variable and rule. The output depends only on g.
func WriteDOT(w io.Writer, g *Graph) error {
	bw := bufio.NewWriter(w)
	p := &dotPrinter{w: bw, g: g, nodes: map[string]*Node{}}
	for _, n := range g.Nodes {
		p.nodes[n.ID] = n
	}
	p.graph()
	return bw.Flush()
}

type dotPrinter struct {
	w     *bufio.Writer
	g     *Graph
	nodes map[string]*Node // by ID
}

func (p *dotPrinter) line(indent int, format string, args ...any) {
	p.w.WriteString(strings.Repeat("\t", indent))
	fmt.Fprintf(p.w, format, args...)
	p.w.WriteByte('\n')
}

func (p *dotPrinter) graph() {
	g := p.g
	// The title names the spec, the generated function and the spec's
	// position; the package path, often wider than the graph, is in the
	// tooltip.
	title := g.Spec + " → " + g.Name + "\n" + g.Pos
	p.line(0, "digraph %s {", quote(g.Spec))
	p.line(1, "graph [label=%s, tooltip=%s, labelloc=t, fontsize=16, %s, rankdir=TB, nodesep=0.4, ranksep=0.5];", quote(title), quote(g.Package+"."+g.Spec), fontAttrs)
	p.line(1, `node [shape=box, style="rounded,filled", fillcolor=white, fontsize=11, %s];`, fontAttrs)
	p.line(1, "edge [fontsize=10, %s];", fontAttrs)
	placed := map[string]bool{}
	for _, c := range g.Clusters {
		p.cluster(1, c, placed)
	}
	for _, n := range g.Nodes {
		if !placed[n.ID] {
			p.node(1, n)
		}
	}
	for _, e := range g.Edges {
		p.edge(e)
	}
	p.line(0, "}")
}

func (p *dotPrinter) cluster(indent int, c *Cluster, placed map[string]bool) {
	fill := clusterFill
	if c.Depth > 0 {
		fill = nestedFill
	}
	label := fmt.Sprintf("kernel %d: %s\ndepth %d, %s", c.Kernel, c.Form, c.Depth, c.Backend)
	if len(c.Vector) > 0 {
		label += fmt.Sprintf(", vector %s bits", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(c.Vector)), "/"), "[]"))
	}
	p.line(indent, "subgraph cluster_k%d {", c.Kernel)
	p.line(indent+1, `graph [label=%s, style="rounded,filled", fillcolor=%s, color="#7a94c2", fontsize=11];`, quote(label), quote(fill))
	for _, id := range c.Nodes {
		if n := p.nodes[id]; n != nil {
			p.node(indent+1, n)
			placed[id] = true
		}
	}
	for _, ch := range c.Children {
		p.cluster(indent+1, ch, placed)
	}
	p.line(indent, "}")
}

func (p *dotPrinter) node(indent int, n *Node) {
	if n.Kind == Input {
		p.line(indent, "%s [label=%s, shape=ellipse, style=solid, color=%s, fontcolor=%s, tooltip=%s];",
			n.ID, quote(n.Var), quote(scalarColor), quote(scalarColor), quote("input "+n.Var+" at "+n.Pos))
		return
	}
	label := n.Op
	if n.Var != "" {
		label += " → " + n.Var
	}
	label += "\n" + shortPos(n.Pos)
	if len(n.Kernels) > 1 {
		ks := make([]string, len(n.Kernels)-1)
		for i, k := range n.Kernels[1:] {
			ks[i] = strconv.Itoa(k)
		}
		label += "\nalso in kernel " + strings.Join(ks, ", ")
	}
	p.line(indent, "%s [label=%s, tooltip=%s];", n.ID, quote(label), quote(n.Op+" at "+n.Pos))
}

func (p *dotPrinter) edge(e *Edge) {
	var attrs []string
	switch e.Kind {
	case Array:
		attrs = append(attrs, "label="+quote(e.Var))
		if e.Fused {
			attrs = append(attrs, "penwidth=2", "tooltip="+quote(e.Var+": fused, never materialised"))
		}
	case Scalar:
		attrs = append(attrs, "label="+quote(e.Var), "style=dotted", "color="+quote(scalarColor), "fontcolor="+quote(scalarColor),
			"tooltip="+quote(e.Var+": a scalar the consumer reads; the producer finishes first"))
	case Blocked:
		attrs = append(attrs, "label="+quote(e.Var+"\n["+e.Rule+"]"), `style="dashed,bold"`, "penwidth=2", "arrowhead=tee",
			"color="+quote(blockedColor), "fontcolor="+quote(blockedColor), "tooltip="+quote(e.Reason))
	}
	if n := p.nodes[e.From]; n != nil && n.Kind == Input {
		attrs = []string{"color=" + quote(scalarColor), "arrowsize=0.7"}
	}
	p.line(1, "%s -> %s [%s];", e.From, e.To, strings.Join(attrs, ", "))
}

// quote returns s as a DOT quoted string: double quotes and backslashes
// escaped, newlines as \n (a centred line break in a label).
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
