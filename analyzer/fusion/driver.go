package fusion

// This file is the greedy bottom-up T2 driver (Henriksen & Oancea, "A T2 Graph-Reduction Approach to Fusion" (2013) [T2-fusion] §3): it visits the
// SOACs of every block from last to first, fusing each producer into the
// kernel of its consumers when the rule table and the legality checks
// allow, then merges independent kernels horizontally.
//
// It does NOT define legality (legal.go), the rules (rules.go) or iteration
// spaces (space.go); it only combines their answers. It does NOT compose
// lambdas or write code.

import (
	"fmt"
	"go/token"
	"slices"
	"sort"
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

// consumer is one SOAC that reads the producer's output as an input array.
type consumer struct {
	soac *ir.SOAC
	anc  ir.Stmt // its ancestor in the producer's block
	kind string  // "direct", "branch" or "boundary"
	box  ir.Stmt // for "boundary": the loop, closure or SOAC whose body holds it
}

// classify says how consumer c is reached from block b.
func classify(c *ir.SOAC, b *ir.Block) consumer {
	anc := AncestorIn(c, b)
	out := consumer{soac: c, anc: anc, kind: "direct"}
	if anc == ir.Stmt(c) {
		return out
	}
	out.kind = "branch"
	for s := ir.Stmt(c); s != anc; {
		parent := s.Block().Parent
		switch parent.(type) {
		case *ir.If, *ir.Switch:
		default:
			out.kind, out.box = "boundary", parent
		}
		s = parent
	}
	return out
}

func (st *state) boxName(s ir.Stmt) string {
	if soac, ok := s.(*ir.SOAC); ok {
		return "the lambda of " + st.p.soac(soac)
	}
	return st.p.stmt(s)
}

// producer tries to fuse P into the kernel of its consumers.
func (st *state) producer(P *ir.SOAC) {
	x := P.Out
	if x == nil || st.gasOut {
		return
	}
	st.noteWrittenConsumers(P, x)
	var cons []consumer
	var others []Use
	for _, u := range st.g.Uses[x] {
		if c, ok := u.Stmt.(*ir.SOAC); ok && u.Kind == ArrayFlow {
			cons = append(cons, classify(c, P.Parent))
		} else {
			others = append(others, u)
		}
	}
	if len(cons) == 0 {
		return
	}
	if l := soacImpure(P); l != nil {
		if !st.effectsFusion(P, x, cons, others) {
			why, pos := impureReason(st.p, P)
			st.refuse(P, x, &Refusal{Rule: RefImpure, Pos: pos, Reason: why + ": impure SOACs never fuse, except a Map into a pure Reduce right after it (effects.go)"})
		}
		return
	}
	for _, c := range cons {
		if c.kind == "boundary" && !P.IsGenerator() {
			st.refuse(P, x, &Refusal{Rule: RefLoopBoundary, Pos: c.soac.Pos(), Consumer: c.soac,
				Reason: fmt.Sprintf("%s is computed at %s outside %s and consumed inside it at %s: fusing would recompute it every time the body runs ([T2-fusion] Fig. 9 case 3)",
					x.Name, st.p.at(P.Pos()), st.boxName(c.box), st.p.at(c.soac.Pos()))})
			return
		}
	}
	var branch []consumer
	var ks []*kstate
	var boundary bool
	for _, c := range cons {
		if c.kind == "branch" {
			branch = append(branch, c)
			continue
		}
		if c.kind == "boundary" {
			boundary = true
		}
		k := st.kernelOf(c.soac)
		if !containsK(ks, k) {
			ks = append(ks, k)
		}
	}
	if len(branch) > 0 {
		st.branches(P, x, cons, branch, others)
		return
	}
	var K *kstate
	var tags []string
	if len(ks) == 1 {
		K = ks[0]
	} else {
		second := st.secondConsumer(cons, ks)
		if boundary {
			st.refuse(P, x, &Refusal{Rule: RefConsumedTwice, Pos: second.Pos(), Consumer: second,
				Reason: fmt.Sprintf("%s is consumed by kernels at different levels; the second at %s", x.Name, st.p.at(second.Pos()))})
			return
		}
		if r := st.unchosen(P, consumerSOACs(cons)); r != nil {
			if r := st.mapOutChosen(P, x, cons, others, r); r != nil {
				st.refuse(P, x, r)
			}
			return
		}
		m, r := st.mergeAll(ks)
		if r != nil {
			twice := &Refusal{Rule: RefConsumedTwice, Pos: second.Pos(), Consumer: second,
				Reason: fmt.Sprintf("%s is consumed again at %s on the same execution path, and the consumers cannot share a kernel (%s); fusing into both would compute it twice ([T2-fusion] Fig. 9 cases 4 and 6)",
					x.Name, st.p.at(second.Pos()), r.Reason)}
			if !st.mapOutFirst(P, x, cons, others) {
				st.refuse(P, x, twice)
				return
			}
			// x fused into the first consumer's kernel and is written
			// out there: every consumer outside that kernel reads it
			// materialised, and its edge gets a note saying why.
			for _, c := range cons {
				if k := st.kernelOf(c.soac); k == nil || !k.members[P] {
					st.mapOutNote(P, x, c.soac, r)
				}
			}
			return
		}
		if m == nil { // out of gas
			return
		}
		K = m
		tags = append(tags, TagMerge)
	}
	if r := st.fuseInto(P, x, K, cons, others, boundary, tags); r != nil {
		st.refuse(P, x, r)
	}
}

// withConsumer names c as the consumer of r when r names none.
func withConsumer(r *Refusal, c *ir.SOAC) *Refusal {
	if r.Consumer == nil {
		r.Consumer = c
	}
	return r
}

func containsK(ks []*kstate, k *kstate) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// secondConsumer returns the first consumer, in program order, that is not
// in the kernel of the earliest one.
func (st *state) secondConsumer(cons []consumer, ks []*kstate) *ir.SOAC {
	var all []*ir.SOAC
	for _, c := range cons {
		all = append(all, c.soac)
	}
	sort.Slice(all, func(i, j int) bool { return st.g.Order(all[i]) < st.g.Order(all[j]) })
	first := st.kernelOf(all[0])
	for _, c := range all[1:] {
		if st.kernelOf(c) != first {
			return c
		}
	}
	return all[len(all)-1]
}

// join makes P a member of K, dropping P's own kernel.
func (st *state) join(P *ir.SOAC, K *kstate, asserts []*ir.SOAC) {
	for _, k := range st.of[P] {
		if k != K && len(k.list) == 1 {
			k.dead = true
		}
	}
	K.members[P] = true
	K.list = append(K.list, P)
	sort.Slice(K.list, func(i, j int) bool { return st.g.Order(K.list[i]) < st.g.Order(K.list[j]) })
	K.asserts = asserts
	st.of[P] = append(st.of[P], K)
}

// vertical applies the rule table to P and every member of K that
// consumes x, then checks the fused kernel's space and shape.
func (st *state) vertical(P *ir.SOAC, K *kstate, x *ir.Var) ([]string, []*ir.SOAC, *Refusal) {
	var names []string
	for _, c := range K.list {
		if !slices.Contains(st.g.FlowInputs(c), x) {
			continue
		}
		if l := soacImpure(c); l != nil {
			why, pos := impureReason(st.p, c)
			return nil, nil, &Refusal{Rule: RefImpure, Pos: pos, Consumer: c, Reason: why + ": impure SOACs never fuse"}
		}
		rule := lookupVertical(ClassOf(P), ClassOf(c))
		if rule == nil {
			return nil, nil, &Refusal{Rule: RefNoRule, Pos: c.Pos(), Consumer: c, Var: x,
				Reason: fmt.Sprintf("no rule fuses %s -> %s (%s is complete only after %s ran)", P.Name, c.Name, x.Name, st.p.soac(P))}
		}
		if rule.Check != nil {
			if r := rule.Check(&ruleCtx{st: st, producer: P, consumer: c, x: x}); r != nil {
				return nil, nil, r
			}
		}
		if !containsS(names, rule.Name) {
			names = append(names, rule.Name)
		}
		if !consumes(c, x) && !containsS(names, TagIndexRead) {
			names = append(names, TagIndexRead)
		}
	}
	for _, m := range K.list {
		if l := soacImpure(m); l != nil {
			why, pos := impureReason(st.p, m)
			return nil, nil, &Refusal{Rule: RefImpure, Pos: pos, Consumer: m, Reason: why + ": impure SOACs never fuse"}
		}
	}
	members := append(append([]*ir.SOAC{}, K.list...), P)
	asserts, r := st.sp.compat(members)
	if r != nil {
		return nil, nil, r
	}
	if r := st.operandOrder(members); r != nil {
		return nil, nil, r
	}
	if r := shapeCheck(st.p, members); r != nil {
		return nil, nil, r
	}
	return names, asserts, nil
}

func containsS(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func consumes(c *ir.SOAC, x *ir.Var) bool {
	for _, v := range c.Inputs() {
		if v == x {
			return true
		}
	}
	return false
}

// pathMove checks that P can move from its position to where kernel K
// runs: down its own block to the statement holding K, into that
// statement's nested block (past an if's or switch's own condition, or
// past everything a loop, closure or lambda does), and down each nested
// block to K's position, past every statement that is not a member of K.
// When copies is not nil, a variable captured by P's function literals
// and reassigned on the way is no hazard: it is appended to *copies (P
// reads a copy taken at its own position: Kernel.Copies).
func (st *state) pathMove(P *ir.SOAC, K *kstate, copies *[]*ir.Var) *Refusal {
	at := st.at(K)
	skip := func(s ir.Stmt) bool { soac, ok := s.(*ir.SOAC); return ok && K.members[soac] }
	// chain[0] is K's position, chain[i+1] the statement holding chain[i]'s
	// block, up to the statement in P's block.
	var chain []ir.Stmt
	for s := at; s != nil; s = s.Block().Parent {
		chain = append(chain, s)
		if s.Block() == P.Parent || s.Block() == nil {
			break
		}
	}
	outer := chain[len(chain)-1]
	if outer.Block() != P.Parent {
		return &Refusal{Rule: RefLoopBoundary, Pos: at.Pos(),
			Reason: fmt.Sprintf("the kernel at %s is not inside the block of %s", st.p.at(at.Pos()), st.p.soac(P))}
	}
	if len(chain) == 1 {
		return moveDown(st.fn, st.g, st.p, P, outer, skip, copies)
	}
	past := func(s ir.Stmt) *Refusal {
		r, cs := conflictCopying(st.fn, st.p, P, s, copies != nil)
		if r == nil && copies != nil {
			addCopies(copies, cs)
		}
		return r
	}
	b := P.Parent
	for i := st.g.Index(P) + 1; i < st.g.Index(outer); i++ {
		if s := b.Stmts[i]; !skip(s) {
			if r := past(s); r != nil {
				return r
			}
		}
	}
	for lvl := len(chain) - 1; lvl >= 1; lvl-- {
		if r := past(st.enter(chain[lvl], P.Out)); r != nil {
			return r
		}
		inner := chain[lvl-1]
		ib := inner.Block()
		for i := 0; i < st.g.Index(inner); i++ {
			if s := ib.Stmts[i]; !skip(s) {
				if r := past(s); r != nil {
					return r
				}
			}
		}
	}
	return nil
}

// enter returns the view of a container that a producer moving into it
// passes: for an if or switch only its own condition (one branch runs,
// once); for a loop, closure or lambda everything it does, since its body
// may run again after the kernel — in both cases without the reads of x
// itself, which are the fused consumers'.
func (st *state) enter(box ir.Stmt, x *ir.Var) ir.Stmt {
	var eff ir.Effects
	switch box.(type) {
	case *ir.If, *ir.Switch:
		eff = *ownEffects(box)
		eff.Exits = false
	default:
		eff = *box.Effects()
	}
	eff.Uses = without(eff.Uses, x)
	eff.Writes = without(eff.Writes, x)
	return ownStmt{box, &eff}
}

func without(vs []*ir.Var, x *ir.Var) []*ir.Var {
	var out []*ir.Var
	for _, v := range vs {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

// branches handles a producer whose SOAC consumers lie in branches of an
// if or switch: P is copied into the consumer kernel of each branch when
// every path through the statement consumes x and x is used nowhere else.
func (st *state) branches(P *ir.SOAC, x *ir.Var, cons, branch []consumer, others []Use) {
	anc := branch[0].anc
	for _, c := range cons {
		if c.anc != anc || c.kind != "branch" {
			st.refuse(P, x, &Refusal{Rule: RefConsumedTwice, Pos: c.soac.Pos(), Consumer: c.soac,
				Reason: fmt.Sprintf("%s is consumed inside %s and again at %s on the same execution path; fusing into both would compute it twice ([T2-fusion] Fig. 9 case 4)",
					x.Name, st.p.stmt(anc), st.p.at(c.soac.Pos()))})
			return
		}
	}
	for _, o := range others {
		rule := RefConsumedTwice
		oa := AncestorIn(o.Stmt, P.Parent)
		if oa == nil || st.g.Index(oa) <= st.g.Index(anc) {
			rule = RefUsedBefore
		}
		st.refuse(P, x, &Refusal{Rule: rule, Pos: o.Pos,
			Reason: fmt.Sprintf("%s is also used at %s, so it must be materialised; copying it into the branches of %s would compute it twice", x.Name, st.p.at(o.Pos), st.p.stmt(anc))})
		return
	}
	targets, r := st.pathKernels(anc, x, st.skippable(P))
	if r != nil {
		st.refuse(P, x, r)
		return
	}
	type plan struct {
		k       *kstate
		names   []string
		asserts []*ir.SOAC
	}
	var plans []plan
	for _, K := range targets {
		if r := st.pathMove(P, K, nil); r != nil {
			st.refuse(P, x, r)
			return
		}
		names, asserts, r := st.vertical(P, K, x)
		if r != nil {
			st.refuse(P, x, r)
			return
		}
		plans = append(plans, plan{K, names, asserts})
		if r := st.unchosen(P, K.list); r != nil {
			st.refuse(P, x, r)
			return
		}
		members := append(append([]*ir.SOAC{}, K.list...), P)
		if r := st.orderAfter(members, st.atWith(K, P), P, nil, append(slices.Clone(st.of[P]), K)...); r != nil {
			st.refuse(P, x, r)
			return
		}
	}
	if !st.useGas() {
		return
	}
	for _, pl := range plans {
		st.join(P, pl.k, pl.asserts)
		st.fire(pl.k, append(pl.names, TagBranchCopy)...)
	}
}

// skippable reports whether P may be left out on a path that does not
// consume its result: it has no effect and cannot panic (nor can its
// operands), so that computing it only on the paths that read it is
// unobservable.
func (st *state) skippable(P *ir.SOAC) bool {
	return soacImpure(P) == nil && P.Eff.Impure == "" && !P.Eff.WritesGlobal && len(P.Eff.Writes) == 0 &&
		stmtMayPanic(scopeOf(st.fn), P) == ""
}

// pathKernels returns, for statement s (an if or switch holding consumers
// of x), the one kernel that consumes x on each path through it; it
// refuses when one path has two consumer kernels, or when some path does
// not consume x unless skip says that the producer may be left out there.
func (st *state) pathKernels(s ir.Stmt, x *ir.Var, skip bool) ([]*kstate, *Refusal) {
	var blocks []*ir.Block
	complete := true
	switch s := s.(type) {
	case *ir.If:
		blocks = []*ir.Block{s.Then}
		if s.Else != nil {
			blocks = append(blocks, s.Else)
		} else {
			complete = false
		}
	case *ir.Switch:
		blocks = s.Cases
		complete = s.Exhaustive
	}
	if !complete && !skip {
		return nil, &Refusal{Rule: RefNotEveryPath, Pos: s.Pos(), Var: x,
			Reason: fmt.Sprintf("%s has a path that does not consume %s: sinking %s into the branch would skip it, and its panics, on the other paths", st.p.stmt(s), x.Name, x.Name)}
	}
	var out []*kstate
	for _, b := range blocks {
		var here []ir.Stmt
		for _, u := range st.g.Uses[x] {
			if a := AncestorIn(u.Stmt, b); a != nil && !containsStmt(here, a) {
				here = append(here, a)
			}
		}
		switch {
		case len(here) == 0 && skip:
			continue // the producer is left out on this path
		case len(here) == 0:
			return nil, &Refusal{Rule: RefNotEveryPath, Pos: blockPos(b, s), Var: x,
				Reason: fmt.Sprintf("the branch at %s of %s does not consume %s: sinking %s into the other branches would skip it, and its panics, on this path", st.p.at(blockPos(b, s)), st.p.stmt(s), x.Name, x.Name)}
		case len(here) == 1:
			if soac, ok := here[0].(*ir.SOAC); ok {
				out = append(out, st.kernelOf(soac))
				continue
			}
			ks, r := st.pathKernels(here[0], x, skip)
			if r != nil {
				return nil, r
			}
			out = append(out, ks...)
		default:
			var ks []*kstate
			for _, a := range here {
				soac, ok := a.(*ir.SOAC)
				if !ok {
					return nil, &Refusal{Rule: RefConsumedTwice, Pos: a.Pos(), Var: x,
						Reason: fmt.Sprintf("%s is consumed twice on the path through the branch at %s; the second use is %s", x.Name, st.p.at(blockPos(b, s)), st.p.stmt(a))}
				}
				if k := st.kernelOf(soac); !containsK(ks, k) {
					ks = append(ks, k)
				}
			}
			if len(ks) != 1 {
				return nil, &Refusal{Rule: RefConsumedTwice, Pos: here[1].Pos(), Var: x,
					Reason: fmt.Sprintf("%s is consumed by two kernels on the path through the branch at %s; the second at %s", x.Name, st.p.at(blockPos(b, s)), st.p.at(here[1].Pos()))}
			}
			out = append(out, ks[0])
		}
	}
	return out, nil
}

func containsStmt(ss []ir.Stmt, s ir.Stmt) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func blockPos(b *ir.Block, owner ir.Stmt) token.Pos {
	if len(b.Stmts) > 0 {
		return b.Stmts[0].Pos()
	}
	return owner.Pos()
}

// mergeAll merges kernels of one block into one, in program order. It
// returns nil, nil when gas ran out.
func (st *state) mergeAll(ks []*kstate) (*kstate, *Refusal) {
	for _, k := range ks {
		if k.block != ks[0].block {
			return nil, &Refusal{Rule: RefConsumedTwice, Reason: "the consumers are in different blocks"}
		}
	}
	sorted := append([]*kstate(nil), ks...)
	sort.Slice(sorted, func(i, j int) bool { return st.g.Index(st.at(sorted[i])) < st.g.Index(st.at(sorted[j])) })
	acc := sorted[0]
	for _, k := range sorted[1:] {
		m, r := st.merge(acc, k)
		if r != nil {
			return nil, r
		}
		if m == nil {
			return nil, nil
		}
		acc = m
	}
	return acc, nil
}

// merge joins kernel a into kernel b (a runs no later than b) when they
// are independent, their members can move to b's position, and they share
// an iteration space. It returns nil, nil when gas ran out.
func (st *state) merge(a, b *kstate) (*kstate, *Refusal) {
	pos, r := st.mergePos(a, b)
	if r != nil {
		return nil, r
	}
	if !st.useGas() {
		return nil, nil
	}
	rule := lookupHorizontal(kernelClasses(a.list), kernelClasses(b.list))
	m := &kstate{id: b.id, block: b.block, members: map[*ir.SOAC]bool{}}
	for _, s := range append(append([]*ir.SOAC{}, a.list...), b.list...) {
		if !m.members[s] {
			m.members[s] = true
			m.list = append(m.list, s)
		}
	}
	sort.Slice(m.list, func(i, j int) bool { return st.g.Order(m.list[i]) < st.g.Order(m.list[j]) })
	m.rules = append(append([]string{}, a.rules...), b.rules...)
	m.asserts, _ = st.sp.compat(m.list)
	if pos != st.last(m) {
		m.pos = pos
		if pos != a.pos && pos != b.pos {
			st.fire(m, TagPlaced)
		}
	}
	a.dead, b.dead = true, true
	st.kernels = append(st.kernels, m)
	for s := range m.members {
		st.of[s] = append(st.of[s], m)
	}
	st.fire(m, rule.Name)
	return m, nil
}

// canMerge reports why kernels a and b cannot run as one pass.
func (st *state) canMerge(a, b *kstate) *Refusal {
	_, r := st.mergePos(a, b)
	return r
}

// mergePos returns where kernels a and b can run as one pass: at the
// later one's position, or, when the earlier one's members cannot move
// down to it, at the earlier one's (placement, place.go); else it reports
// why they cannot.
func (st *state) mergePos(a, b *kstate) (ir.Stmt, *Refusal) {
	if st.g.Index(st.at(a)) > st.g.Index(st.at(b)) {
		a, b = b, a
	}
	for _, k := range []*kstate{a, b} {
		for _, m := range k.list {
			if soacImpure(m) != nil {
				why, pos := impureReason(st.p, m)
				return nil, &Refusal{Rule: RefImpure, Pos: pos, Consumer: m, Reason: why}
			}
		}
	}
	in := func(s ir.Stmt) bool { soac, ok := s.(*ir.SOAC); return ok && (a.members[soac] || b.members[soac]) }
	// No dependency between the two kernels' members...
	for _, pair := range [][2]*kstate{{a, b}, {b, a}} {
		for _, m := range pair[0].list {
			for _, e := range st.g.Out[m] {
				if to, ok := e.To.(*ir.SOAC); ok && pair[1].members[to] && !pair[0].members[to] && !st.panicOrdered(e, m, to) {
					what := "must run after " + st.p.soac(m)
					if e.Var != nil && e.Kind != Hazard {
						what = fmt.Sprintf("reads %s, computed by %s, so it must wait for it", e.Var.Name, st.p.soac(m))
					} else if e.Reason != "" {
						what += ": " + e.Reason
					}
					return nil, &Refusal{Rule: RefConsumedTwice, Pos: e.Pos, Var: e.Var,
						Reason: fmt.Sprintf("%s %s", st.p.soac(to), what)}
				}
			}
		}
	}
	// ...and every member of a can move down to b's position, past the
	// statements of neither kernel (this also rules out any path between
	// them through other statements).
	// When they cannot, every member of b may move up to a's position
	// instead (placement, place.go).
	at := st.at(b)
	if a.block != b.block {
		return nil, &Refusal{Rule: RefLoopBoundary, Pos: at.Pos(),
			Reason: fmt.Sprintf("%s and %s are in different blocks", st.p.stmt(st.at(a)), st.p.stmt(at))}
	}
	members := append(append([]*ir.SOAC{}, a.list...), b.list...)
	if r := st.moveTo(a.list, b.block, at, in); r != nil {
		if st.moveTo(members, a.block, st.at(a), in) != nil {
			return nil, r
		}
		at = st.at(a)
	}
	if _, r := st.sp.compat(members); r != nil {
		return nil, r
	}
	if r := st.operandOrder(members); r != nil {
		return nil, r
	}
	if r := shapeCheck(st.p, members); r != nil {
		return nil, r
	}
	if lookupHorizontal(kernelClasses(a.list), kernelClasses(b.list)) == nil {
		return nil, &Refusal{Rule: RefNoRule, Pos: at.Pos(), Reason: "no horizontal rule joins these kernels"}
	}
	if r := st.orderAfter(members, at, nil, nil, a, b); r != nil {
		return nil, r
	}
	return at, nil
}

// horizontal merges the kernels of block b greedily in program order: each
// kernel joins the first later kernel it can.
func (st *state) horizontal(b *ir.Block) {
	var ks []*kstate
	for _, k := range st.kernels {
		if !k.dead && k.block == b && st.at(k) != nil {
			ks = append(ks, k)
		}
	}
	sort.SliceStable(ks, func(i, j int) bool { return st.g.Index(st.at(ks[i])) < st.g.Index(st.at(ks[j])) })
	for i := 0; i < len(ks); i++ {
		for j := i + 1; j < len(ks); j++ {
			if st.gasOut {
				return
			}
			if !st.sameGroup(ks[i], ks[j]) || st.canMerge(ks[i], ks[j]) != nil {
				continue
			}
			m, _ := st.merge(ks[i], ks[j])
			if m == nil {
				return
			}
			ks[j] = m
			break
		}
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
