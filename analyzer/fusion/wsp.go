package fusion

// This file is the wsp method: Kristensen et al.'s weighted subroutine
// partition (Kristensen et al., "Fusion of Array Operations at Runtime" (2016) [Bohrium-WSP] §III-V) over the problem of cluster.go, with its
// bytes-accessed cost (Def. 13, cost.go), its unintrusive partition
// (Fig. 6) and its branch and bound (Fig. 11).
//
// The weight edges are the pairs that may share a group and read or pass
// a common array: only their merges save bytes. The search starts, as
// Fig. 11 does, from the partition that merges over every weight edge
// (the cheapest, usually illegal) and cuts edges; each search node keeps
// the edges it has cut and those it must keep, so that no mask is visited
// twice. The monotone cost bounds every subtree: cutting more edges never
// costs less. The incumbent starts as the cheaper of greedy's and the
// unintrusive partition. Where Fig. 11 branches on every remaining edge,
// a node known illegal without a replay branches on the fewest edges one
// of which must go: those of a path joining a pair of one group that can
// never share one, or those inside a group that a replay split (the
// replay decides each group alone, replay.go's groupLocal), whichever
// are fewest (mustCut); other illegal nodes branch on every free edge
// inside a group.
//
// It does NOT check legality itself: pairs come from cluster.go and
// implications.go, and a candidate is legal when the engine's replay
// realises it.

import (
	"slices"
	"time"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// WSP is the wsp method ([Bohrium-WSP]'s optimal weighted subroutine
// partition).
type WSP struct{}

// Name implements Partitioner.
func (WSP) Name() string { return MethodWSP }

// Partition implements Partitioner.
func (WSP) Partition(fn *ir.Function, opts Options) *Plan {
	deadline := time.Now().Add(opts.budget())
	pr := newProblem(fn, opts)
	pr.seed()
	w := &wsp{pr: pr, deadline: deadline, best: pr.greedy, bestLabels: pr.greedyLabels}
	w.bestCost = pr.bytes(pr.greedyLabels)
	if labels, plan := pr.unintrusive(); plan != nil {
		if c := pr.bytes(labels); c < w.bestCost {
			w.best, w.bestLabels, w.bestCost = plan, labels, c
		}
	}
	w.edges = pr.weightEdges()
	w.search(make([]int8, len(w.edges)))
	best := w.best
	if best == pr.greedy && !slices.Equal(w.bestLabels, pr.greedyLabels) {
		best, _ = pr.replay(w.bestLabels, MethodWSP)
	}
	best.Cost = pr.cost(w.bestLabels)
	return pr.finish(best, MethodWSP, !w.timedOut, w.timedOut)
}

// Edge states in a search node.
const (
	edgeFree int8 = iota
	edgeCut
	edgeKept
)

type wsp struct {
	pr         *problem
	deadline   time.Time
	edges      [][2]int
	best       *Plan
	bestLabels []int
	bestCost   int64
	timedOut   bool
	nodes      int
}

// weightEdges returns the pairs whose merge saves bytes: possible pairs
// that are producer and consumer or read a common array.
func (pr *problem) weightEdges() [][2]int {
	var es [][2]int
	for i := range pr.nodes {
		for j := i + 1; j < len(pr.nodes); j++ {
			if pr.possible[i][j] && (pr.flow[i][j] || pr.flow[j][i] || pr.share[i][j]) {
				es = append(es, [2]int{i, j})
			}
		}
	}
	return es
}

// components returns the labels of the partition merging over every edge
// not cut.
func (w *wsp) components(state []int8) []int {
	u := newUnionFind(len(w.pr.nodes))
	for k, e := range w.edges {
		if state[k] != edgeCut {
			u.union(e[0], e[1])
		}
	}
	return u.labels()
}

// search is one node of the branch and bound ([Bohrium-WSP] Fig. 11).
func (w *wsp) search(state []int8) {
	if w.timedOut {
		return
	}
	w.nodes++
	if time.Now().After(w.deadline) {
		w.timedOut = true
		return
	}
	labels := w.components(state)
	cost := w.pr.bytes(labels)
	if cost >= w.bestCost {
		return // cutting more edges never costs less
	}
	if ks, bad := w.mustCut(state, labels); bad {
		w.branch(state, ks)
		return
	}
	plan, realised := w.pr.replay(labels, MethodWSP)
	if realised {
		w.best, w.bestLabels, w.bestCost = plan, labels, cost
		return
	}
	// What the engine made of it is legal too: a cheaper incumbent?
	got := w.pr.labelsOf(plan)
	if c := w.pr.bytes(got); c < w.bestCost {
		if p2, ok := w.pr.replay(got, MethodWSP); ok {
			w.best, w.bestLabels, w.bestCost = p2, got, c
		}
	}
	if ks, bad := w.mustCut(state, labels); bad {
		w.branch(state, ks)
		return
	}
	w.branch(state, w.inside(state, labels, nil))
}

// mustCut reports whether the partition labels of a node is known
// illegal without a replay, and then the smallest set of free edges one
// of which every legal descendant cuts: of each pair of one group that
// can never share one (or whose sharing needs a pair of different groups
// to share one), the free edges of a path joining it (path); of each
// group that a replay split (knownSplit: the replay decides each group
// alone, replay.go's groupLocal, so a descendant keeping it whole fails
// too), its free edges inside. An empty set prunes the node.
func (w *wsp) mustCut(state []int8, labels []int) (ks []int, bad bool) {
	pr := w.pr
	consider := func(cut []int) bool {
		if !bad || len(cut) < len(ks) {
			ks, bad = cut, true
		}
		return len(ks) == 0
	}
	for i := range pr.nodes {
		for j := i + 1; j < len(pr.nodes); j++ {
			if labels[i] == labels[j] && !pr.possible[i][j] && consider(w.path(state, i, j)) {
				return ks, bad
			}
		}
	}
	for _, im := range pr.implies {
		if labels[im.a] == labels[im.b] && labels[im.x] != labels[im.y] && consider(w.path(state, im.a, im.b)) {
			return ks, bad
		}
	}
	if len(pr.split) > 0 {
		for _, g := range membersOf(labels) {
			if len(g) > 1 && pr.split[intsKey(g)] && consider(w.inside(state, labels, g)) {
				return ks, bad
			}
		}
	}
	return ks, bad
}

// inside returns the free edges joining two members of group g of labels
// (of any group when g is nil): the edges a child may cut to split it.
func (w *wsp) inside(state []int8, labels, g []int) []int {
	var in []bool
	if g != nil {
		in = make([]bool, len(w.pr.nodes))
		for _, i := range g {
			in[i] = true
		}
	}
	var free []int
	for k, e := range w.edges {
		if state[k] == edgeFree && labels[e[0]] == labels[e[1]] && (in == nil || in[e[0]] && in[e[1]]) {
			free = append(free, k)
		}
	}
	return free
}

// branch explores the children of a node that must cut one of the edges
// ks: child t cuts ks[t] and keeps ks[:t].
func (w *wsp) branch(state []int8, ks []int) {
	for t, k := range ks {
		child := slices.Clone(state)
		for _, kk := range ks[:t] {
			child[kk] = edgeKept
		}
		child[k] = edgeCut
		w.search(child)
		if w.timedOut {
			return
		}
	}
}

// impossiblePair returns two SOACs of one group that can never share one,
// or whose sharing needs two SOACs in different groups to share one.
func (pr *problem) impossiblePair(labels []int) (int, int, bool) {
	for i := range pr.nodes {
		for j := i + 1; j < len(pr.nodes); j++ {
			if labels[i] == labels[j] && !pr.possible[i][j] {
				return i, j, true
			}
		}
	}
	for _, im := range pr.implies {
		if labels[im.a] == labels[im.b] && labels[im.x] != labels[im.y] {
			return im.a, im.b, true
		}
	}
	return 0, 0, false
}

// path returns the free edges of a path from a to b over the edges not
// cut with the fewest free edges (0-1 breadth first: kept edges cost
// nothing; deterministic): some edge of it must be cut to part a and b,
// and no other path asks a choice among fewer. An empty result with
// a != b means kept edges join them.
func (w *wsp) path(state []int8, a, b int) []int {
	n := len(w.pr.nodes)
	adj := make([][]int, n) // edge indices
	for k, e := range w.edges {
		if state[k] != edgeCut {
			adj[e[0]] = append(adj[e[0]], k)
			adj[e[1]] = append(adj[e[1]], k)
		}
	}
	dist := make([]int, n)
	via := make([]int, n)
	for i := range via {
		dist[i], via[i] = n+1, -1
	}
	dist[a] = 0
	deque := []int{a}
	done := make([]bool, n)
	for len(deque) > 0 {
		x := deque[0]
		deque = deque[1:]
		if done[x] {
			continue
		}
		done[x] = true
		if x == b {
			break
		}
		for _, k := range adj[x] {
			y := w.edges[k][0] + w.edges[k][1] - x
			wt := 0
			if state[k] == edgeFree {
				wt = 1
			}
			if d := dist[x] + wt; d < dist[y] {
				dist[y], via[y] = d, k
				if wt == 0 {
					deque = append([]int{y}, deque...)
				} else {
					deque = append(deque, y)
				}
			}
		}
	}
	var free []int
	for x := b; x != a && via[x] >= 0; {
		k := via[x]
		if state[k] == edgeFree {
			free = append(free, k)
		}
		x = w.edges[k][0] + w.edges[k][1] - x
	}
	slices.Reverse(free)
	return free
}

// unintrusive is [Bohrium-WSP] Fig. 6: merge two groups joined by a weight
// edge when one of them has no other weight edge (a pendant) and merging
// leaves the non-fusible sets θ unchanged, so no later merge is lost; the
// engine must realise each merge. It returns the labels and plan, or a
// nil plan when it merged nothing.
func (pr *problem) unintrusive() ([]int, *Plan) {
	n := len(pr.nodes)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i
	}
	var plan *Plan
	edges := pr.weightEdges()
	theta := func(l int) []bool {
		t := make([]bool, n)
		for i := range pr.nodes {
			if labels[i] != l {
				continue
			}
			for j := range pr.nodes {
				if labels[j] != l && !pr.possible[i][j] {
					t[j] = true
				}
			}
		}
		return t
	}
	degree := func(l int) int {
		nb := map[int]bool{}
		for _, e := range edges {
			a, b := labels[e[0]], labels[e[1]]
			if a != b && (a == l || b == l) {
				nb[a+b-l] = true
			}
		}
		return len(nb)
	}
	tried := map[[2]int]bool{}
	for changed := true; changed; {
		changed = false
		for _, e := range edges {
			u, v := labels[e[0]], labels[e[1]]
			if u == v || tried[[2]int{u, v}] || degree(u) != 1 && degree(v) != 1 {
				continue
			}
			tu, tv := theta(u), theta(v)
			// Compare θ outside the two groups.
			same := true
			for j := range pr.nodes {
				if labels[j] != u && labels[j] != v && tu[j] != tv[j] {
					same = false
				}
			}
			if !same {
				continue
			}
			next := slices.Clone(labels)
			for i := range next {
				if next[i] == v {
					next[i] = u
				}
			}
			tried[[2]int{u, v}] = true
			if _, _, bad := pr.impossiblePair(next); bad {
				continue
			}
			p, ok := pr.replay(next, MethodWSP)
			if !ok {
				continue
			}
			labels, plan, changed = next, p, true
			break
		}
	}
	return canonical(labels), plan
}
