package fusion

// This file builds the dependency graph of a function: derived data, rebuilt
// from the IR for every call of Fuse and never cached on IR nodes.
//
// It does NOT decide anything: whether an edge forbids a move is legal.go's
// business (the Hazard edges are computed by legal.go's conflict check, so
// that the graph and the legality checks cannot disagree), and which fusion
// applies is rules.go's.

import (
	"go/ast"
	"go/token"
	"sort"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// EdgeKind says how the later statement of an edge depends on the earlier.
type EdgeKind int

// The kinds of edges.
const (
	// ArrayFlow: a SOAC's output used as an input array of a SOAC. It may
	// be fused.
	ArrayFlow EdgeKind = iota
	// ScalarFlow: a SOAC's result read by a lambda (its Free variables), or
	// by a scalar operand (neutral element, length, replicated value). The
	// producer must be complete before the consumer starts.
	ScalarFlow
	// OtherUse: a value read by a statement that is not a SOAC (indexing,
	// len, return, passing it on, a branch condition).
	OtherUse
	// Hazard: an ordering constraint that is not a data flow: a write,
	// redefinition, impure effect or control exit between two statements.
	Hazard
)

var edgeKindNames = [...]string{"array", "scalar", "other", "hazard"}

// String returns the kind's name.
func (k EdgeKind) String() string { return edgeKindNames[k] }

// Use is one read of a Var: the innermost statement that reads it, how, and
// where.
type Use struct {
	Stmt ir.Stmt
	Kind EdgeKind
	Pos  token.Pos
}

// Edge is a dependency between two statements of one block: To must stay
// after From. When the dependency comes from a statement nested inside To
// (a lambda body, a branch, a loop body), Site is that nested statement and
// Nested is true.
type Edge struct {
	Kind     EdgeKind
	From, To ir.Stmt
	Var      *ir.Var   // the variable the edge is about (nil for some hazards)
	Pos      token.Pos // where the use, write or exit is
	Site     ir.Stmt   // the innermost statement of the use
	Nested   bool
	Rule     string // for Hazard edges: the refusal id of the conflict
	Reason   string // for Hazard edges: why
}

// Graph is the dependency graph of one function.
//
// Invariants: every edge joins two statements of the same block, From
// before To; Out and In index the same edges.
type Graph struct {
	Fn *ir.Function
	// Uses lists every read of every Var, in preorder of the statements.
	Uses map[*ir.Var][]Use
	// Out and In index the edges by their earlier and later statement.
	Out, In map[ir.Stmt][]*Edge
	// SOACs lists every SOAC of the function, at every depth, in preorder.
	SOACs []*ir.SOAC
	// Gathers are the index reads of each consumer (gather.go): arrays
	// its literal reads only at the iteration index, recorded in Uses as
	// ArrayFlow uses of the consumer.
	Gathers map[*ir.SOAC][]Gather

	edges []*Edge         // every edge, in the order added
	index map[ir.Stmt]int // position of each statement in its block
	order map[ir.Stmt]int // preorder number of each statement
}

// NewGraph builds the dependency graph of fn.
func NewGraph(fn *ir.Function, fset *token.FileSet) *Graph {
	g := &Graph{
		Fn:    fn,
		Uses:  make(map[*ir.Var][]Use),
		Out:   make(map[ir.Stmt][]*Edge),
		In:    make(map[ir.Stmt][]*Edge),
		index: make(map[ir.Stmt]int),
		order: make(map[ir.Stmt]int),
	}
	var blocks []*ir.Block
	var number func(b *ir.Block)
	number = func(b *ir.Block) {
		if b == nil {
			return
		}
		blocks = append(blocks, b)
		for i, s := range b.Stmts {
			g.index[s] = i
			g.order[s] = len(g.order)
			if soac, ok := s.(*ir.SOAC); ok {
				g.SOACs = append(g.SOACs, soac)
			}
			for _, nb := range ir.Children(s) {
				number(nb)
			}
		}
	}
	number(fn.Body)
	for _, b := range blocks {
		for _, s := range b.Stmts {
			g.recordUses(s)
		}
	}
	g.flowUses(blocks)
	g.Gathers = indexReads(fn, newSpaces(posFmt{fset}, fn.Info), g.SOACs)
	g.gatherUses()
	g.flowEdges()
	for _, b := range blocks {
		g.hazardEdges(b, posFmt{fset})
	}
	return g
}

// Index returns the position of s in its block.
func (g *Graph) Index(s ir.Stmt) int { return g.index[s] }

// Order returns the preorder number of s: a statement comes after every
// statement of its block before it and after the statement that owns its
// block.
func (g *Graph) Order(s ir.Stmt) int { return g.order[s] }

func (g *Graph) addUse(v *ir.Var, u Use) {
	if v == nil {
		return
	}
	for _, old := range g.Uses[v] {
		if old.Stmt == u.Stmt && old.Kind == u.Kind {
			return
		}
	}
	g.Uses[v] = append(g.Uses[v], u)
}

// recordUses records the reads made by s itself (not by its nested
// statements, which record their own).
func (g *Graph) recordUses(s ir.Stmt) {
	switch s := s.(type) {
	case *ir.SOAC:
		for _, v := range s.Inputs() {
			g.addUse(v, Use{s, ArrayFlow, s.Pos()})
		}
		// A SOAC whose lambda may run code that is not known pure reads
		// the current value of each escaped variable and defines its next
		// (the builder's threading of escaped variables): the variable
		// keeps its value there, so whoever computed it must store it.
		for _, v := range s.Eff.Uses {
			for _, d := range s.Eff.Defs {
				if d != s.Out && v.Obj != nil && d.Obj == v.Obj {
					g.addUse(v, Use{s, OtherUse, s.Pos()})
				}
			}
		}
		for _, o := range s.Operands() {
			for _, v := range o.Uses {
				g.addUse(v, Use{s, ScalarFlow, operandPos(o, s)})
			}
			if o.Len != nil {
				g.addUse(o.Len, Use{s, ScalarFlow, operandPos(o, s)})
			}
		}
		for _, l := range s.Lambdas() {
			// A lambda with a body records the reads of its body on the
			// nested statements; a Free variable that none of them reads
			// (or a lambda without a body: a function value, a method
			// value's receiver) is read by the SOAC itself.
			nested := map[*ir.Var]bool{}
			if l.Body != nil {
				for _, v := range nestedUses(l.Body) {
					nested[v] = true
				}
			}
			for _, v := range l.Free {
				if !nested[v] {
					g.addUse(v, Use{s, ScalarFlow, lambdaPos(l, s)})
				}
			}
		}
	case *ir.Plain:
		for _, v := range s.Eff.Uses {
			g.addUse(v, Use{s, OtherUse, s.Pos()})
		}
		for _, v := range s.Eff.Writes {
			g.addUse(v, Use{s, OtherUse, s.Pos()})
		}
	default:
		// A compound statement reads directly what its nested statements do
		// not explain, and whatever its own expressions (condition, tag,
		// range operand) name.
		for _, v := range directUses(s) {
			g.addUse(v, Use{s, OtherUse, s.Pos()})
		}
	}
}

// flowUses records the reads of the values that leave a compound
// statement (ir.Effects.Flows: a branch's value of a variable, the value
// a path through it leaves unchanged, a loop body's value for the next
// iteration), read by the statement where it ends: a kernel computing
// one must store it. A flow counts only while the Var the statement
// defines for its variable (after it, or at a loop's entry) is read, so
// that a value nobody reads after the statement is not materialised for
// it; merges feed merges, hence the fixed point.
func (g *Graph) flowUses(blocks []*ir.Block) {
	done := map[ir.Stmt]map[*ir.Var]bool{}
	for changed := true; changed; {
		changed = false
		for _, b := range blocks {
			for _, s := range b.Stmts {
				for _, v := range s.Effects().Flows {
					if done[s][v] || !g.definesRead(s, v) {
						continue
					}
					if done[s] == nil {
						done[s] = map[*ir.Var]bool{}
					}
					done[s][v] = true
					g.addUse(v, Use{s, OtherUse, s.Pos()})
					changed = true
				}
			}
		}
	}
}

// definesRead reports whether s defines a Var of v's Go variable that
// something reads.
func (g *Graph) definesRead(s ir.Stmt, v *ir.Var) bool {
	for _, d := range s.Effects().Defs {
		if d.Obj != nil && d.Obj == v.Obj && len(g.Uses[d]) > 0 {
			return true
		}
	}
	return false
}

// directUses returns the Vars a compound statement reads itself: those of
// its effects that no nested statement explains, and those its own
// expressions (condition, tag, range operand) name.
func directUses(s ir.Stmt) []*ir.Var {
	nested := map[*ir.Var]bool{}
	for _, b := range ir.Children(s) {
		for _, v := range nestedUses(b) {
			nested[v] = true
		}
	}
	own := ownIdents(s)
	var vs []*ir.Var
	for _, v := range s.Effects().Uses {
		if !nested[v] || own[v.Name] {
			vs = append(vs, v)
		}
	}
	return vs
}

// nestedUses returns every Var read by a statement of b or of its nested
// blocks.
func nestedUses(b *ir.Block) []*ir.Var {
	var vs []*ir.Var
	ir.Walk(b, func(s ir.Stmt) bool {
		vs = append(vs, s.Effects().Uses...)
		if soac, ok := s.(*ir.SOAC); ok {
			vs = append(vs, soac.Inputs()...)
			for _, l := range soac.Lambdas() {
				vs = append(vs, l.Free...)
			}
			for _, o := range soac.Operands() {
				vs = append(vs, o.Uses...)
			}
		}
		return true
	})
	return vs
}

// ownIdents returns the identifiers named by the expressions a compound
// statement evaluates itself (not by its nested blocks).
func ownIdents(s ir.Stmt) map[string]bool {
	var exprs []ast.Node
	switch s := s.(type) {
	case *ir.If:
		if s.Node != nil {
			exprs = append(exprs, s.Node.Cond)
		}
	case *ir.Switch:
		switch n := s.Node.(type) {
		case *ast.SwitchStmt:
			if n.Tag != nil {
				exprs = append(exprs, n.Tag)
			}
			if n.Body != nil {
				for _, c := range n.Body.List {
					if cc, ok := c.(*ast.CaseClause); ok {
						for _, e := range cc.List {
							exprs = append(exprs, e)
						}
					}
				}
			}
		case *ast.TypeSwitchStmt:
			exprs = append(exprs, n.Assign)
		}
	case *ir.Loop:
		switch n := s.Node.(type) {
		case *ast.ForStmt:
			if n.Cond != nil {
				exprs = append(exprs, n.Cond)
			}
			if n.Post != nil {
				exprs = append(exprs, n.Post)
			}
		case *ast.RangeStmt:
			exprs = append(exprs, n.X)
		}
	}
	names := map[string]bool{}
	for _, e := range exprs {
		if e == nil {
			continue
		}
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				names[id.Name] = true
			}
			return true
		})
	}
	return names
}

func operandPos(o *ir.Operand, s *ir.SOAC) token.Pos {
	if o.Expr != nil && o.Expr.Pos().IsValid() {
		return o.Expr.Pos()
	}
	return s.Pos()
}

func lambdaPos(l *ir.Lambda, s *ir.SOAC) token.Pos {
	if l.Expr != nil && l.Expr.Pos().IsValid() {
		return l.Expr.Pos()
	}
	return s.Pos()
}

// AncestorIn returns the statement of block b that is s or contains s, or
// nil when s is not inside b.
func AncestorIn(s ir.Stmt, b *ir.Block) ir.Stmt {
	for s != nil {
		if s.Block() == b {
			return s
		}
		pb := s.Block()
		if pb == nil || pb.Parent == nil {
			return nil
		}
		s = pb.Parent
	}
	return nil
}

// flowEdges turns the recorded uses into edges between the statements of
// the innermost block that holds both the definition and the use.
func (g *Graph) flowEdges() {
	vars := make([]*ir.Var, 0, len(g.Uses))
	for v := range g.Uses {
		vars = append(vars, v)
	}
	sort.Slice(vars, func(i, j int) bool { return vars[i].ID < vars[j].ID })
	for _, v := range vars {
		if v.Def == nil {
			continue
		}
		for _, u := range g.Uses[v] {
			from, to := commonAncestors(v.Def, u.Stmt)
			if from == nil || to == nil || from == to {
				continue
			}
			g.addEdge(&Edge{
				Kind: u.Kind, From: from, To: to, Var: v, Pos: u.Pos,
				Site: u.Stmt, Nested: to != u.Stmt,
			})
		}
	}
}

// commonAncestors returns the ancestors of a and b in the innermost block
// that contains both.
func commonAncestors(a, b ir.Stmt) (ir.Stmt, ir.Stmt) {
	chain := map[*ir.Block]ir.Stmt{}
	for s := a; s != nil; {
		blk := s.Block()
		if blk == nil {
			break
		}
		chain[blk] = s
		s = blk.Parent
	}
	for s := b; s != nil; {
		blk := s.Block()
		if blk == nil {
			break
		}
		if x, ok := chain[blk]; ok {
			return x, s
		}
		s = blk.Parent
	}
	return nil, nil
}

func (g *Graph) addEdge(e *Edge) {
	if e.From == nil || e.To == nil {
		return
	}
	if g.index[e.From] > g.index[e.To] {
		// A use before the definition in one block can only be a loop's
		// back edge seen through a nested block; order it forward.
		e.From, e.To = e.To, e.From
	}
	for _, old := range g.Out[e.From] {
		if old.To == e.To && old.Kind == e.Kind && old.Var == e.Var {
			return
		}
	}
	g.Out[e.From] = append(g.Out[e.From], e)
	g.In[e.To] = append(g.In[e.To], e)
	g.edges = append(g.edges, e)
}

// hazardEdges adds a Hazard edge between every two statements of b that
// do not commute (legal.go's conflict).
func (g *Graph) hazardEdges(b *ir.Block, p posFmt) {
	for i, x := range b.Stmts {
		for _, s := range b.Stmts[i+1:] {
			if r := conflict(g.Fn, p, x, s); r != nil {
				g.addEdge(&Edge{Kind: Hazard, From: x, To: s, Var: r.Var, Pos: r.Pos, Site: s, Rule: r.Rule, Reason: r.Reason})
			}
		}
	}
}

// Path reports whether b is reachable from a along edges (a direct edge is
// a path).
func (g *Graph) Path(a, b ir.Stmt) bool {
	seen := map[ir.Stmt]bool{}
	var walk func(s ir.Stmt) bool
	walk = func(s ir.Stmt) bool {
		if s == b {
			return true
		}
		if seen[s] {
			return false
		}
		seen[s] = true
		for _, e := range g.Out[s] {
			if walk(e.To) {
				return true
			}
		}
		return false
	}
	return walk(a)
}
