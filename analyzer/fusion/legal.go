package fusion

// This file holds the legality checks: may a statement move down past
// another, may kernels merge. Every check returns a *Refusal naming the
// rule, the variable and the position, never a bare bool.
//
// It does NOT choose which fusion rule applies (rules.go), nor compute
// iteration spaces (space.go), nor drive the search (driver.go).

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// The stable identifiers of refusals. Each is exercised by a test (see
// TestEveryRuleTested).
const (
	RefWriteBetween      = "write-between"      // memory an input may alias is written between producer and consumer ([T2-fusion] Fig. 9 case 1)
	RefSizeMismatch      = "size-mismatch"      // a Map2/Map3 zips a filtered array with its unfiltered source (case 2)
	RefSizeUnknown       = "size-unknown"       // iteration spaces not known to be equal (two filters zipped, unrelated lengths)
	RefLoopBoundary      = "loop-boundary"      // producer outside a loop, closure or lambda, consumer inside (case 3)
	RefConsumedTwice     = "consumed-twice"     // consumers in two kernels on one execution path that cannot merge (cases 4, 6)
	RefUsedBefore        = "used-before"        // the output is used other than as a SOAC input before the kernel runs (case 5)
	RefCaptureReassigned = "capture-reassigned" // a lambda's captured variable is reassigned before the kernel runs
	RefInputReassigned   = "input-reassigned"   // an input or operand variable is reassigned before the kernel runs
	RefOutputReassigned  = "output-reassigned"  // the Go variable a member assigns is assigned again before the kernel runs (arises when merging kernels; reported inside a consumed-twice note)
	RefControlExit       = "control-exit"       // a possible return, break or panic between producer and kernel
	RefImpure            = "impure"             // a lambda or statement with side effects
	RefNotEveryPath      = "not-every-path"     // sinking into branches would skip the producer on some path
	RefNoRule            = "no-rule"            // no rule of the table fuses these forms
	RefPanicOrder        = "panic-order"        // fusing would change which panic happens first, or let an effect happen before a panic
	RefKernelOrder       = "kernel-order"       // with the other kernels where they run, this kernel would need one of them first and be needed by it (order.go)
)

// Refusals lists every refusal identifier a Note may carry.
// RefOutputReassigned only arises inside the reason of a consumed-twice
// note (a merge of consumer kernels refused); RefClustering and RefBudget
// only under the ilp and wsp methods (cluster.go).
func Refusals() []string {
	return []string{RefWriteBetween, RefSizeMismatch, RefSizeUnknown, RefLoopBoundary,
		RefConsumedTwice, RefUsedBefore, RefCaptureReassigned, RefInputReassigned,
		RefControlExit, RefImpure, RefNotEveryPath, RefNoRule, RefPanicOrder, RefKernelOrder, RefClustering, RefBudget}
}

// Refusal is the reason a fusion was not made.
type Refusal struct {
	Rule   string
	Reason string
	Var    *ir.Var   // the variable the reason is about
	Pos    token.Pos // the hazard, use or consumer
	// Consumer is the SOAC the producer was not fused into, when one.
	Consumer *ir.SOAC
}

func (r *Refusal) Error() string { return r.Rule + ": " + r.Reason }

// posFmt renders positions as file:line:col with the file's base name, so
// that reasons and dumps do not depend on where the sources lie.
type posFmt struct{ fset *token.FileSet }

func (p posFmt) at(pos token.Pos) string {
	if p.fset == nil || !pos.IsValid() {
		return fmt.Sprintf("pos %d", pos)
	}
	pp := p.fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(pp.Filename), pp.Line, pp.Column)
}

// soacName returns "Map@file:line:col".
func (p posFmt) soac(s *ir.SOAC) string { return s.Name + "@" + p.at(s.Pos()) }

// stmtName describes a statement for a reason.
func (p posFmt) stmt(s ir.Stmt) string {
	switch s := s.(type) {
	case *ir.SOAC:
		return p.soac(s)
	case *ir.If:
		return "the if at " + p.at(s.Pos())
	case *ir.Switch:
		return "the switch at " + p.at(s.Pos())
	case *ir.Loop:
		return "the loop at " + p.at(s.Pos())
	case *ir.Closure:
		return "the closure at " + p.at(s.Pos())
	}
	return "the statement at " + p.at(s.Pos())
}

// soacImpure returns the first impure lambda of s, or nil.
func soacImpure(s *ir.SOAC) *ir.Lambda {
	for _, l := range s.Lambdas() {
		if !l.Purity.Pure {
			return l
		}
	}
	return nil
}

// impureReason says why statement s has side effects, or "" if it has none.
func impureReason(p posFmt, s ir.Stmt) (string, token.Pos) {
	if soac, ok := s.(*ir.SOAC); ok {
		if l := soacImpure(soac); l != nil {
			why := l.Purity.Reason
			if why == "" {
				why = "has side effects"
			}
			pos := l.Purity.Pos
			if !pos.IsValid() {
				pos = soac.Pos()
			}
			return fmt.Sprintf("the lambda of %s %s", p.soac(soac), why), pos
		}
	}
	e := s.Effects()
	if e.Impure != "" {
		pos := e.ImpurePos
		if !pos.IsValid() {
			pos = s.Pos()
		}
		return fmt.Sprintf("%s %s", p.stmt(s), e.Impure), pos
	}
	return "", token.NoPos
}

// reads describes what a statement reads, split by how a reassignment of
// the Go variable would be named.
type reads struct {
	inputs   []*ir.Var // input arrays, operands, plain uses
	captured []*ir.Var // lambdas' free variables
	// lambdaGlobal reports whether some lambda may read memory reachable
	// from package-level variables (it calls functions, or is not a literal).
	lambdaGlobal bool
}

func readsOf(info *types.Info, s ir.Stmt) reads {
	var r reads
	soac, ok := s.(*ir.SOAC)
	if !ok {
		r.inputs = append(r.inputs, s.Effects().Uses...)
		return r
	}
	r.inputs = append(r.inputs, soac.Inputs()...)
	for _, o := range soac.Operands() {
		r.inputs = append(r.inputs, o.Uses...)
		if o.Len != nil {
			r.inputs = append(r.inputs, o.Len)
		}
	}
	for _, l := range soac.Lambdas() {
		r.captured = append(r.captured, l.Free...)
		if lambdaMayReadGlobal(info, l) {
			r.lambdaGlobal = true
		}
	}
	// Nested statements of lambda bodies read what their Free lists say;
	// anything else the SOAC's effects record is an input.
	seen := map[*ir.Var]bool{}
	for _, v := range r.inputs {
		seen[v] = true
	}
	for _, v := range r.captured {
		seen[v] = true
	}
	for _, v := range soac.Eff.Uses {
		if !seen[v] {
			r.inputs = append(r.inputs, v)
		}
	}
	return r
}

// builtinCalls are the predeclared functions and types (see predeclared)
// whose calls read no memory but their arguments: builtins and
// conversions to basic types.
var builtinCalls = map[string]bool{
	"len": true, "cap": true, "min": true, "max": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"float32": true, "float64": true, "byte": true, "rune": true, "string": true, "bool": true,
	"complex": true, "real": true, "imag": true, "make": true, "new": true, "append": true,
}

// lambdaMayReadGlobal reports whether calling l may read memory reachable
// from package-level variables: a function that is not a literal, a literal
// capturing a global, or a literal calling any function but a builtin (a
// user's function named len is a function like any other).
func lambdaMayReadGlobal(info *types.Info, l *ir.Lambda) bool {
	if l.Lit == nil {
		return true
	}
	for _, v := range l.Free {
		if v.Global {
			return true
		}
	}
	found := false
	ast.Inspect(l.Lit.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if !builtinCalls[predeclared(info, c.Fun)] {
				found = true
			}
		}
		return !found
	})
	return found
}

// predeclared returns the name of the predeclared function or type (len,
// min, int, ...) that the expression fun denotes, or "" when it denotes
// anything else, such as a user's object of the same name, or when there
// is no type information.
func predeclared(info *types.Info, fun ast.Expr) string {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok || info == nil {
		return ""
	}
	switch obj := info.Uses[id].(type) {
	case *types.Builtin, *types.TypeName:
		if obj.Parent() == types.Universe {
			return obj.Name()
		}
	}
	return ""
}

// globalReachable reports whether memory of v may be reachable from
// package-level variables or escaped values: a global, a parameter or free
// variable of the function, or anything that may alias one.
func globalReachable(fn *ir.Function, v *ir.Var) bool {
	if v.Global || v.Def == nil {
		return true
	}
	for _, w := range fn.Vars {
		if w != nil && (w.Global || w.Def == nil) && fn.Alias.MayAlias(v, w) {
			return true
		}
	}
	return false
}

// mayAlias reports whether a write through w may change memory v refers
// to: they are in one alias class, or both may point into memory the
// caller provided (two parameters can be the same slice: F(s, s)).
func mayAlias(fn *ir.Function, w, v *ir.Var) bool {
	if fn.Alias.MayAlias(w, v) {
		return true
	}
	return holdsRefs(v.Type) && holdsRefs(w.Type) && globalReachable(fn, w) && globalReachable(fn, v)
}

// holdsRefs reports whether a value of type t may refer to memory a write
// elsewhere could change: slices, pointers, maps, channels, interfaces,
// functions, and structs or arrays holding them. A nil type counts.
func holdsRefs(t types.Type) bool {
	if t == nil {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsRefs(u.Field(i).Type()) {
				return true
			}
		}
		return false
	case *types.Array:
		return holdsRefs(u.Elem())
	case *types.TypeParam:
		return true
	}
	return true
}

func usesVar(info *types.Info, s ir.Stmt, v *ir.Var) bool {
	for _, u := range s.Effects().Uses {
		if u == v {
			return true
		}
	}
	for _, u := range s.Effects().Writes {
		if u == v {
			return true
		}
	}
	if soac, ok := s.(*ir.SOAC); ok {
		r := readsOf(info, soac)
		for _, u := range append(r.inputs, r.captured...) {
			if u == v {
				return true
			}
		}
	}
	return false
}

// conflict reports why statement x (earlier in its block) cannot move down
// past statement s (later in the same block), or nil when they commute.
//
// They do not commute when: s uses what x defines; s defines a Go variable
// x reads (by types.Object) or assigns; one writes memory the other may
// read (by alias class, or through package-level state); s may exit; or
// either has side effects.
func conflict(fn *ir.Function, p posFmt, x, s ir.Stmt) *Refusal {
	r, _ := conflictCopying(fn, p, x, s, false)
	return r
}

// conflictCopying is conflict, except that when copying is set a
// variable captured by a function literal of SOAC x and reassigned by s
// is no hazard: x's lambdas read a copy taken at x's own position
// (Kernel.Copies). It returns those variables.
func conflictCopying(fn *ir.Function, p posFmt, x, s ir.Stmt, copying bool) (*Refusal, []*ir.Var) {
	var copies []*ir.Var
	r := conflictWith(fn, p, x, s, func(v *ir.Var) bool {
		if !copying || !copyable(x, v) {
			return false
		}
		if !slices.Contains(copies, v) {
			copies = append(copies, v)
		}
		return true
	})
	if r != nil {
		return r, nil
	}
	return nil, copies
}

// copyable reports whether x's reads of captured variable v can be
// redirected to a copy of v taken at x: v is captured only by function
// literals of x (their identifiers can be renamed), not as a function
// value or method receiver, which are evaluated at x anyway.
func copyable(x ir.Stmt, v *ir.Var) bool {
	soac, ok := x.(*ir.SOAC)
	if !ok || v.Obj == nil {
		return false
	}
	for _, l := range soac.Lambdas() {
		if slices.Contains(l.Free, v) && (l.Kind != ir.FuncLit || l.Lit == nil) {
			return false
		}
	}
	return !holdsLock(v.Obj.Type(), 0)
}

// holdsLock reports whether copying a value of type t copies a lock (a
// value whose pointer has Lock and Unlock methods, as go vet's copylocks
// check defines it), directly or in a field or array element: such a
// value is never copied.
func holdsLock(t types.Type, depth int) bool {
	if depth > 8 {
		return true
	}
	if _, ok := t.Underlying().(*types.Interface); !ok {
		ms := types.NewMethodSet(types.NewPointer(t))
		if ms.Lookup(nil, "Lock") != nil && ms.Lookup(nil, "Unlock") != nil {
			return true
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			if holdsLock(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	case *types.Array:
		return holdsLock(u.Elem(), depth+1)
	}
	return false
}

// conflictWith is conflict, where copied(v) reports that a reassignment
// of captured variable v by s is not a hazard.
func conflictWith(fn *ir.Function, p posFmt, x, s ir.Stmt, copied func(*ir.Var) bool) *Refusal {
	if why, pos := impureReason(p, x); why != "" {
		return &Refusal{Rule: RefImpure, Reason: why + ": it is never reordered", Pos: pos}
	}
	xe, se := x.Effects(), s.Effects()
	for _, d := range xe.Defs {
		if usesVar(fn.Info, s, d) {
			return &Refusal{Rule: RefUsedBefore, Var: d, Pos: s.Pos(),
				Reason: fmt.Sprintf("%s is used by %s before the kernel runs", d.Name, p.stmt(s))}
		}
	}
	r := readsOf(fn.Info, x)
	for _, d := range se.Defs {
		if d.Obj == nil {
			continue
		}
		for _, v := range r.captured {
			if v.Obj == d.Obj && !copied(v) {
				return &Refusal{Rule: RefCaptureReassigned, Var: v, Pos: s.Pos(),
					Reason: fmt.Sprintf("%s, captured by the lambda of %s, is reassigned at %s before the kernel runs", v.Name, p.stmt(x), p.at(s.Pos()))}
			}
		}
		for _, v := range r.inputs {
			if v.Obj == d.Obj {
				return &Refusal{Rule: RefInputReassigned, Var: v, Pos: s.Pos(),
					Reason: fmt.Sprintf("%s, read by %s, is reassigned at %s before the kernel runs", v.Name, p.stmt(x), p.at(s.Pos()))}
			}
		}
		for _, v := range xe.Defs {
			if v.Obj == d.Obj {
				return &Refusal{Rule: RefOutputReassigned, Var: v, Pos: s.Pos(),
					Reason: fmt.Sprintf("%s, assigned by %s, is assigned again at %s before the kernel runs", v.Name, p.stmt(x), p.at(s.Pos()))}
			}
		}
	}
	all := append(append([]*ir.Var{}, r.inputs...), r.captured...)
	for _, w := range se.Writes {
		for _, v := range all {
			if mayAlias(fn, w, v) {
				return &Refusal{Rule: RefWriteBetween, Var: v, Pos: s.Pos(),
					Reason: fmt.Sprintf("%s, read by %s, may be written through %s at %s before the kernel runs", v.Name, p.stmt(x), w.Name, p.at(s.Pos()))}
			}
		}
	}
	sr := readsOf(fn.Info, s)
	sall := append(append([]*ir.Var{}, sr.inputs...), sr.captured...)
	for _, w := range xe.Writes {
		for _, v := range append(sall, se.Writes...) {
			if mayAlias(fn, w, v) {
				return &Refusal{Rule: RefWriteBetween, Var: v, Pos: s.Pos(),
					Reason: fmt.Sprintf("%s writes %s, which %s at %s reads or writes", p.stmt(x), w.Name, p.stmt(s), p.at(s.Pos()))}
			}
		}
	}
	if se.WritesGlobal {
		if r.lambdaGlobal {
			return &Refusal{Rule: RefWriteBetween, Pos: s.Pos(),
				Reason: fmt.Sprintf("%s may write package-level state at %s that the lambda of %s may read", p.stmt(s), p.at(s.Pos()), p.stmt(x))}
		}
		for _, v := range all {
			if globalReachable(fn, v) {
				return &Refusal{Rule: RefWriteBetween, Var: v, Pos: s.Pos(),
					Reason: fmt.Sprintf("%s, read by %s, may be written by %s at %s, which writes memory reachable from outside the function", v.Name, p.stmt(x), p.stmt(s), p.at(s.Pos()))}
			}
		}
	}
	if xe.WritesGlobal {
		for _, v := range sall {
			if globalReachable(fn, v) {
				return &Refusal{Rule: RefWriteBetween, Var: v, Pos: s.Pos(),
					Reason: fmt.Sprintf("%s may write %s, read by %s at %s", p.stmt(x), v.Name, p.stmt(s), p.at(s.Pos()))}
			}
		}
	}
	if why, pos := impureReason(p, s); why != "" {
		return &Refusal{Rule: RefImpure, Reason: why + ": nothing moves past it", Pos: pos}
	}
	if se.Exits {
		return &Refusal{Rule: RefControlExit, Pos: s.Pos(),
			Reason: fmt.Sprintf("%s may return, break or panic: moving %s past it would skip or reorder its evaluation", p.stmt(s), p.stmt(x))}
	}
	if soac, ok := x.(*ir.SOAC); ok {
		if why := soacMayPanic(fn.Info, soac); why != "" {
			if what := observableEffect(fn, s); what != "" && !samePanic(fn, soac, s) {
				return &Refusal{Rule: RefPanicOrder, Pos: s.Pos(),
					Reason: fmt.Sprintf("%s may panic (%s) and %s %s: moved past it, the panic would come after that instead of before", p.stmt(x), why, p.stmt(s), what)}
			}
		}
	}
	return nil
}

// moveDown reports why x cannot move down from its position to the
// position of stmt `to` in the same block, past every statement in between
// that is not in skip (the members of the kernel it joins); nil if it can.
// The statement `to` itself is included unless it is in skip.
//
// When copies is not nil, the variables captured by x's function literals
// and reassigned on the way are no hazard: they are appended to *copies,
// for x to read copies of them taken at its own position.
func moveDown(fn *ir.Function, g *Graph, p posFmt, x ir.Stmt, to ir.Stmt, skip func(ir.Stmt) bool, copies *[]*ir.Var) *Refusal {
	b := x.Block()
	from, until := g.Index(x), g.Index(to)
	if to.Block() != b {
		return &Refusal{Rule: RefLoopBoundary, Pos: to.Pos(),
			Reason: fmt.Sprintf("%s and %s are in different blocks", p.stmt(x), p.stmt(to))}
	}
	for i := from + 1; i <= until && i < len(b.Stmts); i++ {
		s := b.Stmts[i]
		if skip != nil && skip(s) {
			continue
		}
		r, cs := conflictCopying(fn, p, x, s, copies != nil)
		if r != nil {
			return r
		}
		addCopies(copies, cs)
	}
	return nil
}

// addCopies appends the variables of cs that *copies lacks.
func addCopies(copies *[]*ir.Var, cs []*ir.Var) {
	for _, v := range cs {
		if !slices.Contains(*copies, v) {
			*copies = append(*copies, v)
		}
	}
}

// ownEffects returns the effects of an if or switch that no nested
// statement explains: those of its own expressions (condition, tag, case
// expressions), which the builder recorded in Own, the Vars it defines
// itself (merges after its blocks, type switch and select bindings), and
// the Vars it reads itself.
func ownEffects(s ir.Stmt) *ir.Effects {
	var own ir.Effects
	switch s := s.(type) {
	case *ir.If:
		own = s.Own
	case *ir.Switch:
		own = s.Own
	}
	nestedDefs := map[*ir.Var]bool{}
	for _, b := range ir.Children(s) {
		ir.Walk(b, func(n ir.Stmt) bool {
			for _, v := range n.Effects().Defs {
				nestedDefs[v] = true
			}
			return true
		})
	}
	own.Defs = nil
	for _, v := range s.Effects().Defs {
		if !nestedDefs[v] {
			own.Defs = append(own.Defs, v)
		}
	}
	own.Uses = directUses(s)
	return &own
}

// ownStmt is a view of a compound statement restricted to its own effects,
// used to check a move into one of its branches past its condition.
type ownStmt struct {
	ir.Stmt
	eff *ir.Effects
}

func (o ownStmt) Effects() *ir.Effects { return o.eff }
