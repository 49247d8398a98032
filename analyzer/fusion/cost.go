package fusion

// This file prices a clustering under the two cost models of the papers:
// Robinson's objective (Robinson et al., "Clustering for Array-Backed Streams" (2014) [Robinson-ILP] §1.4.4, Fig. 1.14) and Bohrium's bytes
// accessed (Kristensen et al., "Fusion of Array Operations at Runtime" (2016) [Bohrium-WSP] Def. 13). Both are monotone ([Bohrium-WSP] Def. 6):
// merging two groups never costs more.
//
// It does NOT decide legality (replay.go's replay does) nor search.

import (
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// Cost is the price of a plan's clustering under both cost models; lower
// is better. A plan's groups are its kernels, kernels sharing a producer
// copied into disjoint branches counting as one group.
type Cost struct {
	// Robinson is [Robinson-ILP]'s objective with N the number of SOACs: N² for
	// each pair of SOACs in different groups that could share one (no
	// fusion-preventing path between them) and that are producer and
	// consumer or read a common array; 1 for any other such pair (a loop's
	// overhead); N for each array that would otherwise be contracted but is
	// materialised because a consumer lies in another group. A producer
	// fused with some of its consumers and written out for the others
	// (map-out) pays that N: [Robinson-ILP] counts a fused array that is also
	// needed elsewhere as materialised.
	Robinson int64
	// Bytes is [Bohrium-WSP]'s cost: the sum over groups of the bytes per
	// element of the arrays the group reads from memory (input arrays that
	// no member computes, each once) and writes to memory (members' arrays
	// used outside the group, map-out arrays among them). Scalars, and
	// arrays that lambdas index, are not counted.
	Bytes int64
}

// cost prices labels under both models.
func (pr *problem) cost(labels []int) Cost {
	return Cost{Robinson: pr.robinson(labels), Bytes: pr.bytes(labels)}
}

// robinson is [Robinson-ILP] Fig. 1.14's objective of labels, over the pairs
// that its Fig. 1.13 calls possible, leaving out the terms that are
// constant over every clustering (pairs with a fusion-preventing path,
// arrays with a use other than as a SOAC's input array).
func (pr *problem) robinson(labels []int) int64 {
	n := int64(len(pr.nodes))
	var c int64
	for i := range pr.nodes {
		for j := i + 1; j < len(pr.nodes); j++ {
			if pr.pathPossible[i][j] && labels[i] != labels[j] {
				c += pr.weight(i, j)
			}
		}
		if pr.contractible[i] {
			for j := range pr.nodes {
				if pr.flow[i][j] && labels[j] != labels[i] {
					c += n
					break
				}
			}
		}
	}
	return c
}

// weight is W_ij of [Robinson-ILP] Fig. 1.12.
func (pr *problem) weight(i, j int) int64 {
	n := int64(len(pr.nodes))
	if pr.flow[i][j] || pr.flow[j][i] || pr.share[i][j] {
		return n * n
	}
	return 1
}

// bytes is [Bohrium-WSP] Def. 13's cost of labels: over each group, the
// bytes per element of the input arrays it reads that no member computes
// (each once) and of the members' arrays used outside it. The searches
// price every node with it, so it runs on per-node data built once
// (bytesModel) rather than on the graph.
func (pr *problem) bytes(labels []int) int64 {
	if pr.bm == nil {
		pr.bm = pr.newBytesModel()
	}
	bm := pr.bm
	groups := 0
	for _, l := range labels {
		groups = max(groups, l+1)
	}
	// Visit the nodes group by group, so that one stamp per array tells
	// whether the current group already counted it.
	start := make([]int, groups+1)
	for _, l := range labels {
		start[l+1]++
	}
	for g := range groups {
		start[g+1] += start[g]
	}
	order := make([]int, len(labels))
	next := append([]int(nil), start[:groups]...)
	for i, l := range labels {
		order[next[l]] = i
		next[l]++
	}
	stamp := make([]int, bm.nVars)
	var c int64
	for _, i := range order {
		l := labels[i]
		for _, in := range bm.ins[i] {
			if in.prod >= 0 && labels[in.prod] == l || stamp[in.v] == l+1 {
				continue
			}
			stamp[in.v] = l + 1
			c += in.size
		}
		if o := bm.outs[i]; o.size > 0 {
			for _, u := range o.uses {
				if u < 0 || labels[u] != l {
					c += o.size
					break
				}
			}
		}
	}
	return c
}

// bytesModel is what bytes needs of each node: its distinct input arrays
// (an index, the node computing it or -1, the element size) and, for an
// output array, its element size and its uses (the node reading it as an
// input array, -1 for any other use).
type bytesModel struct {
	ins   [][]bytesIn
	outs  []bytesOut
	nVars int
}

type bytesIn struct {
	v, prod int
	size    int64
}

type bytesOut struct {
	size int64
	uses []int
}

func (pr *problem) newBytesModel() *bytesModel {
	bm := &bytesModel{ins: make([][]bytesIn, len(pr.nodes)), outs: make([]bytesOut, len(pr.nodes))}
	ids := map[*ir.Var]int{}
	node := func(s ir.Stmt) int {
		if soac, ok := s.(*ir.SOAC); ok {
			if i, ok := pr.idx[soac]; ok {
				return i
			}
		}
		return -1
	}
	for i, s := range pr.nodes {
		seen := map[*ir.Var]bool{}
		for _, v := range pr.g.FlowInputs(s) {
			if seen[v] {
				continue
			}
			seen[v] = true
			id, ok := ids[v]
			if !ok {
				id = len(ids)
				ids[v] = id
			}
			prod := -1
			if v.Def != nil && producedBy(v) {
				prod = node(v.Def)
			}
			bm.ins[i] = append(bm.ins[i], bytesIn{id, prod, elemSize(v)})
		}
		if s.Out == nil || !holdsArray(s.Out) {
			continue
		}
		o := bytesOut{size: elemSize(s.Out)}
		for _, u := range pr.g.Uses[s.Out] {
			k := -1
			if u.Kind == ArrayFlow {
				k = node(u.Stmt)
			}
			o.uses = append(o.uses, k)
		}
		bm.outs[i] = o
	}
	bm.nVars = len(ids)
	return bm
}

// producedBy reports whether v is the output of the SOAC defining it.
func producedBy(v *ir.Var) bool {
	s, ok := v.Def.(*ir.SOAC)
	return ok && s.Out == v
}

// sizes are the sizes the bytes model counts with: those of the gc
// compiler on a 64-bit target, so that costs do not depend on the host.
var sizes = types.SizesFor("gc", "amd64")

// elemSize returns the size in bytes of one element of array v (8 when
// the type is unknown or not sized, such as a type parameter).
func elemSize(v *ir.Var) (n int64) {
	if v.Type == nil {
		return 8
	}
	sl, ok := v.Type.Underlying().(*types.Slice)
	if !ok {
		return 8
	}
	defer func() {
		if recover() != nil {
			n = 8
		}
	}()
	if _, tp := sl.Elem().(*types.TypeParam); tp {
		return 8
	}
	return max(sizes.Sizeof(sl.Elem()), 1)
}
