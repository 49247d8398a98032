// Package fusiongraph builds the SOAC dependency graph of a spec, as the
// fusion engine left it, as a value: one node per SOAC (its combinator and
// position), one edge per array or scalar that a SOAC's result carries to
// another SOAC, named by that variable, the kernels as (nested) clusters,
// and the fusions the engine refused drawn as blocked edges labelled with
// the refusal's rule. WriteDOT prints a graph as Graphviz DOT, WriteHTML
// puts several graphs, rendered as SVG, on one page beside the fusion
// report, and SVG renders DOT with Graphviz's dot.
//
// The package decides nothing: it reads a fusion.Plan and the IR it points
// into. It does not show data flow through non-SOAC statements (a slice
// expression, an assignment): an edge joins two SOACs only where one reads
// the other's result itself. Everything it builds and prints is
// deterministic: nodes in plan order (kernels in order, members in
// evaluation order), edges sorted by their end nodes, no map iteration
// reaching the output.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): a spec's SOAC
// dependency graph from its plan (nodes, edges by array, kernels as
// clusters, refused fusions as blocked edges); DOT, SVG via dot, the HTML
// page of soacgen -graph.
package fusiongraph

import (
	"cmp"
	"go/token"
	"path"
	"slices"
	"strconv"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/report"
)

// Graph is the SOAC dependency graph of one spec.
//
// Invariants: node IDs are unique; every edge joins two nodes of Nodes;
// every SOAC node is in exactly one cluster (the first kernel, in plan
// order, that holds it), input nodes are in none.
type Graph struct {
	Package string // the import path of the spec's package
	Spec    string // the spec's Go name
	Name    string // the function generated from it
	Pos     string // the spec's func keyword, file:line:col
	// Nodes are the SOACs in plan order, then the input arrays in order
	// of first use.
	Nodes []*Node
	// Edges sorted by (From, To) in node order, then kind and variable.
	Edges []*Edge
	// Clusters are the kernels at depth 0, in plan order; nested kernels
	// are the Children of the kernel whose lambda holds them.
	Clusters []*Cluster
}

// NodeKind says what a node stands for.
type NodeKind int

// The kinds of nodes.
const (
	// SOAC: a call of a runtime/soac combinator.
	SOAC NodeKind = iota
	// Input: an array a SOAC iterates over that no SOAC computes (a
	// parameter, a variable defined by another statement).
	Input
)

// Node is a SOAC call or an input array.
type Node struct {
	ID   string // "s1", "s2", ... for SOACs; "in1", ... for inputs
	Kind NodeKind
	// Op is the combinator as written ("Map", "Reduce", ...); empty for an
	// input.
	Op string
	// Var is the name of the SOAC's result ("" for the unnamed result of
	// a nested call), or of the input array.
	Var string
	// Pos is the SOAC's call, file:line:col with the file relative to
	// Options.Root; the input's definition ("-" when unknown).
	Pos string
	// Kernels are the IDs of the kernels the SOAC is a member of: one,
	// or several for a producer fused into consumers on disjoint branches.
	Kernels []int
}

// EdgeKind says what an edge carries.
type EdgeKind int

// The kinds of edges.
const (
	// Array: the consumer iterates over the producer's result.
	Array EdgeKind = iota
	// Scalar: the consumer reads the producer's result in a lambda or an
	// operand (a neutral element, a length): the producer must finish
	// first, so these never fuse.
	Scalar
	// Blocked: a fusion of producer into consumer that was possible in
	// shape but refused (Rule and Reason say why).
	Blocked
)

var edgeKindNames = [...]string{"array", "scalar", "blocked"}

// String returns the kind's name.
func (k EdgeKind) String() string { return edgeKindNames[k] }

// Edge is a dependency of one node on another: To reads what From
// computes.
type Edge struct {
	From, To string // node IDs
	Kind     EdgeKind
	// Var names the array or scalar the edge carries ("" for the unnamed
	// result of a nested call).
	Var string
	// Fused reports whether both ends run in one kernel.
	Fused bool
	// Rule is the refusal's stable identifier (fusion.Refusals) and Reason
	// the engine's sentence, for a Blocked edge.
	Rule, Reason string
}

// Cluster is one kernel: one pass over memory.
type Cluster struct {
	Kernel  int    // fusion.Kernel.ID
	Form    string // "map", "redomap", ...
	Depth   int
	Backend string
	// Nodes are the IDs of the kernel's members in evaluation order,
	// except those already placed in an earlier kernel's cluster.
	Nodes    []string
	Children []*Cluster
}

// Options control how positions and backends are rendered; they mean
// what report.Options fields of the same names mean.
type Options struct {
	Root    string
	Backend string
	// Generated, when it names a kernel, gives the backend whose code runs
	// it (after any fallback); other kernels show the requested backend.
	Generated map[*fusion.Kernel]report.Generated
}

// New builds the graph of the spec whose plan is pl, in package pkgPath.
// It returns nil for a plan of a function without a //soac:fuse
// directive.
func New(fset *token.FileSet, pkgPath string, pl *fusion.Plan, opts Options) *Graph {
	if pl == nil || pl.Func == nil || pl.Func.Fuse == nil {
		return nil
	}
	fn := pl.Func
	b := &builder{
		fset: fset, root: opts.Root,
		g:      &Graph{Package: pkgPath, Spec: fn.Name, Name: fn.Fuse.Name},
		soacs:  map[*ir.SOAC]*Node{},
		inputs: map[*ir.Var]*Node{},
		order:  map[string]int{},
		edges:  map[edgeKey]*Edge{},
	}
	if fn.Decl != nil {
		b.g.Pos = b.pos(fn.Decl.Type.Func)
	}
	backend := cmp.Or(fn.Fuse.Backend, opts.Backend, report.DefaultBackend)

	// Nodes and clusters, in plan order.
	clusters := map[*fusion.Kernel]*Cluster{}
	for _, k := range pl.Kernels {
		c := &Cluster{Kernel: k.ID, Form: k.Form, Depth: k.Depth, Backend: backend}
		if g, ok := opts.Generated[k]; ok && g.Backend != "" {
			c.Backend = g.Backend
		}
		clusters[k] = c
		if p := clusters[k.Parent]; k.Parent != nil && p != nil {
			p.Children = append(p.Children, c)
		} else {
			b.g.Clusters = append(b.g.Clusters, c)
		}
		for _, s := range k.SOACs {
			n := b.soacs[s]
			if n == nil {
				n = b.node(&Node{ID: "s" + strconv.Itoa(len(b.soacs)+1), Kind: SOAC, Op: s.Name, Pos: b.pos(s.Pos())})
				n.Var = varName(s.Out)
				b.soacs[s] = n
				c.Nodes = append(c.Nodes, n.ID)
			}
			n.Kernels = append(n.Kernels, k.ID)
		}
	}
	kernelOf := map[*ir.SOAC]*fusion.Kernel{}
	for _, k := range slices.Backward(pl.Kernels) {
		for _, s := range k.SOACs {
			kernelOf[s] = k // the first kernel holding s wins
		}
	}
	together := func(a, c *ir.SOAC) bool {
		for _, k := range pl.Kernels {
			if slices.Contains(k.SOACs, a) && slices.Contains(k.SOACs, c) {
				return true
			}
		}
		return false
	}

	// Data flow between SOACs, in node order.
	for _, k := range pl.Kernels {
		for _, s := range k.SOACs {
			if kernelOf[s] != k {
				continue
			}
			for _, v := range s.Inputs() {
				if p := producer(v); p != nil && b.soacs[p] != nil {
					b.edge(b.soacs[p], b.soacs[s], Array, varName(v)).Fused = together(p, s)
				} else if p == nil {
					b.edge(b.input(v), b.soacs[s], Array, varName(v))
				}
			}
			// An index read fused into the kernel is an element-wise flow.
			gathered := map[*ir.Var]bool{}
			for _, g := range k.Gathers {
				if g.SOAC == s {
					gathered[g.Var] = true
					if p := producer(g.Var); p != nil && b.soacs[p] != nil {
						b.edge(b.soacs[p], b.soacs[s], Array, varName(g.Var)).Fused = true
					}
				}
			}
			for _, v := range scalarReads(s) {
				if gathered[v] {
					continue
				}
				if p := producer(v); p != nil && b.soacs[p] != nil {
					b.edge(b.soacs[p], b.soacs[s], Scalar, varName(v))
				}
			}
		}
	}

	// Refused fusions: the edge from the producer to the consumer the note
	// names (or, when it names none, to every consumer of the producer's
	// result that runs in another kernel) becomes a blocked edge.
	for _, nt := range pl.Notes {
		p := b.soacs[nt.Producer]
		if p == nil {
			continue
		}
		var consumers []*ir.SOAC
		if nt.Consumer != nil {
			consumers = []*ir.SOAC{nt.Consumer}
		} else {
			for s := range b.soacs {
				if slices.Contains(s.Inputs(), nt.Producer.Out) {
					consumers = append(consumers, s)
				}
			}
		}
		for _, c := range consumers {
			to := b.soacs[c]
			if to == nil || together(nt.Producer, c) {
				continue
			}
			e := b.edges[edgeKey{p.ID, to.ID, Array, varName(nt.Producer.Out)}]
			if e == nil {
				e = b.edge(p, to, Blocked, varName(nt.Var))
			}
			e.Kind, e.Rule, e.Reason = Blocked, nt.Rule, nt.Reason
		}
	}

	b.g.Edges = make([]*Edge, 0, len(b.edges))
	for _, e := range b.edges {
		b.g.Edges = append(b.g.Edges, e)
	}
	slices.SortFunc(b.g.Edges, func(x, y *Edge) int {
		return cmp.Or(
			cmp.Compare(b.order[x.From], b.order[y.From]),
			cmp.Compare(b.order[x.To], b.order[y.To]),
			cmp.Compare(x.Kind, y.Kind),
			cmp.Compare(x.Var, y.Var),
		)
	})
	return b.g
}

// varName returns the Go name of v; "" for a temporary of
// let-normalisation (the result of a nested call, which has no name in the
// source) and for nil.
func varName(v *ir.Var) string {
	if v == nil || v.Obj == nil {
		return ""
	}
	return v.Name
}

// producer returns the SOAC whose result v is, or nil.
func producer(v *ir.Var) *ir.SOAC {
	if v == nil {
		return nil
	}
	if s, ok := v.Def.(*ir.SOAC); ok && s.Out == v {
		return s
	}
	return nil
}

// scalarReads returns the Vars s reads other than as input arrays: in its
// operands (neutral elements, lengths, replicated values) and as free
// variables of its lambdas, in argument order.
func scalarReads(s *ir.SOAC) []*ir.Var {
	var vs []*ir.Var
	for _, o := range s.Operands() {
		vs = append(vs, o.Uses...)
		if o.Len != nil {
			vs = append(vs, o.Len)
		}
	}
	for _, l := range s.Lambdas() {
		vs = append(vs, l.Free...)
	}
	return vs
}

type edgeKey struct {
	from, to string
	kind     EdgeKind
	v        string
}

type builder struct {
	fset   *token.FileSet
	root   string
	g      *Graph
	soacs  map[*ir.SOAC]*Node
	inputs map[*ir.Var]*Node
	order  map[string]int // node ID -> index in g.Nodes
	edges  map[edgeKey]*Edge
}

func (b *builder) node(n *Node) *Node {
	b.order[n.ID] = len(b.g.Nodes)
	b.g.Nodes = append(b.g.Nodes, n)
	return n
}

// input returns the node of the input array v, creating it on first use.
func (b *builder) input(v *ir.Var) *Node {
	if n := b.inputs[v]; n != nil {
		return n
	}
	n := b.node(&Node{ID: "in" + strconv.Itoa(len(b.inputs)+1), Kind: Input, Var: v.Name, Pos: b.pos(v.Pos)})
	b.inputs[v] = n
	return n
}

// edge returns the edge of the given kind carrying v from one node to
// another, creating it on first use.
func (b *builder) edge(from, to *Node, kind EdgeKind, v string) *Edge {
	k := edgeKey{from.ID, to.ID, kind, v}
	if e := b.edges[k]; e != nil {
		return e
	}
	e := &Edge{From: from.ID, To: to.ID, Kind: kind, Var: v}
	b.edges[k] = e
	return e
}

func (b *builder) pos(p token.Pos) string { return report.FormatPos(b.fset, p, b.root) }

// shortPos returns the base name of a file:line:col position's file with
// its line and column.
func shortPos(pos string) string { return path.Base(pos) }
