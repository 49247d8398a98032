package fusion

// This file is the ilp method: Robinson et al.'s integer linear program
// for clustering (Robinson et al., "Clustering for Array-Backed Streams" (2014) [Robinson-ILP] §1.4, Fig. 1.14) over the problem of
// cluster.go, solved as a pseudo-boolean optimisation problem by
// github.com/crillab/gophersat (pure Go, no cgo).
//
// Why gophersat and not gonum: every variable of the program is an integer
// (x, c are 0/1 and π a small integer, which is written in binary), and
// gonum v0.17 offers only linear programming (optimize/convex/lp, simplex
// on real variables): integrality would need a branch and bound written
// here, a home-made general-purpose solver. gophersat minimises a weighted
// sum of literals under pseudo-boolean constraints exactly, which is the
// program as it stands.
//
// The formulation, with x_ij = 1 when i and j are NOT in one group:
//   - one x_ij per possible pair; impossible pairs are the constant 1
//     (fusion-preventing paths, §1.4.5);
//   - acyclicity with positions π (for pairs of one block, where the
//     dependency graph orders statements): x_ij ≤ π_j − π_i ≤ M·x_ij when
//     j depends on i, π_i < π_j on a fusion-preventing path, and
//     |π_j − π_i| ≤ M·x_ij otherwise;
//   - size-changing operators: x_aA ≤ x_ab, x_bB ≤ x_ab, x_AB ≤ x_ab for
//     the compatible concestors (A, B) of a and b, and the engine's other
//     necessary conditions in the same form (implications.go);
//   - contraction: x_ij ≤ c_i for each flow i → j;
//   - transitivity (a clustering is an equivalence): x_ik ≤ x_ij + x_jk,
//     which the paper leaves to the objective;
//   - objective: Σ W_ij·x_ij + N·Σ c_i (cost.go's Robinson).
//
// The program is a relaxation of what the engine can build, so the loop
// solves it, replays the optimum (replay.go) and, when the engine cannot
// realise it, excludes each group that the engine split, as a group of
// any clustering (the replay decides each group alone, replay.go's
// groupLocal), and solves again (a lazy constraint). The first optimum
// the engine realises is optimal.
//
// It does NOT check legality itself: the replay does.

import (
	"math/bits"
	"time"

	"github.com/crillab/gophersat/solver"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// ILP is the ilp method ([Robinson-ILP]'s integer linear program).
type ILP struct{}

// Name implements Partitioner.
func (ILP) Name() string { return MethodILP }

// Partition implements Partitioner.
func (ILP) Partition(fn *ir.Function, opts Options) *Plan {
	deadline := time.Now().Add(opts.budget())
	pr := newProblem(fn, opts)
	pr.seed()
	m := pr.ilpModel()
	best, bestCost := pr.greedy, pr.robinson(pr.greedyLabels)
	bestLabels := pr.greedyLabels
	optimal, timedOut := false, false
	for {
		if time.Now().After(deadline) {
			timedOut = true
			break
		}
		labels, cost, ok := m.solve(bestCost - 1)
		if !ok {
			optimal = true // nothing cheaper than the incumbent exists
			break
		}
		plan, realised := pr.replay(labels, MethodILP)
		if realised {
			best, bestCost, bestLabels = plan, cost, labels
			optimal = true // the relaxation's optimum is realised
			break
		}
		got := pr.labelsOf(plan)
		if pr.groupLocal() {
			for _, g := range splitGroups(labels, got) {
				m.excludeGroup(g)
			}
		} else {
			m.exclude(labels)
		}
		if pr.robinson(got) < bestCost {
			// What the engine made of it is a legal clustering too.
			if p2, ok := pr.replay(got, MethodILP); ok {
				best, bestCost, bestLabels = p2, pr.robinson(got), got
			}
		}
	}
	best.Cost = pr.cost(bestLabels)
	return pr.finish(best, MethodILP, optimal, timedOut)
}

// ilpModel is the program of one problem: its constraints, objective and
// the lazily added exclusions.
type ilpModel struct {
	pr      *problem
	n       int
	x       map[[2]int]int // x_ij's variable for possible pairs i < j
	pairs   [][2]int       // the keys of x in creation order (determinism)
	cons    []solver.PBConstr
	objLits []int
	objW    []int
	nVars   int
	// constant is the part of the Robinson cost that no variable carries:
	// pairs Fig. 1.13 calls possible that the engine never joins.
	constant int64
}

func (m *ilpModel) newVar() int { m.nVars++; return m.nVars }

// fused returns the literal "i and j share a group", or 0 when they never
// can (x_ij is the constant 1).
func (m *ilpModel) fused(i, j int) int {
	if i == j {
		panic("fused(i, i)")
	}
	if i > j {
		i, j = j, i
	}
	if v, ok := m.x[[2]int{i, j}]; ok {
		return -v
	}
	return 0
}

func (pr *problem) ilpModel() *ilpModel {
	n := len(pr.nodes)
	m := &ilpModel{pr: pr, n: n, x: map[[2]int]int{}}
	N := n
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if pr.possible[i][j] {
				v := m.newVar()
				m.x[[2]int{i, j}] = v
				m.pairs = append(m.pairs, [2]int{i, j})
				m.objLits = append(m.objLits, v)
				m.objW = append(m.objW, int(pr.weight(i, j)))
			} else if pr.pathPossible[i][j] {
				m.constant += pr.weight(i, j)
			}
		}
	}
	// Contraction: x_ij ≤ c_i, as the clause (¬x_ij ∨ c_i); an array with
	// a consumer it can never share a group with is never contracted (a
	// constant, left out).
	for i := 0; i < n; i++ {
		if !pr.contractible[i] {
			continue
		}
		var xs []int
		constant := false
		for j := 0; j < n; j++ {
			if !pr.flow[i][j] {
				continue
			}
			f := m.fused(i, j)
			if f == 0 {
				constant = true
				break
			}
			xs = append(xs, -f)
		}
		if constant || len(xs) == 0 {
			continue
		}
		c := m.newVar()
		m.objLits = append(m.objLits, c)
		m.objW = append(m.objW, N)
		for _, x := range xs {
			m.cons = append(m.cons, solver.PropClause(-x, c))
		}
	}
	// The engine's necessary conditions (implications.go,
	// concestors among them): fused(a,b) → fused(x,y).
	for _, im := range pr.implies {
		fab, fxy := m.fused(im.a, im.b), m.fused(im.x, im.y)
		if fab == 0 {
			continue
		}
		if fxy != 0 {
			m.cons = append(m.cons, solver.PropClause(-fab, fxy))
		} else {
			m.cons = append(m.cons, solver.PropClause(-fab))
		}
	}
	// Transitivity: fused(a,m) ∧ fused(m,b) → fused(a,b), for each triple
	// and each choice of its middle m.
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			for k := j + 1; k < n; k++ {
				for _, t := range [3][3]int{{j, i, k}, {i, j, k}, {i, k, j}} {
					a, mid, b := t[0], t[1], t[2]
					fam, fmb := m.fused(a, mid), m.fused(mid, b)
					if fam == 0 || fmb == 0 {
						continue
					}
					if fab := m.fused(a, b); fab != 0 {
						m.cons = append(m.cons, solver.PropClause(-fam, -fmb, fab))
					} else {
						m.cons = append(m.cons, solver.PropClause(-fam, -fmb))
					}
				}
			}
		}
	}
	m.acyclic()
	return m
}

// acyclic adds the position variables π and their constraints for pairs
// of SOACs of one block.
func (m *ilpModel) acyclic() {
	pr := m.pr
	byBlock := map[*ir.Block][]int{}
	for i, s := range pr.nodes {
		byBlock[s.Parent] = append(byBlock[s.Parent], i)
	}
	for _, idx := range byBlock {
		if len(idx) < 2 {
			continue
		}
		nb := bits.Len(uint(len(idx) - 1))
		M := 1<<nb - 1
		pi := map[int][]int{}
		for _, i := range idx {
			for range nb {
				pi[i] = append(pi[i], m.newVar())
			}
		}
		// diff returns the literals and weights of π_j − π_i.
		diff := func(i, j int) ([]int, []int) {
			var lits, ws []int
			for k := 0; k < nb; k++ {
				lits = append(lits, pi[j][k], pi[i][k])
				ws = append(ws, 1<<k, -(1 << k))
			}
			return lits, ws
		}
		for a, i := range idx {
			for _, j := range idx[a+1:] {
				// i precedes j in the block.
				dep, prevent := pr.depends(i, j)
				f := m.fused(i, j)
				switch {
				case prevent || dep && f == 0:
					lits, ws := diff(i, j) // π_j − π_i ≥ 1
					m.cons = append(m.cons, solver.GtEq(lits, ws, 1))
				case dep:
					// π_j − π_i − x_ij ≥ 0 and M·x_ij − (π_j − π_i) ≥ 0,
					// with x_ij = ¬fused.
					lits, ws := diff(i, j)
					m.cons = append(m.cons, solver.GtEq(append(lits, -f), append(ws, -1), 0))
					lits, ws = diff(j, i)
					m.cons = append(m.cons, solver.GtEq(append(lits, -f), append(ws, M), 0))
				case f != 0:
					lits, ws := diff(i, j)
					m.cons = append(m.cons, solver.GtEq(append(lits, -f), append(ws, M), 0))
					lits, ws = diff(j, i)
					m.cons = append(m.cons, solver.GtEq(append(lits, -f), append(ws, M), 0))
				}
			}
		}
	}
}

// depends reports whether node j (later in the same block) depends on
// node i, and whether along a fusion-preventing path.
func (pr *problem) depends(i, j int) (dep, prevent bool) {
	a, b := pr.nodes[i], pr.nodes[j]
	return pr.reach[[2]ir.Stmt{a, b}] > 0, pr.reach[[2]ir.Stmt{a, b}] == 2
}

// solve minimises the objective subject to the program, the exclusions
// and objective ≤ bound. It returns the labels of the optimum and its
// cost, or ok = false when no clustering costs at most bound.
func (m *ilpModel) solve(bound int64) (labels []int, cost int64, ok bool) {
	bound -= m.constant
	if bound < 0 {
		return nil, 0, false
	}
	cons := append([]solver.PBConstr{}, m.cons...)
	// Σ W·lit ≤ bound  ⟺  Σ W·¬lit ≥ ΣW − bound.
	total := 0
	neg := make([]int, len(m.objLits))
	for i, l := range m.objLits {
		neg[i] = -l
		total += m.objW[i]
	}
	if int64(total) > bound {
		cons = append(cons, solver.GtEq(neg, append([]int{}, m.objW...), total-int(bound)))
	}
	// A trivial constraint naming every variable, so that the problem
	// knows them all (the parser counts variables before dropping it).
	all := make([]int, 0, m.nVars)
	for v := 1; v <= m.nVars; v++ {
		all = append(all, v)
	}
	cons = append(cons, solver.PBConstr{Lits: all, AtLeast: 0})
	pb := solver.ParsePBConstrs(cons)
	lits := make([]solver.Lit, len(m.objLits))
	for i, l := range m.objLits {
		lits[i] = solver.IntToLit(int32(l))
	}
	pb.SetCostFunc(lits, append([]int{}, m.objW...))
	s := solver.New(pb)
	if s.Minimize() < 0 {
		return nil, 0, false
	}
	model := s.Model()
	labels = m.labels(model)
	return labels, m.pr.robinson(labels), true
}

// labels reads the groups off a model: SOACs joined by fused pairs.
func (m *ilpModel) labels(model []bool) []int {
	u := newUnionFind(m.n)
	for p, v := range m.x {
		if !model[v-1] { // x_ij = 0: fused
			u.union(p[0], p[1])
		}
	}
	return u.labels()
}

// excludeGroup forbids group g (member indices) as a group of any
// clustering: some pair of g must be apart, or some member joined with a
// SOAC outside g. The replay decides each group alone (groupLocal), so
// this cuts off every clustering holding g, not just the one replayed.
func (m *ilpModel) excludeGroup(g []int) {
	in := make([]bool, m.n)
	for _, i := range g {
		in[i] = true
	}
	var lits []int
	for _, p := range m.pairs {
		v := m.x[p]
		switch {
		case in[p[0]] && in[p[1]]:
			lits = append(lits, v) // apart
		case in[p[0]] || in[p[1]]:
			lits = append(lits, -v) // joined with an outsider
		}
	}
	m.cons = append(m.cons, solver.PropClause(lits...))
}

// exclude forbids the clustering labels: some pair must differ.
func (m *ilpModel) exclude(labels []int) {
	var lits []int
	for _, p := range m.pairs {
		v := m.x[p]
		if labels[p[0]] == labels[p[1]] {
			lits = append(lits, v) // make it unfused
		} else {
			lits = append(lits, -v)
		}
	}
	m.cons = append(m.cons, solver.PropClause(lits...))
}
