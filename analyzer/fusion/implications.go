package fusion

// This file derives the engine's necessary conditions for two SOACs to
// share a group (implications): the pairs the greedy driver can never put
// in one kernel, and the implications "a and b share a group only if x
// and y do" that the optimal methods add as constraints (ilp.go, wsp.go),
// so that they search only clusterings the replay may realise.

import "github.com/soacgen/soacgen/analyzer/ir"

// implication says: a and b share a group only if x and y do.
type implication struct{ a, b, x, y int }

// imply records fused(a,b) → fused(x,y), or that a and b never share a
// group when x and y cannot.
func (pr *problem) imply(a, b, x, y int) {
	if x == y || a == b || !pr.possible[a][b] || x == a && y == b || x == b && y == a {
		return
	}
	if !pr.possible[x][y] {
		pr.possible[a][b], pr.possible[b][a] = false, false
		return
	}
	pr.implies = append(pr.implies, implication{a, b, x, y})
}

// implications records the engine's necessary conditions for two SOACs
// to share a group, until none changes possible:
//   - a SOAC that zips a filtered array with its source is refused by
//     every kernel of two or more members (size-mismatch): it is alone;
//   - two SOACs share a pass only over one space: their spaces, followed
//     up through filters, must be equal or made equal by the Map2s and
//     Map3s of the function (spaceClasses);
//   - a producer joins its consumers' group only with all of them (the
//     driver fuses it into every consumer kernel or none), unless it may
//     be written out (map-out, fuseinto.go): then a consumer outside its
//     group must run after every member of the group (between);
//   - the members of a group move down to its last member, past every
//     statement in between: of two members i before j of one block, i
//     must be able to pass each statement between them, or that statement
//     must be a member (a SOAC) too;
//   - of two SOACs x before y of one block with an edge x → y that is not
//     an array flowing from x to y, x joins y's group only by fusing
//     vertically into a kernel holding y (no merge joins kernels with an
//     edge between them, and y is visited first): with the consumers
//     every such fusion takes (firstConsumers);
//   - the concestor constraints of [Robinson-ILP] (§1.4.3) for SOACs over
//     different iteration spaces descending from a common one.
func (pr *problem) implications() {
	n := len(pr.nodes)
	pr.spaceClasses()
	for i, s := range pr.nodes {
		if _, r := pr.sp.zipCheck(s, nil); r != nil && r.Rule == RefSizeMismatch {
			for j := range n {
				pr.possible[i][j], pr.possible[j][i] = false, false
			}
		}
	}
	for before := -1; ; {
		pr.implies = nil
		for i := range n {
			pr.consumers(i)
		}
		pr.between()
		pr.ordered()
		pr.concestorPairs()
		count := 0
		for i := range n {
			for j := range n {
				if pr.possible[i][j] {
					count++
				}
			}
		}
		if count == before {
			return
		}
		before = count
	}
}

// consumersOf returns the nodes that read node i's output as an input
// array, and whether all of them are SOACs of i's block: only then may i
// fuse into some of them and be written out for the others (map-out,
// fuseinto.go); the driver copies a producer into branches, or into a
// loop, only with all its consumers.
func (pr *problem) consumersOf(i int) (cons []int, direct bool) {
	P := pr.nodes[i]
	direct = true
	for j, c := range pr.nodes {
		if !pr.flow[i][j] {
			continue
		}
		cons = append(cons, j)
		direct = direct && c.Parent == P.Parent
	}
	return cons, direct
}

// consumers records the second condition of implications for producer i:
// i shares a group with a consumer c only if with all of them, unless
// map-out may apply: every consumer is direct and c is no stream (a
// stream kernel does not write its input out). With map-out, a consumer d
// outside i's group must run after every member of the group, since i's
// array is complete only when the group's pass has run; between records
// that already (d reads i's output, a used-before hazard from i, so a
// member after d needs d in the group).
func (pr *problem) consumers(i int) {
	cons, direct := pr.consumersOf(i)
	for _, c := range cons {
		if direct && ClassOf(pr.nodes[c])&streamClasses == 0 {
			continue
		}
		for _, d := range cons {
			pr.imply(i, c, i, d)
		}
	}
}

// firstConsumers returns the consumers of node i that every vertical
// fusion of i takes: all of them, or with map-out the first (the others
// may run after the kernel it fuses into).
func (pr *problem) firstConsumers(i int) []int {
	cons, direct := pr.consumersOf(i)
	if !direct || len(cons) == 0 {
		return cons
	}
	first := cons[0]
	for _, c := range cons[1:] {
		if pr.g.Index(pr.nodes[c]) < pr.g.Index(pr.nodes[first]) {
			first = c
		}
	}
	return []int{first}
}

// spaceClasses rules out the pairs over spaces that no kernel can make
// one: the spaces of their iterations, followed up through every filter,
// that no Map2 or Map3 of the function zips together.
func (pr *problem) spaceClasses() {
	sp := pr.sp
	root := func(s spaceID) spaceID {
		for {
			u, ok := sp.up[s]
			if !ok {
				return s
			}
			s = u
		}
	}
	var uf unionFind
	find := func(s spaceID) spaceID { return spaceID(uf.find(int(s))) }
	for _, s := range pr.nodes {
		in := s.Inputs()
		for _, v := range in[min(1, len(in)):] {
			uf.union(int(root(sp.ofVar(in[0]))), int(root(sp.ofVar(v))))
		}
	}
	class := make([]spaceID, len(pr.nodes))
	for i, s := range pr.nodes {
		class[i] = find(root(sp.iterOf(s)))
	}
	for i := range pr.nodes {
		for j := range pr.nodes {
			if class[i] != class[j] {
				pr.possible[i][j] = false
			}
		}
	}
}

// between records the third condition of implications.
func (pr *problem) between() {
	for i, a := range pr.nodes {
		b := a.Parent
		for j, c := range pr.nodes {
			if c.Parent != b || pr.g.Index(c) <= pr.g.Index(a) || !pr.possible[i][j] {
				continue
			}
			for _, e := range pr.g.Out[a] {
				if e.Kind != Hazard || pr.g.Index(e.To) >= pr.g.Index(c) {
					continue
				}
				if k, ok := pr.idxOf(e.To); ok {
					pr.imply(i, j, i, k)
					continue
				}
				if _, plain := e.To.(*ir.Plain); plain || e.Rule != RefUsedBefore {
					pr.possible[i][j], pr.possible[j][i] = false, false
					break
				}
			}
		}
	}
}

// ordered records the fourth condition of implications.
func (pr *problem) ordered() {
	for i, x := range pr.nodes {
		cons := pr.firstConsumers(i)
		for _, e := range pr.g.Out[x] {
			j, ok := pr.idxOf(e.To)
			if !ok || !pr.possible[i][j] || pr.flow[i][j] && (e.Kind == ArrayFlow || e.Kind == Hazard && e.Rule == RefUsedBefore) {
				continue
			}
			if len(cons) == 0 {
				pr.possible[i][j], pr.possible[j][i] = false, false
				continue
			}
			for _, c := range cons {
				pr.imply(i, j, i, c)
			}
		}
	}
}

// idxOf returns the node index of statement s when it is a SOAC.
func (pr *problem) idxOf(s ir.Stmt) (int, bool) {
	soac, ok := s.(*ir.SOAC)
	if !ok {
		return 0, false
	}
	i, ok := pr.idx[soac]
	return i, ok
}

// concestorPairs records the concestor constraints of every possible pair
// over different iteration spaces whose spaces descend, through filters,
// from a common space.
func (pr *problem) concestorPairs() {
	sp := pr.sp
	// chain(s): the spaces from s's iteration space up through filters,
	// with the node iterating over each (s itself, then the filters).
	type step struct {
		space spaceID
		node  int
	}
	chain := func(i int) []step {
		out := []step{{sp.iterOf(pr.nodes[i]), i}}
		for s := out[0].space; ; {
			f, ok := sp.trans[s]
			if !ok {
				break
			}
			k, ok := pr.idx[f]
			if !ok {
				break
			}
			s = sp.up[s]
			out = append(out, step{s, k})
		}
		return out
	}
	chains := make([][]step, len(pr.nodes))
	for i := range pr.nodes {
		chains[i] = chain(i)
	}
	for i := range pr.nodes {
		for j := i + 1; j < len(pr.nodes); j++ {
			if !pr.possible[i][j] || chains[i][0].space == chains[j][0].space {
				continue
			}
		search:
			for _, si := range chains[i] {
				for _, sj := range chains[j] {
					if si.space == sj.space {
						pr.imply(i, j, i, si.node)
						pr.imply(i, j, j, sj.node)
						pr.imply(i, j, si.node, sj.node)
						break search
					}
				}
			}
		}
	}
}
