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
//
// Files: graph.go (the Graph's types), build.go (New), dot.go (WriteDOT),
// render.go (SVG), html.go (WriteHTML).
package fusiongraph

import (
	"path"

	"github.com/soacgen/soacgen/analyzer/fusion"
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
	// Vector are the widths in bits of the kernel's vector forms (the
	// report's vector.widths), none when it has none.
	Vector []int
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

// shortPos returns the base name of a file:line:col position's file with
// its line and column.
func shortPos(pos string) string { return path.Base(pos) }
