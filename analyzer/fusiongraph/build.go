package fusiongraph

// This file builds a Graph from a plan: the nodes and clusters in plan
// order, the data flow between SOACs (arrays, index reads, scalars), and
// the refused fusions as blocked edges.

import (
	"cmp"
	"go/token"
	"slices"
	"strconv"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/report"
)

// New builds the graph of the spec whose plan is pl, in package pkgPath.
// It returns nil for a plan of a function without a //soac:fuse
// directive.
func New(fset *token.FileSet, pkgPath string, pl *fusion.Plan, opts Options) *Graph {
	if pl == nil || pl.Func == nil || pl.Func.Fuse == nil {
		return nil
	}
	fn := pl.Func
	b := &builder{
		fset: fset, root: opts.Root, plan: pl,
		g:      &Graph{Package: pkgPath, Spec: fn.Name, Name: fn.Fuse.Name},
		soacs:  map[*ir.SOAC]*Node{},
		inputs: map[*ir.Var]*Node{},
		order:  map[string]int{},
		edges:  map[edgeKey]*Edge{},
	}
	if fn.Decl != nil {
		b.g.Pos = b.pos(fn.Decl.Type.Func)
	}
	b.clusters(cmp.Or(fn.Fuse.Backend, opts.Backend, report.DefaultBackend), opts.Generated)
	b.flows()
	b.blocked()
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

// clusters adds the nodes of the SOACs and the clusters of the kernels,
// in plan order: a SOAC's node lies in the cluster of the first kernel
// holding it. A cluster shows backend, or the backend generated names
// for its kernel.
func (b *builder) clusters(backend string, generated map[*fusion.Kernel]report.Generated) {
	clusters := map[*fusion.Kernel]*Cluster{}
	for _, k := range b.plan.Kernels {
		c := &Cluster{Kernel: k.ID, Form: k.Form, Depth: k.Depth, Backend: backend}
		if g, ok := generated[k]; ok && g.Backend != "" {
			c.Backend = g.Backend
			if g.Vector != nil {
				c.Vector = g.Vector.Widths
			}
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
}

// flows adds the edges of the data flow between SOACs, in node order: the
// arrays each SOAC iterates over (from an input node where no SOAC
// computes it), its index reads fused into the kernel (element-wise, so
// array edges), and the scalars it reads.
func (b *builder) flows() {
	kernelOf := map[*ir.SOAC]*fusion.Kernel{}
	for _, k := range slices.Backward(b.plan.Kernels) {
		for _, s := range k.SOACs {
			kernelOf[s] = k // the first kernel holding s wins
		}
	}
	for _, k := range b.plan.Kernels {
		for _, s := range k.SOACs {
			if kernelOf[s] != k {
				continue
			}
			for _, v := range s.Inputs() {
				if p := producer(v); p != nil && b.soacs[p] != nil {
					b.edge(b.soacs[p], b.soacs[s], Array, varName(v)).Fused = b.together(p, s)
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
}

// blocked marks the refused fusions: the edge from the producer to the
// consumer the note names (or, when it names none, to every consumer of
// the producer's result that runs in another kernel) becomes a blocked
// edge.
func (b *builder) blocked() {
	for _, nt := range b.plan.Notes {
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
			if to == nil || b.together(nt.Producer, c) {
				continue
			}
			e := b.edges[edgeKey{p.ID, to.ID, Array, varName(nt.Producer.Out)}]
			if e == nil {
				e = b.edge(p, to, Blocked, varName(nt.Var))
			}
			e.Kind, e.Rule, e.Reason = Blocked, nt.Rule, nt.Reason
		}
	}
}

// together reports whether one kernel of the plan holds both a and c.
func (b *builder) together(a, c *ir.SOAC) bool {
	for _, k := range b.plan.Kernels {
		if slices.Contains(k.SOACs, a) && slices.Contains(k.SOACs, c) {
			return true
		}
	}
	return false
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

// edgeKey identifies an edge: its ends, its kind and its variable.
type edgeKey struct {
	from, to string
	kind     EdgeKind
	v        string
}

// builder builds the graph of one plan.
type builder struct {
	fset   *token.FileSet
	root   string
	plan   *fusion.Plan
	g      *Graph
	soacs  map[*ir.SOAC]*Node
	inputs map[*ir.Var]*Node
	order  map[string]int // node ID -> index in g.Nodes
	edges  map[edgeKey]*Edge
}

// node adds n to the graph.
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
	n := b.node(&Node{ID: "in" + strconv.Itoa(len(b.inputs)+1), Kind: Input, Var: v.LabelAt(b.pos), Pos: b.pos(v.Pos)})
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

// pos formats p as report positions are formatted.
func (b *builder) pos(p token.Pos) string { return report.FormatPos(b.fset, p, b.root) }
