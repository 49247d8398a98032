package opencl

// This file is the analysis of the arrays uploaded once per call
// (analyseUnwritten, once per spec; its answers kept per Var): which
// inputs and captured slices of a kernel are uploaded once per call of
// the generated function
// (runtime/opencl/launch's unwritten.go runs them): a kernel in a loop
// of the spec reads an array that is the same in every round and that
// no statement of the spec writes, so every round's run may read the
// first round's upload. The points of
// k-means are the example: every round's stream reduction reads them,
// and nothing writes them.

import (
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/clc"
)

// unwrittenVars answers, for the Vars of one spec, whether each is the
// same unwritten array for the whole call (unwrittenOnce), each answer
// computed once.
type unwrittenVars struct {
	fn   *ir.Function
	once map[*ir.Var]bool
}

// analyseUnwritten returns the analysis of fn's arrays uploaded once per
// call.
func analyseUnwritten(fn *ir.Function) *unwrittenVars {
	return &unwrittenVars{fn: fn, once: map[*ir.Var]bool{}}
}

// unwrittenOnce reports whether v is defined once per call (a
// parameter, or a variable defined outside every loop, closure and
// lambda: definedOnce) and no statement of the spec may write its
// memory (unwrittenIn).
func (u *unwrittenVars) unwrittenOnce(v *ir.Var) bool {
	if ok, done := u.once[v]; done {
		return ok
	}
	ok := definedOnce(u.fn, v) && unwrittenIn(u.fn, v)
	u.once[v] = ok
	return ok
}

// unwritten reports whether input v of ck's kernel may be read from a
// buffer uploaded once per call (launch.Unwritten): the kernel is at the
// top level of the spec (not in a closure or a lambda) inside a loop,
// and v is the same unwritten array for the whole call
// (unwrittenOnce).
func (ck *clKernel) unwritten(v *ir.Var) bool {
	p := ck.lk.Src
	return p.Depth == 0 && p.Block != nil && inLoop(p.Block) && ck.f.once.unwrittenOnce(v)
}

// inLoop reports whether block b is in the body of a loop, with no
// closure or lambda between.
func inLoop(b *ir.Block) bool {
	loop := false
	for ; b != nil && b.Parent != nil; b = b.Parent.Block() {
		switch b.Parent.(type) {
		case *ir.Loop:
			loop = true
		case *ir.Closure, *ir.SOAC:
			return false
		}
	}
	return loop
}

// definedOnce reports whether v's statement runs at most once per call
// and its Go variable is assigned nowhere else: v is a parameter (no
// statement), or its statement is outside every loop, closure and
// lambda of the spec. Its value is then the same slice for the whole
// call. (A loop's body reads a variable it reassigns through the Var
// defined before the loop: a second Var of the variable anywhere
// disqualifies it.)
func definedOnce(fn *ir.Function, v *ir.Var) bool {
	if v.Global {
		return false
	}
	for _, u := range fn.Vars {
		if u != nil && u != v && v.Obj != nil && u.Obj == v.Obj {
			return false
		}
	}
	if v.Def == nil {
		return true
	}
	for b := v.Def.Block(); b != nil && b.Parent != nil; b = b.Parent.Block() {
		switch b.Parent.(type) {
		case *ir.Loop, *ir.Closure, *ir.SOAC:
			return false
		}
	}
	return true
}

// unwrittenIn reports whether no statement of fn (at any depth: loops,
// branches, closures, lambdas) may write v's memory while the call
// runs: none is impure or writes global state (either may reach v
// through memory the analysis does not see), and none writes a Var
// that may alias v, or that may alias a parameter or a package-level
// variable (the caller may pass v's memory through another parameter).
func unwrittenIn(fn *ir.Function, v *ir.Var) bool {
	if v.Global {
		return false
	}
	params := map[any]bool{}
	for _, p := range fn.Params {
		if p.Obj != nil {
			params[p.Obj] = true
		}
	}
	var outer []*ir.Var // Vars the caller's memory may reach
	for _, u := range fn.Vars {
		if u != nil && (u.Global || u.Obj != nil && params[u.Obj] || u == v) {
			outer = append(outer, u)
		}
	}
	ok := true
	ir.Walk(fn.Body, func(s ir.Stmt) bool {
		e := s.Effects()
		if e.WritesGlobal || e.Impure != "" {
			ok = false
		}
		for _, w := range e.Writes {
			if w.Global || fn.Alias.MayAlias(w, v) {
				ok = false
			}
			for _, u := range outer {
				if fn.Alias.MayAlias(w, u) {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}

// unwrittenCapture reports whether captured slice obj of ck's kernel may
// be read from a buffer uploaded once per call (launch.ViewUnwritten):
// as for an input (unwritten), the variable being one Var of the spec.
func (ck *clKernel) unwrittenCapture(obj *types.Var) bool {
	p := ck.lk.Src
	if obj == nil || p.Depth > 0 || p.Block == nil || !inLoop(p.Block) {
		return false
	}
	var v *ir.Var
	for _, u := range ck.f.fn.Func.Vars {
		if u != nil && u.Obj == obj {
			if v != nil {
				return false
			}
			v = u
		}
	}
	return v != nil && ck.f.once.unwrittenOnce(v)
}

// unwrittenCaptures reports whether a captured slice of ck's kernel is
// uploaded once per call (unwrittenCapture).
func (ck *clKernel) unwrittenCaptures() bool {
	for _, a := range ck.args {
		if a.kind == clc.Slice && ck.unwrittenCapture(a.obj) {
			return true
		}
	}
	return false
}
