package purity

import (
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// This file holds the Analyzer, the package's call graph and the bounded
// fixed point over its strongly connected components, and the Result. It
// does not judge statements or calls: body.go and callsite.go do.

// Analyzer computes the purity of every function, method and function
// literal of a package. It reports nothing; its result is a Result, and it
// exports a FuncFact for every function and method of the package. Its
// result is a *Verdicts, which implements Result.
var Analyzer = &analysis.Analyzer{
	Name: "soacpurity",
	Doc:  doc,
	Run:  run,
	// A package with type errors is analysed as far as its types allow
	// (see runDespiteErrors).
	RunDespiteErrors: true,
	FactTypes:        []analysis.Fact{new(FuncFact)},
	ResultType:       reflect.TypeOf((*Verdicts)(nil)),
}

// maxRounds bounds the fixed point over one strongly connected component.
// Each round that does not stop makes some summary strictly worse in a
// finite lattice (a few booleans and two sets of parameter indices per
// function), so a component converges in at most a few rounds per function;
// 100 is far above anything real code needs and exists only to turn a bug
// into a conservative verdict instead of a hang.
const maxRounds = 100

// verdict is a function's summary together with the position of the
// construct that makes it impure.
type verdict struct {
	FuncFact
	Pos token.Pos
}

// fnode is a function body of the package: a FuncDecl with a body or a
// FuncLit. The call graph's nodes.
type fnode struct {
	decl *ast.FuncDecl // or nil
	lit  *ast.FuncLit  // or nil
	fn   *types.Func   // the declared function, for decl
	sig  *types.Signature
	body *ast.BlockStmt
	// params maps each named parameter to its index; -1 is the receiver.
	params map[*types.Var]int
	sum    verdict
	// edges are the nodes whose summaries this node's verdict reads.
	edges []*fnode
	// Tarjan's bookkeeping; scc identifies the node's component.
	index, lowlink int
	onStack        bool
	scc            int
	// recorded reports whether the effects of the body's calls are stored.
	recorded bool
}

// node returns the FuncDecl or FuncLit.
func (n *fnode) node() ast.Node {
	if n.decl != nil {
		return n.decl
	}
	return n.lit
}

// state is the analysis of one package.
type state struct {
	pass    *analysis.Pass
	info    *types.Info
	nodes   []*fnode
	byFunc  map[*types.Func]*fnode
	byLit   map[*ast.FuncLit]*fnode
	fresh   *freshness
	commaOK map[*ast.TypeAssertExpr]bool
	// safeIdx holds the index expressions proven in range (bounds.go).
	safeIdx map[*ast.IndexExpr]bool
	// funcVars maps local variables of function type that are only ever
	// assigned function literals (or nil) to those literals.
	funcVars map[*types.Var][]*ast.FuncLit
	// external caches the effects of functions of other packages, imported
	// during Run.
	external map[*types.Func]*calleeEffect
	// calls holds the effect of every call expression, filled by the last
	// pass.
	calls map[*ast.CallExpr]CallEffect
	// rows holds the table row that decided each call, filled with calls.
	rows map[*ast.CallExpr]string
	// tableOnly is set for standard-library packages, whose functions are
	// judged by the table alone.
	tableOnly bool
	// done is set when Run ends: facts can no longer be imported.
	done bool
}

func run(pass *analysis.Pass) (any, error) {
	if len(pass.TypeErrors) > 0 {
		return runDespiteErrors(pass)
	}
	return analyze(pass), nil
}

// runDespiteErrors analyses a package with type errors as far as its types
// allow. Missing type information can break the analysis anywhere; if it
// does, the package is judged by the standard-library table alone, which
// answers every question about its own functions conservatively (impure).
func runDespiteErrors(pass *analysis.Pass) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s := newState(pass)
			s.tableOnly = true
			res, err = s.result(), nil
		}
	}()
	return analyze(pass), nil
}

func newState(pass *analysis.Pass) *state {
	return &state{
		pass:     pass,
		info:     pass.TypesInfo,
		byFunc:   map[*types.Func]*fnode{},
		byLit:    map[*ast.FuncLit]*fnode{},
		commaOK:  map[*ast.TypeAssertExpr]bool{},
		external: map[*types.Func]*calleeEffect{},
		calls:    map[*ast.CallExpr]CallEffect{},
		rows:     map[*ast.CallExpr]string{},
	}
}

func analyze(pass *analysis.Pass) *Verdicts {
	return newState(pass).analyze()
}

// analyze analyses s.pass's package and ends the run.
func (s *state) analyze() *Verdicts {
	pass := s.pass
	if inGOROOT(pass) {
		// The standard library is judged by the table alone: summarising
		// its thousands of functions as facts would make every analysis
		// that depends on it (all of them) carry and copy those facts.
		s.tableOnly = true
		return s.result()
	}
	s.fresh = computeFreshness(s.info, pass.Pkg, pass.Files, func(fn *types.Func) []int {
		return s.funcEffect(fn, nil).fresh
	})
	s.safeIdx = map[*ast.IndexExpr]bool{}
	for _, f := range pass.Files {
		for e := range SafeIndexes(s.info, f) {
			s.safeIdx[e] = true
		}
	}
	s.collect()
	s.funcVars = s.resolveFuncVars()
	for _, n := range s.nodes {
		s.edges(n)
	}
	// Import the effects of every function of another package that the
	// package references, while facts can be imported.
	for _, obj := range s.info.Uses {
		if fn, ok := obj.(*types.Func); ok && fn.Pkg() != pass.Pkg {
			s.funcEffect(fn, nil)
		}
	}
	s.solve()
	// The last pass records the effect of every call of the bodies whose
	// calls the fixed point did not record.
	for _, n := range s.nodes {
		if !n.recorded {
			s.evaluate(n, true)
		}
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok {
				w := &walker{s: s, record: true, level: noReason}
				w.v.Pure = true
				ast.Inspect(gd, w.visit)
			}
		}
	}
	s.exportFacts()
	return s.result()
}

// inGOROOT reports whether the package's files are in the standard library's
// source tree.
func inGOROOT(pass *analysis.Pass) bool {
	root := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	for _, f := range pass.Files {
		if !strings.HasPrefix(pass.Fset.File(f.Pos()).Name(), root) {
			return false
		}
	}
	return len(pass.Files) > 0
}

// collect creates a node for every function body of the package and notes
// the comma-ok type assertions.
func (s *state) collect() {
	for _, f := range s.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				fn, _ := s.info.Defs[n.Name].(*types.Func)
				if fn == nil || n.Body == nil {
					return true
				}
				nd := &fnode{decl: n, fn: fn, sig: fn.Type().(*types.Signature), body: n.Body}
				s.addNode(nd)
				s.byFunc[fn] = nd
			case *ast.FuncLit:
				sig, _ := s.info.TypeOf(n).(*types.Signature)
				if sig == nil {
					return true
				}
				nd := &fnode{lit: n, sig: sig, body: n.Body}
				s.addNode(nd)
				s.byLit[n] = nd
			case *ast.AssignStmt:
				if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
					if ta, ok := ast.Unparen(n.Rhs[0]).(*ast.TypeAssertExpr); ok {
						s.commaOK[ta] = true
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == 2 && len(n.Values) == 1 {
					if ta, ok := ast.Unparen(n.Values[0]).(*ast.TypeAssertExpr); ok {
						s.commaOK[ta] = true
					}
				}
			}
			return true
		})
	}
}

// addNode appends nd with its parameter indices.
func (s *state) addNode(nd *fnode) {
	nd.params = map[*types.Var]int{}
	if r := nd.sig.Recv(); r != nil {
		nd.params[r] = -1
	}
	for i := 0; i < nd.sig.Params().Len(); i++ {
		nd.params[nd.sig.Params().At(i)] = i
	}
	s.nodes = append(s.nodes, nd)
}

// resolveFuncVars finds the local variables of function type whose every
// value is a function literal or nil and whose address is never taken: a
// call through such a variable calls one of those literals.
func (s *state) resolveFuncVars() map[*types.Var][]*ast.FuncLit {
	lits := map[*types.Var][]*ast.FuncLit{}
	bad := map[*types.Var]bool{}
	note := func(v *types.Var, rhs ast.Expr) {
		if v == nil {
			return
		}
		if _, ok := under(v.Type()).(*types.Signature); !ok {
			return
		}
		if _, local := s.fresh.encl[v]; !local || v.Parent() == nil {
			bad[v] = true
			return
		}
		switch r := ast.Unparen(rhs).(type) {
		case *ast.FuncLit:
			lits[v] = append(lits[v], r)
			return
		case *ast.Ident:
			if isUniverseNil(s.info.Uses[r]) || r.Name == "nil" && s.info.Uses[r] == nil {
				return
			}
		}
		bad[v] = true
	}
	for _, f := range s.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					id, ok := ast.Unparen(lhs).(*ast.Ident)
					if !ok {
						continue
					}
					v, _ := s.info.ObjectOf(id).(*types.Var)
					if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) {
						note(v, n.Rhs[i])
					} else if v != nil {
						bad[v] = true
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					v, _ := s.info.Defs[id].(*types.Var)
					if len(n.Values) == len(n.Names) {
						note(v, n.Values[i])
					} else if len(n.Values) == 0 {
						note(v, ast.NewIdent("nil"))
					} else if v != nil {
						bad[v] = true
					}
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						if v, _ := s.info.ObjectOf(id).(*types.Var); v != nil {
							bad[v] = true
						}
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if v := s.fresh.valueRoot(n.X); v != nil {
						bad[v] = true
					}
				}
			}
			return true
		})
	}
	for v := range bad {
		delete(lits, v)
	}
	for _, n := range s.nodes {
		// A parameter's first value comes from the caller.
		for v := range n.params {
			delete(lits, v)
		}
	}
	return lits
}

// edges computes the nodes whose summaries n's verdict reads: the package's
// functions it references, the literals nested directly in it, and the
// literals behind the function variables it references.
func (s *state) edges(n *fnode) {
	seen := map[*fnode]bool{}
	add := func(m *fnode) {
		if m != nil && !seen[m] {
			seen[m] = true
			n.edges = append(n.edges, m)
		}
	}
	ast.Inspect(n.body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			add(s.byLit[x])
			return false
		case *ast.Ident:
			switch obj := s.info.Uses[x].(type) {
			case *types.Func:
				add(s.byFunc[obj.Origin()])
			case *types.Var:
				for _, lit := range s.funcVars[obj] {
					add(s.byLit[lit])
				}
			}
		}
		return true
	})
}

// solve computes every node's summary: Tarjan's algorithm yields the
// strongly connected components callees first; each component starts
// optimistic (pure) and is re-evaluated until its summaries stop changing.
func (s *state) solve() {
	index := 1
	var stack []*fnode
	scc := 0
	var strong func(n *fnode)
	strong = func(n *fnode) {
		n.index, n.lowlink = index, index
		index++
		stack = append(stack, n)
		n.onStack = true
		for _, m := range n.edges {
			if m.index == 0 {
				strong(m)
				n.lowlink = min(n.lowlink, m.lowlink)
			} else if m.onStack {
				n.lowlink = min(n.lowlink, m.index)
			}
		}
		if n.lowlink != n.index {
			return
		}
		scc++
		var comp []*fnode
		for {
			m := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			m.onStack = false
			m.scc = scc
			comp = append(comp, m)
			if m == n {
				break
			}
		}
		s.fixpoint(comp)
	}
	for _, n := range s.nodes {
		if n.index == 0 {
			strong(n)
		}
	}
}

// fixpoint computes the summaries of one strongly connected component.
func (s *state) fixpoint(comp []*fnode) {
	for _, n := range comp {
		n.sum = verdict{FuncFact: FuncFact{Pure: true}}
	}
	recursive := len(comp) > 1 || contains(comp[0].edges, comp[0])
	if !recursive {
		// Its callees are settled: one evaluation is final.
		n := comp[0]
		n.sum = s.evaluate(n, true)
		n.recorded = true
		return
	}
	for round := 0; ; round++ {
		changed := false
		for _, n := range comp {
			v := join(n.sum, s.evaluate(n, false))
			if !v.equalLattice(&n.sum.FuncFact) {
				changed = true
			}
			n.sum = v
		}
		if !changed {
			return
		}
		if round == maxRounds {
			for _, n := range comp {
				n.sum = verdict{FuncFact: FuncFact{Reason: "recursion did not reach a fixed point", MayPanic: true, WritesGlobal: true}, Pos: n.node().Pos()}
			}
			return
		}
	}
}

// join returns the worse of two summaries of the same function, with the
// newer reason.
func join(old, cur verdict) verdict {
	out := cur
	out.Pure = old.Pure && cur.Pure
	out.MayPanic = old.MayPanic || cur.MayPanic
	out.WritesGlobal = old.WritesGlobal || cur.WritesGlobal
	out.WritesArgs = append([]int(nil), cur.WritesArgs...)
	for _, i := range old.WritesArgs {
		out.WritesArgs = addInt(out.WritesArgs, i)
	}
	out.CallsParams = append([]int(nil), cur.CallsParams...)
	for _, i := range old.CallsParams {
		out.CallsParams = addInt(out.CallsParams, i)
	}
	if cur.Pure && !old.Pure {
		out.Reason, out.Pos = old.Reason, old.Pos
	}
	return out
}

func contains(ns []*fnode, n *fnode) bool {
	for _, m := range ns {
		if m == n {
			return true
		}
	}
	return false
}

// evaluate walks n's body with the current summaries and returns its
// verdict; with record, it also stores the effect of every call.
func (s *state) evaluate(n *fnode, record bool) verdict {
	w := &walker{s: s, n: n, record: record, level: noReason}
	w.v.Pure = true
	ast.Inspect(n.body, w.visit)
	return w.v
}

// exportFacts exports the summary of every exported function and method
// declared in the package.
func (s *state) exportFacts() {
	for _, f := range s.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn, _ := s.info.Defs[fd.Name].(*types.Func)
			// Only exported functions and methods can be called from
			// another package; the others' effects are already part of
			// their callers' facts. (Fewer facts keep the analysis of
			// large dependency graphs fast.)
			if fn == nil || !fn.Exported() {
				continue
			}
			fact := s.declFact(fn)
			fact.FreshResults = s.fresh.resultsOf(fn)
			s.pass.ExportObjectFact(fn, &fact)
		}
	}
}

// declFact returns the summary of a function declared in the package.
func (s *state) declFact(fn *types.Func) FuncFact {
	if n := s.byFunc[fn]; n != nil {
		return n.sum.FuncFact
	}
	return FuncFact{Reason: "has no Go body", MayPanic: true, WritesGlobal: true, WritesArgs: refParams(fn.Type().(*types.Signature))}
}

// unconditional turns a summary that assumes its function-typed parameters
// pure into a verdict on calling the function with any arguments.
func unconditional(v verdict, sig *types.Signature) ir.Purity {
	p := ir.Purity{Pure: v.Pure, Reason: v.Reason, Pos: v.Pos, MayPanic: v.MayPanic}
	if p.Pure && len(v.CallsParams) > 0 {
		p.Pure = false
		p.Reason = "calls its function parameter " + paramName(sig, v.CallsParams[0]) + ", which cannot be resolved"
		p.MayPanic = true
	}
	return p
}

// paramName names parameter i of sig (-1: the receiver).
func paramName(sig *types.Signature, i int) string {
	var v *types.Var
	if i < 0 {
		v = sig.Recv()
	} else if i < sig.Params().Len() {
		v = sig.Params().At(i)
	}
	if v == nil || v.Name() == "" || v.Name() == "_" {
		return "#" + itoa(i)
	}
	return v.Name()
}
