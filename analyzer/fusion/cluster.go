package fusion

// This file is the common ground of the clustering methods (greedy, ilp,
// wsp, exhaustive): choosing a method by name, the clustering problem of
// one function as the optimal methods see it (nodes, the pairs that may
// share a kernel, the paths that keep SOACs apart), and stamping a
// method's plan. The engine's necessary conditions for a pair, concestors
// among them, are in implications.go. The replay that turns a chosen
// clustering into a Plan through the greedy engine's own legality checks
// and plan assembly is in replay.go.
//
// A clustering is a labelling of the function's SOACs: SOACs with one
// label form one group. A group is one kernel, or the kernels that share a
// producer copied into disjoint branches. The replay runs the T2 driver
// (driver.go) with the labelling as a filter: it makes only the fusions and
// merges that join SOACs of one group, and only when every check of the
// engine allows them. A labelling is legal when the replay realises it
// exactly; nothing a method returns was built any other way, so every
// method is as safe as greedy.
//
// It does NOT solve anything (ilp.go, wsp.go), nor price a clustering
// (cost.go).

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"slices"
	"time"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// RefClustering is the refusal id of a fusion that every check allowed but
// the clustering method chose not to make, because its cost model prices
// the clustering that keeps them apart no higher.
const RefClustering = "clustering"

// RefBudget is the rule of the note a method adds when its time budget ran
// out before it proved its clustering optimal.
const RefBudget = "cluster-budget"

// The clustering methods.
const (
	MethodGreedy = "greedy" // the bottom-up T2 driver ([T2-fusion])
	MethodILP    = "ilp"    // Robinson's integer linear program ([Robinson-ILP] §1.4), solved by gophersat
	MethodWSP    = "wsp"    // Kristensen's weighted subroutine partition ([Bohrium-WSP] §V), branch and bound
)

// DefaultMethod is the method used when neither Options.Cluster nor the
// directive names one (see BENCHMARKS.md for the measurements behind it).
// The environment variable SOACGEN_CLUSTER overrides it, so that the
// differential tests can run the whole pipeline under each method.
const DefaultMethod = MethodGreedy

// DefaultBudget is the time an optimal method may spend on one function
// before it falls back to the best clustering found (at worst greedy's).
const DefaultBudget = time.Second

// Methods lists the method names -cluster and cluster= accept.
func Methods() []string { return []string{MethodGreedy, MethodILP, MethodWSP} }

// PartitionerFor returns the partitioner of a method name, or nil for an
// unknown name.
func PartitionerFor(name string) Partitioner {
	switch name {
	case MethodGreedy:
		return Greedy{}
	case MethodILP:
		return ILP{}
	case MethodWSP:
		return WSP{}
	}
	return nil
}

// partitionerOf chooses the partitioner of fn: Options.Partitioner, else
// the directive's cluster=, else Options.Cluster, else SOACGEN_CLUSTER,
// else DefaultMethod.
func partitionerOf(fn *ir.Function, opts Options) Partitioner {
	if opts.Partitioner != nil {
		return opts.Partitioner
	}
	for _, name := range []string{directiveCluster(fn), opts.Cluster, os.Getenv("SOACGEN_CLUSTER")} {
		if p := PartitionerFor(name); p != nil {
			return p
		}
	}
	return PartitionerFor(DefaultMethod)
}

func directiveCluster(fn *ir.Function) string {
	if fn != nil && fn.Fuse != nil {
		return fn.Fuse.Cluster
	}
	return ""
}

func (opts Options) budget() time.Duration {
	if opts.Budget > 0 {
		return opts.Budget
	}
	return DefaultBudget
}

// problem is the clustering problem of one function: its SOACs (nodes)
// and what the optimal methods may assume about them.
//
// possible[i][j] is false only when nodes i and j can never share a group
// in a plan the engine builds: one is impure (but for an impure Map and
// the Reduce it fuses into with its effects in order), no kernel block can hold
// both, or a path between them in the dependency graph forces one to
// complete before the other starts (Robinson et al., "Clustering for Array-Backed Streams" (2014) [Robinson-ILP] §1.4.5's fusion-preventing
// paths). It is a relaxation: the replay decides.
type problem struct {
	fn       *ir.Function
	opts     Options
	g        *Graph
	sp       *spaces
	nodes    []*ir.SOAC
	idx      map[*ir.SOAC]int
	possible [][]bool
	// pathPossible[i][j] is [Robinson-ILP] Fig. 1.13's possible: no
	// fusion-preventing path (nor impurity, nor block) keeps i and j
	// apart. possible refines it with the engine's conditions; the
	// Robinson objective sums over pathPossible pairs, as the paper does.
	pathPossible [][]bool
	// flow[i][j]: node j reads node i's output as an input array; share:
	// the two read a common input array.
	flow, share [][]bool
	// contractible[i]: node i's output is an array used only as input
	// arrays of SOACs, so it disappears when they share i's group.
	contractible []bool
	// implies lists necessary conditions of the engine: SOACs a and b
	// share a group only if x and y do (see implications).
	implies []implication
	// reach[{x, y}] for statements x before y of one block: 1 when y
	// depends on x, 2 when along a fusion-preventing path.
	reach map[[2]ir.Stmt]uint8
	// greedy is the engine's own plan and labels, the seed of every search.
	greedy       *Plan
	greedyLabels []int
	// replayed memoises replay by canonical labels: the searches reach
	// one clustering along several paths.
	replayed map[string]replayResult
	// split records the groups some replay split (splitGroups), by their
	// members (intsKey): no clustering holding one of them is realised
	// (groupLocal).
	split map[string]bool
	// bm is the bytes model's per-node data (cost.go), built on first use.
	bm *bytesModel
}

type replayResult struct {
	plan     *Plan
	realised bool
}

func newProblem(fn *ir.Function, opts Options) *problem {
	pr := newPricing(fn, opts, NewGraph(fn, opts.Fset), newSpaces(posFmt{opts.Fset}, fn.Info))
	pr.implications()
	return pr
}

// newPricing builds what pricing a clustering needs (cost.go), on a graph
// and spaces already built: the problem without the engine's conditions
// that only the searches use.
func newPricing(fn *ir.Function, opts Options, g *Graph, sp *spaces) *problem {
	pr := &problem{fn: fn, opts: opts, g: g, sp: sp, nodes: g.SOACs, idx: map[*ir.SOAC]int{}}
	n := len(pr.nodes)
	for i, s := range pr.nodes {
		pr.idx[s] = i
	}
	grid := func() [][]bool {
		m := make([][]bool, n)
		for i := range m {
			m[i] = make([]bool, n)
		}
		return m
	}
	pr.possible, pr.flow, pr.share = grid(), grid(), grid()
	pr.contractible = make([]bool, n)
	readers := map[*ir.Var][]int{}
	for j, s := range pr.nodes {
		for _, v := range g.FlowInputs(s) {
			if !slices.Contains(readers[v], j) {
				readers[v] = append(readers[v], j)
			}
			if d, ok := v.Def.(*ir.SOAC); ok && d.Out == v {
				if i, ok := pr.idx[d]; ok {
					pr.flow[i][j] = true
				}
			}
		}
	}
	for _, rs := range readers {
		for _, a := range rs {
			for _, b := range rs {
				pr.share[a][b] = a != b
			}
		}
	}
	for i, s := range pr.nodes {
		if s.Out == nil || !holdsArray(s.Out) {
			continue
		}
		uses := g.Uses[s.Out]
		ok := len(uses) > 0
		for _, u := range uses {
			if _, isSOAC := u.Stmt.(*ir.SOAC); !isSOAC || u.Kind != ArrayFlow {
				ok = false
			}
		}
		pr.contractible[i] = ok
	}
	pr.reach = pr.paths()
	pr.pathPossible = grid()
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			ok := pr.pairPossible(i, j)
			pr.possible[i][j], pr.possible[j][i] = ok, ok
			pr.pathPossible[i][j], pr.pathPossible[j][i] = ok, ok
		}
	}
	return pr
}

// seed runs the greedy engine, whose clustering every search starts from.
func (pr *problem) seed() {
	st := newStateOn(pr.fn, pr.opts, pr.g, pr.sp)
	st.run()
	pr.greedy = st.plan(MethodGreedy)
	pr.greedyLabels = pr.labelsOf(pr.greedy)
}

// holdsArray reports whether v is a slice (an array the cost models count).
func holdsArray(v *ir.Var) bool {
	if v.Type == nil {
		return true
	}
	_, ok := v.Type.Underlying().(*types.Slice)
	return ok
}

// pairPossible is the relaxation described at problem.
func (pr *problem) pairPossible(i, j int) bool {
	a, b := pr.nodes[i], pr.nodes[j]
	if (soacImpure(a) != nil || soacImpure(b) != nil) && !pr.effectsPair(i, j) && !pr.effectsPair(j, i) {
		return false
	}
	if !pr.blocksMayMeet(a, b) {
		return false
	}
	if pr.flow[i][j] && lookupVertical(ClassOf(a), ClassOf(b)) == nil ||
		pr.flow[j][i] && lookupVertical(ClassOf(b), ClassOf(a)) == nil {
		return false
	}
	if !pairShape(a, b) {
		return false
	}
	x, y := commonAncestors(a, b)
	if x == nil || y == nil {
		return true
	}
	return pr.reach[[2]ir.Stmt{x, y}] < 2 && pr.reach[[2]ir.Stmt{y, x}] < 2
}

// pairShape reports whether a and b may share a kernel as far as its
// shape goes (shapeCheck), in some group: a StreamMap and a scan or
// filter may, when the scan or filter reads the stream's output through
// other members of the group (streamThen), which the pair alone does not
// show.
func pairShape(a, b *ir.SOAC) bool {
	for _, p := range [][2]*ir.SOAC{{a, b}, {b, a}} {
		if ClassOf(p[0]) == ClassStreamMap && ClassOf(p[1])&(ClassScan|ClassFilter) != 0 {
			return true
		}
	}
	return shapeCheck(posFmt{}, []*ir.SOAC{a, b}) == nil
}

// effectsPair reports whether node i is an impure Map that may fuse into
// node j with its effects in order (effects.go): j is a pure Reduce of
// i's array alone, i's only consumer, in i's block. Such a pair forms a
// group of its own: i is possible with no other node, so transitivity
// keeps everything else out of j's group when i joins it.
func (pr *problem) effectsPair(i, j int) bool {
	P, c := pr.nodes[i], pr.nodes[j]
	if soacImpure(P) == nil || soacImpure(c) != nil || !pr.flow[i][j] || c.Parent != P.Parent {
		return false
	}
	for _, u := range pr.g.Uses[P.Out] {
		if s, ok := u.Stmt.(*ir.SOAC); ok && u.Kind == ArrayFlow && s != c {
			return false
		}
	}
	return effectsInOrder(pr.fn, P, c, []*ir.SOAC{c}) == ""
}

// blocksMayMeet reports whether some kernel may hold a and b, or kernels
// sharing a branch copy: the deeper one's block is reached from the
// innermost block holding both through ifs and switches only, unless the
// shallower is a generator, which moves anywhere; a SOAC never joins a
// kernel inside its own lambda.
func (pr *problem) blocksMayMeet(a, b *ir.SOAC) bool {
	x, y := commonAncestors(a, b)
	if x == nil || y == nil {
		return false
	}
	if x == ir.Stmt(b) && a != b || y == ir.Stmt(a) && a != b {
		return false // one lies inside the other's lambda
	}
	common := x.Block()
	for _, s := range []*ir.SOAC{a, b} {
		other := a
		if s == a {
			other = b
		}
		if s.Parent != common && !onlyBranches(common, s.Parent) && !(other.Parent == common && other.IsGenerator()) {
			return false
		}
	}
	return true
}

// paths returns, for each pair of statements of one block (in order),
// 1 when the later depends on the earlier and 2 when along a path on
// which they cannot share one pass ([Robinson-ILP] Fig. 1.13): through a plain
// statement, or along an edge other than an array flowing into a SOAC or
// into a compound statement holding its consumers (a branch copy, a
// generator moving into a loop), or than a pure SOAC's new version of an
// escaped variable read by a SOAC (versionOnly). Hazard edges that
// restate a flow are skipped.
func (pr *problem) paths() map[[2]ir.Stmt]uint8 {
	out := map[[2]ir.Stmt]uint8{}
	blocks := map[*ir.Block]bool{}
	for _, s := range pr.nodes {
		for b := s.Parent; b != nil; {
			blocks[b] = true
			if b.Parent == nil {
				break
			}
			b = b.Parent.Block()
		}
	}
	for b := range blocks {
		n := len(b.Stmts)
		// reach[x][y] = 1: a path; 2: a preventing path.
		reach := make([][]uint8, n)
		for x := n - 1; x >= 0; x-- {
			reach[x] = make([]uint8, n)
			for _, e := range pr.g.Out[b.Stmts[x]] {
				y := pr.g.Index(e.To)
				if e.To.Block() != b || y <= x {
					continue
				}
				from, fromSOAC := e.From.(*ir.SOAC)
				_, toSOAC := e.To.(*ir.SOAC)
				_, toPlain := e.To.(*ir.Plain)
				if e.Kind == Hazard && (e.Rule == RefUsedBefore || fromSOAC && toSOAC) {
					continue // the flow restated
				}
				kind := uint8(1)
				if e.Kind != ArrayFlow && !(toSOAC && versionOnly(from, e)) || toPlain {
					kind = 2
				}
				reach[x][y] = max(reach[x][y], kind)
				for z := y + 1; z < n; z++ {
					if r := reach[y][z]; r > 0 {
						k := max(r, kind)
						if toPlain {
							k = 2 // a plain statement runs between
						}
						reach[x][z] = max(reach[x][z], k)
					}
				}
			}
			for y := x + 1; y < n; y++ {
				if reach[x][y] > 0 {
					out[[2]ir.Stmt{b.Stmts[x], b.Stmts[y]}] = reach[x][y]
				}
			}
		}
	}
	return out
}

// versionOnly reports whether edge e from SOAC from (nil when from is no
// SOAC) is about a variable that from defines only as the IR's new
// version of an escaped variable, though its lambdas write nothing they
// did not allocate (lambda-local memory, ir's Versions): the driver never
// checks such an edge between a producer and the members of the kernel it
// fuses into, so it does not keep them apart.
func versionOnly(from *ir.SOAC, e *Edge) bool {
	return from != nil && e.Var != from.Out && soacImpure(from) == nil
}

// finish stamps plan with the method's outcome: its cost under both models,
// whether it was proved optimal, and a note when the budget ran out.
func (pr *problem) finish(plan *Plan, method string, optimal, timedOut bool) *Plan {
	plan.Partitioner = method
	plan.Optimal = optimal
	if timedOut {
		pos := token.NoPos
		if pr.fn.Decl != nil {
			pos = pr.fn.Decl.Pos()
		}
		plan.Notes = append(plan.Notes, Note{Pos: pos, Rule: RefBudget,
			Reason: fmt.Sprintf("the %s method ran out of its %v budget for %s at %s; this is the best clustering it found (greedy's at worst), not proved optimal",
				method, pr.opts.budget(), pr.fn.Name, posFmt{pr.opts.Fset}.at(pos))})
	}
	return plan
}
