package fusion

// This file is the greedy bottom-up T2 driver (Henriksen & Oancea, "A T2 Graph-Reduction Approach to Fusion" (2013) [T2-fusion] §3): it visits the
// SOACs of every block from last to first, fusing each producer into the
// kernel of its consumers when the rule table and the legality checks
// allow (vertical.go, branchcopy.go, fuseinto.go), then merges independent
// kernels horizontally (horizontal.go). This file holds the driver's
// state, the kernels under construction and the order of its visits.
//
// It does NOT define legality (legal.go), the rules (rules.go) or iteration
// spaces (space.go); it only combines their answers. It does NOT compose
// lambdas or write code.

import (
	"fmt"
	"go/token"
	"time"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// Options configure Fuse.
type Options struct {
	// Gas, when positive, stops fusing after that many successful fusions
	// (vertical fusions and kernel merges), to bisect a miscompile.
	Gas int
	// Fset renders positions in reasons and dumps; nil renders raw offsets.
	Fset *token.FileSet
	// Partitioner chooses the kernels; nil means the method that the
	// directive's cluster=, else Cluster, names (see partitionerOf).
	Partitioner Partitioner
	// Cluster names the clustering method of the specs whose directive
	// names none ("" for DefaultMethod); see Methods.
	Cluster string
	// Budget bounds the time an optimal method spends on one function
	// (0 means DefaultBudget).
	Budget time.Duration
	// NoHorizontal switches off the horizontal pass (merges made so that a
	// producer can fuse into several consumers still happen).
	NoHorizontal bool
	// ModelOnly restricts the driver to the fusions that the clustering
	// models of ilp and wsp know (cluster.go): every kernel at its last
	// member (no placement, place.go), and no merge of two SOACs that
	// only their panics order (panicOrdered). Their replays always run so
	// restricted; the oracle tests set it so that greedy compares like
	// with like.
	ModelOnly bool
}

// Fuse decides the kernels of fn. Whatever the method, the plan it
// returns runs every dependency in program order (order.go): a plan that
// would not is replaced by one that fuses nothing, with an "unsupported"
// diagnostic naming the dependency, so that a defect of the engine costs
// speed, never a wrong result.
func Fuse(fn *ir.Function, opts Options) *Plan {
	plan := partitionerOf(fn, opts).Partition(fn, opts)
	g := NewGraph(fn, opts.Fset)
	r := kernelOrder(plan, g)
	if r == nil {
		return plan
	}
	st := newStateOn(fn, opts, g, newSpaces(posFmt{opts.Fset}, fn.Info))
	st.frozen = true
	st.run()
	safe := st.plan(plan.Partitioner)
	pr := newPricing(fn, opts, g, st.sp)
	safe.Cost = pr.cost(pr.labelsOf(safe))
	safe.Diagnostics = append(safe.Diagnostics, Diagnostic{Pos: r.Pos, Category: "unsupported",
		Message: "the fusion plan would break a dependency, so nothing in this function is fused: " + r.Reason})
	return safe
}

// kstate is a kernel under construction.
type kstate struct {
	id      int
	block   *ir.Block
	members map[*ir.SOAC]bool
	list    []*ir.SOAC
	rules   []string
	asserts []*ir.SOAC
	dead    bool
	// pos, when not nil, is the statement of k's block the kernel runs at
	// (placement, place.go); nil means its last member there.
	pos ir.Stmt
}

// state is the driver's working state for one function.
type state struct {
	fn      *ir.Function
	opts    Options
	p       posFmt
	g       *Graph
	sp      *spaces
	kernels []*kstate
	of      map[*ir.SOAC][]*kstate
	notes   []Note
	diags   []Diagnostic
	fired   map[string]int
	// copies are the captured variables each producer reads as copies
	// taken where it is written (Kernel.Copies).
	copies  map[*ir.SOAC][]*ir.Var
	gasUsed int
	gasOut  bool
	noted   map[*ir.SOAC]bool // impure SOACs already explained
	nextID  int
	// target, when not nil, is the clustering to realise (cluster.go):
	// fusions and merges joining SOACs of different groups are not made.
	target map[*ir.SOAC]int
	method string // the clustering method that chose target
	// frozen makes no fusion (Fuse's plan when another broke a dependency).
	frozen bool
}

func newState(fn *ir.Function, opts Options) *state {
	return newStateOn(fn, opts, NewGraph(fn, opts.Fset), newSpaces(posFmt{opts.Fset}, fn.Info))
}

// newStateOn is newState on a graph and spaces already built.
func newStateOn(fn *ir.Function, opts Options, g *Graph, sp *spaces) *state {
	p := posFmt{opts.Fset}
	return &state{
		fn: fn, opts: opts, p: p, g: g, sp: sp,
		of: map[*ir.SOAC][]*kstate{}, fired: map[string]int{}, noted: map[*ir.SOAC]bool{},
		copies: map[*ir.SOAC][]*ir.Var{},
	}
}

func (st *state) newKernel(s *ir.SOAC) *kstate {
	st.nextID++
	k := &kstate{id: st.nextID, block: s.Parent, members: map[*ir.SOAC]bool{s: true}, list: []*ir.SOAC{s}}
	st.kernels = append(st.kernels, k)
	st.of[s] = append(st.of[s], k)
	return k
}

// at returns the kernel's position: the statement it was placed at, else
// the member of k that runs last in k's block.
func (st *state) at(k *kstate) ir.Stmt {
	if k.pos != nil {
		return k.pos
	}
	return st.last(k)
}

// last returns the member of k that comes last in k's block.
func (st *state) last(k *kstate) ir.Stmt {
	var last ir.Stmt
	for _, m := range k.list {
		if m.Parent != k.block {
			continue
		}
		if last == nil || st.g.Index(m) > st.g.Index(last) {
			last = m
		}
	}
	return last
}

// atWith returns where kernel k runs once P joins it: its placed
// position, else its last member in its block, P included.
func (st *state) atWith(k *kstate, P *ir.SOAC) ir.Stmt {
	at := st.at(k)
	if k.pos == nil && P.Parent == k.block && (at == nil || st.g.Index(P) > st.g.Index(at)) {
		at = P
	}
	return at
}

func (st *state) kernelOf(s *ir.SOAC) *kstate {
	for _, k := range st.of[s] {
		if !k.dead {
			return k
		}
	}
	return nil
}

// useGas reports whether one more fusion may happen, and counts it.
func (st *state) useGas() bool {
	if st.frozen {
		return false
	}
	if st.opts.Gas > 0 && st.gasUsed >= st.opts.Gas {
		st.gasOut = true
		return false
	}
	st.gasUsed++
	return true
}

func (st *state) fire(k *kstate, names ...string) {
	for _, n := range names {
		k.rules = append(k.rules, n)
		st.fired[n]++
	}
}

// refuse records a note explaining why producer P (output x) was not fused.
func (st *state) refuse(P *ir.SOAC, x *ir.Var, r *Refusal) {
	if r.Rule == RefImpure {
		if st.noted[P] {
			return
		}
		st.noted[P] = true
		if r.Consumer != nil {
			st.noted[r.Consumer] = true
		}
	}
	into := "its consumers"
	if r.Consumer != nil {
		into = st.p.soac(r.Consumer)
	}
	v := r.Var
	if v == nil {
		v = x
	}
	st.notes = append(st.notes, Note{
		Pos: r.Pos, Producer: P, Consumer: r.Consumer, Var: v, Rule: r.Rule,
		Reason: fmt.Sprintf("%s (%s) not fused into %s: %s", x.Name, st.p.soac(P), into, r.Reason),
	})
}

// run is the greedy partition of one function.
func (st *state) run() {
	st.diagnose()
	st.block(st.fn.Body)
	st.effectsDiagnostics()
}

// block processes the statements of b from last to first (a statement's
// nested blocks before the statement), then merges b's kernels
// horizontally.
func (st *state) block(b *ir.Block) {
	if b == nil {
		return
	}
	for i := len(b.Stmts) - 1; i >= 0; i-- {
		s := b.Stmts[i]
		for _, nb := range ir.Children(s) {
			st.block(nb)
		}
		if soac, ok := s.(*ir.SOAC); ok {
			st.newKernel(soac)
			st.producer(soac)
		}
	}
	if !st.opts.NoHorizontal {
		st.horizontal(b)
	}
}

// diagnose records the findings that are not refusals: impure lambdas,
// provably unequal lengths zipped, unsupported SOAC calls.
func (st *state) diagnose() {
	for _, s := range st.g.SOACs {
		if soacImpure(s) != nil {
			why, pos := impureReason(st.p, s)
			st.diags = append(st.diags, Diagnostic{Pos: pos, Category: "impure",
				Message: why + ": " + st.p.soac(s) + " is not fused and is never reordered"})
		}
		if _, r := st.sp.zipCheck(s, nil); r != nil && r.Rule == RefSizeMismatch {
			st.diags = append(st.diags, Diagnostic{Pos: s.Pos(), Category: "size", Message: r.Reason})
		}
	}
	for _, u := range st.fn.Unsupported {
		pos := token.NoPos
		if u.Call != nil {
			pos = u.Call.Pos()
		}
		st.diags = append(st.diags, Diagnostic{Pos: pos, Category: "unsupported", Message: u.Reason})
	}
}
