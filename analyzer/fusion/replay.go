package fusion

// This file is the replay that turns a chosen clustering into a Plan: the
// T2 driver (driver.go) run with the clustering as a target, making only
// the fusions and merges that join SOACs of one group, under every check
// of the engine; the labels of a plan's groups; and what the searches
// learn from a replay that splits a group (the replay decides each group
// alone, so no clustering holding that group is realised either). Also
// the package's one union-find.
//
// It does NOT choose a clustering (ilp.go, wsp.go) nor price one
// (cost.go).

import (
	"fmt"
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// labelsOf returns the canonical labels of plan's groups: kernels sharing
// a member (a branch copy) form one group.
func (pr *problem) labelsOf(plan *Plan) []int {
	u := newUnionFind(len(pr.nodes))
	for _, k := range plan.Kernels {
		first := -1
		for _, m := range k.SOACs {
			i, ok := pr.idx[m]
			if !ok {
				continue
			}
			if first < 0 {
				first = i
			} else {
				u.union(first, i)
			}
		}
	}
	return u.labels()
}

// unionFind is a disjoint-set forest over the non-negative ints, the one
// union-find of the package (clusterings here, iteration spaces in
// space.go's compat): an int past the end of the slice is a set of its
// own, so the zero value is the forest of singletons and it grows as
// union needs.
type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

// find returns the root of x's set.
func (u unionFind) find(x int) int {
	for x < len(u) && u[x] != x {
		u[x] = u[u[x]]
		x = u[x]
	}
	return x
}

// union joins the sets of a and b under a's root.
func (u *unionFind) union(a, b int) {
	if a, b = u.find(a), u.find(b); a != b {
		for len(*u) <= max(a, b) {
			*u = append(*u, len(*u))
		}
		(*u)[b] = a
	}
}

// labels returns the canonical labels of the sets.
func (u unionFind) labels() []int {
	labels := make([]int, len(u))
	for i := range labels {
		labels[i] = u.find(i)
	}
	return canonical(labels)
}

// canonical renumbers labels in order of first appearance, so that equal
// partitions have equal labels.
func canonical(labels []int) []int {
	out := make([]int, len(labels))
	m := map[int]int{}
	for i, l := range labels {
		c, ok := m[l]
		if !ok {
			c = len(m)
			m[l] = c
		}
		out[i] = c
	}
	return out
}

// replay builds the plan of the clustering labels with the engine's
// driver; realised reports whether the plan's groups are exactly labels.
func (pr *problem) replay(labels []int, method string) (plan *Plan, realised bool) {
	labels = canonical(labels)
	key := intsKey(labels)
	if r, ok := pr.replayed[key]; ok {
		return r.plan, r.realised
	}
	defer func() {
		if pr.replayed == nil {
			pr.replayed = map[string]replayResult{}
		}
		pr.replayed[key] = replayResult{plan, realised}
	}()
	st := newStateOn(pr.fn, pr.opts, pr.g, pr.sp)
	st.target = map[*ir.SOAC]int{}
	for i, s := range pr.nodes {
		st.target[s] = labels[i]
	}
	st.method = method
	st.run()
	plan = st.plan(method)
	got := pr.labelsOf(plan)
	if pr.groupLocal() {
		for _, g := range splitGroups(labels, got) {
			if pr.split == nil {
				pr.split = map[string]bool{}
			}
			pr.split[intsKey(g)] = true
		}
	}
	return plan, slices.Equal(got, labels)
}

// intsKey is a compact map key for a list of small ints (a group's
// members, a clustering's labels).
func intsKey(g []int) string {
	b := make([]byte, 0, 2*len(g))
	for _, i := range g {
		b = append(b, byte(i>>8), byte(i))
	}
	return string(b)
}

// knownSplit returns the members of a group of labels (canonical) that
// an earlier replay split, or nil: labels is then not realised, without
// a replay.
func (pr *problem) knownSplit(labels []int) []int {
	if len(pr.split) == 0 {
		return nil
	}
	for _, g := range membersOf(labels) {
		if len(g) > 1 && pr.split[intsKey(g)] {
			return g
		}
	}
	return nil
}

// splitGroups returns the groups of labels (canonical) that the engine's
// clustering got does not realise whole: the members of each, in order.
// The replay treats each group alone (groupLocal), so no clustering
// holding one of these groups as a group is realised either.
func splitGroups(labels, got []int) [][]int {
	var out [][]int
	for _, g := range membersOf(labels) {
		for _, m := range g[1:] {
			if got[m] != got[g[0]] {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// groupLocal reports whether the replay decides each group of a target
// clustering by the group alone, whatever the other groups are: the
// driver makes a fusion or merge only between SOACs of one group
// (unchosen, sameGroup), its checks look at the members of the kernels
// involved and at the statements between them whatever kernel holds
// those, and it visits producers and kernels in program order, which the
// other groups do not change. Gas breaks this (one group's fusions spend
// another's), so with Options.Gas a method learns from whole clusterings
// only. TestClusterGroupLocal checks the property on every clustering of
// small functions.
func (pr *problem) groupLocal() bool { return pr.opts.Gas <= 0 }

// unchosen refuses to fuse P with members when the target clustering puts
// some of them in another group.
func (st *state) unchosen(P *ir.SOAC, members []*ir.SOAC) *Refusal {
	if st.target == nil {
		return nil
	}
	for _, m := range members {
		if st.target[m] != st.target[P] {
			return &Refusal{Rule: RefClustering, Pos: m.Pos(), Consumer: m, Var: P.Out,
				Reason: fmt.Sprintf("the %s clustering keeps %s apart from %s: its cost model prices that no higher", st.method, st.p.soac(P), st.p.soac(m))}
		}
	}
	return nil
}

// sameGroup reports whether the target clustering puts kernels a and b in
// one group (always true without a target).
func (st *state) sameGroup(a, b *kstate) bool {
	if st.target == nil {
		return true
	}
	for _, m := range append(append([]*ir.SOAC{}, a.list...), b.list...) {
		if st.target[m] != st.target[a.list[0]] {
			return false
		}
	}
	return true
}

func consumerSOACs(cons []consumer) []*ir.SOAC {
	var out []*ir.SOAC
	for _, c := range cons {
		out = append(out, c.soac)
	}
	return out
}

// membersOf returns the groups of canonical labels (see canonical), each
// its members in order, in order of first member.
func membersOf(labels []int) [][]int {
	var out [][]int
	for i, l := range labels {
		if l == len(out) {
			out = append(out, nil)
		}
		out[l] = append(out[l], i)
	}
	return out
}
