package opencl

// This file is the device-residency analysis of a spec (analyseResidency,
// run once per spec by Begin; its queries keepable and shareable answer
// for one kernel): which arrays of a spec stay on the device between
// its kernels (runtime/opencl/launch's resident.go runs them). An output
// of a map-reduce, scan or filter kernel, a stream reduction's row
// (stream.go) or a grid's result (gridkept.go) stays there
// when nothing but later top-level kernels of the same block read it,
// each as one of its inputs or only through its lambdas' captures
// (captured.go), and its value leaves no loop or branch through
// its Go variable for code that reads it (readFlows), and no closure or
// pointer reaches that variable (goVarHidden): then
// no statement of the spec reads its Go variable, and the code of each
// reader either runs on the device on the buffer (launch.Dev) or
// downloads it first (the handle's Host, in a device kernel's fallback
// and, through the spec's HostInputs, before a kernel another backend
// generates). Every other array takes the way it takes without this:
// uploaded by each kernel that reads it, downloaded by the one that
// writes it.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// residency holds the facts about a whole spec that the residency
// queries (keepable, shareable) read, computed once.
type residency struct {
	fn *lowered.Function
	// flows are the values that leave a statement through their Go
	// variable for code that reads them (readFlows).
	flows map[ir.Stmt]map[*ir.Var]bool
	// hidden are the Go variables code the IR does not place may read
	// or assign (hiddenVars); allHidden says that every one may (no type
	// information).
	hidden    map[types.Object]bool
	allHidden bool
	// kernelOf is the top-level plan kernel of each SOAC that is a
	// member of one.
	kernelOf map[*ir.SOAC]*lowered.PlanKernel
}

// analyseResidency computes the facts of fn's residency queries.
func analyseResidency(fn *lowered.Function) *residency {
	r := &residency{fn: fn, flows: readFlows(fn.Func), kernelOf: map[*ir.SOAC]*lowered.PlanKernel{}}
	r.hidden, r.allHidden = hiddenVars(fn.Func)
	for _, lk := range fn.Kernels {
		if k := lk.Src; k.Depth == 0 {
			for _, m := range k.SOACs {
				r.kernelOf[m] = k
			}
		}
	}
	return r
}

// goVarHidden reports whether v's Go variable may be read or assigned
// where no statement of the spec's IR says (hiddenVars); a temporary
// (no Go variable) never is.
func (r *residency) goVarHidden(v *ir.Var) bool {
	return v.Obj != nil && (r.allHidden || r.hidden[v.Obj])
}

// placeable reports whether an array of lk's may stay on the device
// from lk on: lk has no rerun guard (whose closure would hide the device
// copy's variable) and no placed members, runs at the top level of the
// spec with no closure around it, and no closure or pointer reaches v's
// Go variable.
func (r *residency) placeable(lk *lowered.Kernel, v *ir.Var) bool {
	p := lk.Src
	if lk.Rerun || len(lk.Later) > 0 || p.Depth > 0 || p.Block == nil || r.goVarHidden(v) {
		return false
	}
	for b := p.Block; b.Parent != nil; b = b.Parent.Block() {
		if _, ok := b.Parent.(*ir.Closure); ok {
			return false
		}
	}
	return true
}

// keepable returns the last kernel that reads output v of kernel lk
// when v may stay on the device after it, else nil: the kernel (a
// map-reduce, a scan, a filter's, v its kept elements, a stream
// reduction's, v its row, or a grid's) is at the top
// level of the spec (no closure around it, no
// placed members, no rerun guard, whose closure would hide the device
// copy's variable), and every statement that reads or writes v is a
// member of it or of a later top-level kernel of its block that takes
// v as one of its inputs (not in a lambda, an operand or a capture) or
// reads it only as its lambdas' capture (no input, no operand, no other
// variable of v's Go variable captured in the kernel), none of them
// placed and no two at one statement. A compound statement that v's
// value leaves through its Go variable (readFlows: a loop's next round
// or the code after it, the code after a branch) reads it there, so
// it is not kept; nor is v when code the IR does not place may read
// its Go variable (goVarHidden: a closure's capture, its address).
func (r *residency) keepable(lk *lowered.Kernel, v *ir.Var) *lowered.PlanKernel {
	p := lk.Src
	if !r.placeable(lk, v) {
		return nil
	}
	at := func(k *lowered.PlanKernel) int { return slices.Index(p.Block.Stmts, k.At) }
	pAt := at(p)
	var last *lowered.PlanKernel
	lastAt := -1
	ok := pAt >= 0
	ir.Walk(r.fn.Func.Body, func(s ir.Stmt) bool {
		if !ok {
			return false
		}
		e := s.Effects()
		if !slices.Contains(e.Uses, v) && !slices.Contains(e.Writes, v) && !r.flows[s][v] {
			return true
		}
		m, isSOAC := s.(*ir.SOAC)
		k := r.kernelOf[m]
		if !isSOAC || k == nil || s.Block() != p.Block || slices.Contains(e.Writes, v) {
			ok = false
			return false
		}
		if k == p {
			return true // a member of the kernel itself reads it (map-out)
		}
		i := at(k)
		if i == lastAt && k != last {
			// Two readers at one statement: which runs last is not
			// known here, so neither may release the array.
			ok = false
			return false
		}
		asInput := slices.Contains(k.Inputs, v) && slices.Contains(m.Inputs(), v) && !readsBesides(m, v)
		// Or captured by its lambdas (captured.go): a slice read
		// at indices, never written (the SOAC's effects would say so),
		// and no other variable of the Go variable captured beside it.
		asCapture := !slices.Contains(k.Inputs, v) && readsOnlyCaptured(m, v) && capturesOne(k, v)
		if k.Block != p.Block || i <= pAt || !(asInput || asCapture) || len(r.fn.Of[k].Later) > 0 {
			ok = false
			return false
		}
		if i > lastAt {
			last, lastAt = k, i
		}
		// A capture's reads in the lambdas' bodies are the SOAC's.
		return !asCapture
	})
	if !ok {
		return nil
	}
	return last
}

// readsBesides reports whether SOAC m reads v other than as an input:
// in an operand, a lambda's captures or a method value's receiver.
func readsBesides(m *ir.SOAC, v *ir.Var) bool {
	for _, l := range m.Lambdas() {
		if slices.Contains(l.Free, v) {
			return true
		}
	}
	return readsOperand(m, v)
}

// readsOperand reports whether SOAC m reads v in an operand or a method
// value's receiver.
func readsOperand(m *ir.SOAC, v *ir.Var) bool {
	var ops []*ir.Operand
	switch op := m.Op.(type) {
	case *ir.Screma:
		if op.Scan != nil {
			ops = append(ops, op.Scan.Neutral)
		}
		if op.Reduce != nil {
			ops = append(ops, op.Reduce.Neutral)
		}
	case *ir.Iota:
		ops = append(ops, op.N)
	case *ir.Replicate:
		ops = append(ops, op.N, op.Value)
	}
	for _, l := range m.Lambdas() {
		ops = append(ops, l.Recv)
	}
	for _, o := range ops {
		if o != nil && (slices.Contains(o.Uses, v) || o.Len == v) {
			return true
		}
	}
	return false
}

// shareable returns the last of the later top-level kernels of lk's
// block that read input v, when they may read the buffer lk's code
// uploads: lk has no rerun guard (whose closure would hide the handle)
// and no placed members, no closure or pointer may change v's Go
// variable unseen (goVarHidden), and nothing from lk to
// that one (the statements of the block between them and the members
// of the kernels that run there) writes memory or has an effect, so v's
// elements stay what was uploaded. Else nil.
func (r *residency) shareable(lk *lowered.Kernel, v *ir.Var) *lowered.PlanKernel {
	p := lk.Src
	if !r.placeable(lk, v) {
		return nil
	}
	stmts := p.Block.Stmts
	pAt := slices.Index(stmts, p.At)
	if pAt < 0 {
		return nil
	}
	quiet := func(s ir.Stmt) bool {
		e := s.Effects()
		return len(e.Writes) == 0 && !e.WritesGlobal && e.Impure == ""
	}
	var last *lowered.PlanKernel
	for _, s := range stmts[pAt+1:] {
		var at []*lowered.PlanKernel
		for _, lk := range r.fn.Kernels {
			if k := lk.Src; k.Depth == 0 && k.At == s {
				at = append(at, k)
			}
		}
		if !quiet(s) {
			return last
		}
		for _, k := range at {
			for _, m := range k.SOACs {
				if !quiet(m) {
					return last
				}
			}
		}
		for _, k := range at {
			if k.Block == p.Block && slices.Contains(k.Inputs, v) && len(r.fn.Of[k].Later) == 0 {
				last = k
			}
		}
	}
	return last
}

// readFlows returns, for each statement of fn, the Vars among its Flows
// (ir.Effects.Flows: the value a branch or a path through it leaves in a
// variable, a loop body's value for the next round and after the loop)
// whose values something reads after it: the statement defines a Var of
// the same Go variable (after itself, or at a loop's entry) that a
// statement uses, or that flows out of an enclosing statement whose Var
// is read in turn (the fixed point). Each is read from the Go variable
// where the statement ends, so it must be there; one nobody reads may
// stay on the device.
func readFlows(fn *ir.Function) map[ir.Stmt]map[*ir.Var]bool {
	read := map[*ir.Var]bool{}
	var merging []ir.Stmt
	ir.Walk(fn.Body, func(s ir.Stmt) bool {
		e := s.Effects()
		for _, u := range e.Uses {
			read[u] = true
		}
		if len(e.Flows) > 0 {
			merging = append(merging, s)
		}
		return true
	})
	out := map[ir.Stmt]map[*ir.Var]bool{}
	for changed := true; changed; {
		changed = false
		for _, s := range merging {
			e := s.Effects()
			for _, v := range e.Flows {
				if out[s][v] || !definesRead(e, v, read) {
					continue
				}
				if out[s] == nil {
					out[s] = map[*ir.Var]bool{}
				}
				out[s][v] = true
				read[v] = true
				changed = true
			}
		}
	}
	return out
}

// definesRead reports whether the statement of effects e defines a Var
// of v's Go variable that is read.
func definesRead(e *ir.Effects, v *ir.Var, read map[*ir.Var]bool) bool {
	for _, d := range e.Defs {
		if d.Obj != nil && d.Obj == v.Obj && read[d] {
			return true
		}
	}
	return false
}

// hiddenVars returns the Go variables of fn that may be read or
// assigned where no statement of fn's IR says: a function literal other
// than a SOAC's lambda captures it (a closure's body runs at any later
// point, when it is called or deferred, reading the variable then), or
// its address is taken (&v, or a pointer method's receiver on a
// variable that is not a pointer). Without type information every one
// may be (all).
func hiddenVars(fn *ir.Function) (hidden map[types.Object]bool, all bool) {
	if fn.Info == nil || fn.Decl == nil || fn.Decl.Body == nil {
		return nil, true
	}
	lambdas := map[*ast.FuncLit]bool{}
	ir.Walk(fn.Body, func(s ir.Stmt) bool {
		if m, ok := s.(*ir.SOAC); ok {
			for _, l := range m.Lambdas() {
				if l.Kind == ir.FuncLit && l.Lit != nil {
					lambdas[l.Lit] = true
				}
			}
		}
		return true
	})
	hidden = map[types.Object]bool{}
	named := func(e ast.Expr) types.Object {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			return fn.Info.Uses[id]
		}
		return nil
	}
	ast.Inspect(fn.Decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			if !lambdas[n] {
				ast.Inspect(n.Body, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && fn.Info.Uses[id] != nil {
						hidden[fn.Info.Uses[id]] = true
					}
					return true
				})
			}
		case *ast.UnaryExpr:
			if obj := named(n.X); n.Op == token.AND && obj != nil {
				hidden[obj] = true
			}
		case *ast.SelectorExpr:
			obj := named(n.X)
			if sel := fn.Info.Selections[n]; sel != nil && sel.Kind() != types.FieldVal && obj != nil {
				if sig, _ := sel.Obj().Type().(*types.Signature); sig != nil && sig.Recv() != nil {
					_, ptrRecv := sig.Recv().Type().Underlying().(*types.Pointer)
					_, ptrX := obj.Type().Underlying().(*types.Pointer)
					if ptrRecv && !ptrX {
						hidden[obj] = true
					}
				}
			}
		}
		return true
	})
	return hidden, false
}

// keepable returns the last kernel that reads output v of ck's kernel
// when v may stay on the device after it (residency.keepable), else nil.
func (ck *clKernel) keepable(v *ir.Var) *lowered.PlanKernel { return ck.f.res.keepable(ck.lk, v) }

// shareable returns the last later kernel that may read the buffer of
// input v that ck's kernel uploads (residency.shareable), else nil.
func (ck *clKernel) shareable(v *ir.Var) *lowered.PlanKernel { return ck.f.res.shareable(ck.lk, v) }
