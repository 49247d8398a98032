package hostgo

// This file emits kernels. A kernel of one SOAC run at its own position is
// a call of the runtime combinator; a kernel of several members is one
// sequential loop (fused.go) or, for forms the loop emitter does not cover,
// its members called one after another in evaluation order, which is what
// the spec computes. Operands and function values of members that run
// later than their own position are evaluated at that position first.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// direct reports whether s is a kernel of its own, run where it is
// written, as a call of the runtime: a stream on its own (its chunk
// function is called on chunks either way).
func (f *Func) direct(s *ir.SOAC) bool {
	ks := f.kOf[s]
	return len(ks) == 1 && ks[0].At == ir.Stmt(s) && len(ks[0].SOACs) == 1 && s.IsStream()
}

// soacStmt generates SOAC statement s at its position.
func (f *Func) soacStmt(c *Stmts, s *ir.SOAC) error {
	if !f.direct(s) {
		f.evalOperands(c, s)
	}
	f.evalLater(c, s)
	for _, k := range sortedKernels(f.atK[s]) {
		if err := f.kernel(c, k); err != nil {
			return err
		}
	}
	return nil
}

// operandType is the type an operand of s is converted to.
func operandType(s *ir.SOAC, o *ir.Operand) types.Type {
	switch op := s.Op.(type) {
	case *ir.Iota:
		return types.Typ[types.Int]
	case *ir.Replicate:
		if o == op.N {
			return types.Typ[types.Int]
		}
	}
	if len(s.TypeArgs) > 0 {
		return s.TypeArgs[0]
	}
	return nil
}

// evalOperands evaluates the operands and function values of s into
// temporaries, where s is written, and checks a generator's length.
func (f *Func) evalOperands(c *Stmts, s *ir.SOAC) {
	f.copyCaptures(c, s)
	for _, o := range s.Operands() {
		if o.Const != nil || f.opText[o] != "" || isRecv(s, o) {
			continue
		}
		name := f.Fresh("v")
		c.Add(VarDecl(name, f.Type(operandType(s, o)), f.sub(o.Expr, f.cur)))
		f.opText[o] = name
	}
	for _, l := range s.Lambdas() {
		f.evalFunc(c, s, l)
	}
	var n *ir.Operand
	switch op := s.Op.(type) {
	case *ir.Iota:
		n = op.N
	case *ir.Replicate:
		n = op.N
	}
	if n != nil && (n.Const == nil || n.Const.Value == nil) {
		nc := f.operand(s, n)
		msg := f.Qual("fmt", "fmt", "Sprintf").Call(jen.Lit("soac."+s.Name+": negative length %d"), nc)
		c.Add(jen.If(jen.Add(nc).Op("<").Add(Lit(0))).Add(Block(Stmts{jen.Panic(msg)})))
	}
	// Inputs whose Go name means another variable where the kernel runs
	// are copied now.
	for _, k := range f.kOf[s] {
		if slices.Contains(f.low.Of[k].Later, s) {
			continue // its inputs are read before its position (placed.go)
		}
		for _, v := range s.Inputs() {
			if v.Obj == nil || f.rebind[v] != "" {
				continue
			}
			if f.LookupAt(v.Obj.Name(), k.At.Pos()) != v.Obj {
				t := f.Fresh("in")
				c.Add(Define(t, Id(f.Name(v))))
				f.rebind[v] = t
			}
		}
	}
}

// copyCaptures copies, where s is written, the captured variables its
// kernel's plan lists for it (lowered.PlanKernel.Copies: reassigned before the
// kernel runs), and makes every identifier of s's function literals that
// refers to one of them refer to its copy.
func (f *Func) copyCaptures(c *Stmts, s *ir.SOAC) {
	for _, k := range f.kOf[s] {
		for _, cp := range k.Copies {
			if cp.SOAC != s {
				continue
			}
			// Another member reading the same Var took its copy earlier
			// in this block, of the same value: this one reads it too.
			t := f.rebind[cp.Var]
			if t == "" {
				t = f.Fresh(cp.Var.Obj.Name())
				c.Add(Define(t, Id(f.Name(cp.Var))))
				f.rebind[cp.Var] = t
			}
			for _, l := range s.Lambdas() {
				if l.Lit == nil {
					continue
				}
				ast.Inspect(l.Lit, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && f.info.Uses[id] == cp.Var.Obj {
						f.renameIdent[id] = t
					}
					return true
				})
			}
		}
	}
}

func isRecv(s *ir.SOAC, o *ir.Operand) bool {
	for _, l := range s.Lambdas() {
		if l.Recv == o {
			return true
		}
	}
	return false
}

// LookupAt resolves name at pos in the spec's scopes.
func (f *Func) LookupAt(name string, pos token.Pos) types.Object {
	sc := f.pkg.Scope().Innermost(pos)
	if sc == nil {
		return nil
	}
	_, obj := sc.LookupParent(name, pos)
	return obj
}

// operand returns the code of operand o of s.
func (f *Func) operand(s *ir.SOAC, o *ir.Operand) *jen.Statement {
	if name := f.opText[o]; name != "" {
		return Id(name)
	}
	if o.Const != nil {
		// An untyped constant takes the operand's type.
		if t := operandType(s, o); t != nil {
			return f.Type(t).Call(f.sub(o.Expr, f.cur))
		}
	}
	return f.sub(o.Expr, f.cur)
}

// evalFunc evaluates a function value that is not inlined, where its SOAC
// is written: a method value's receiver, a function variable, any other
// function expression, or a literal that cannot be inlined where the
// kernel runs.
func (f *Func) evalFunc(c *Stmts, s *ir.SOAC, l *ir.Lambda) {
	if f.funText[l] != nil {
		return
	}
	switch l.Kind {
	case ir.NamedFunc:
		if !f.mayFuse(l) {
			return
		}
	case ir.MethodValue:
		if f.mayFuse(l) {
			// Called through the method value, as the spec calls it
			// (the compiler's method-value wrapper).
			break
		}
		recv := f.sub(l.Recv.Expr, f.cur)
		sig := l.Func.Type().(*types.Signature)
		rt := f.info.TypeOf(l.Recv.Expr)
		if types.IsInterface(rt) || sig.Recv() == nil {
			break
		}
		_, recvPtr := sig.Recv().Type().(*types.Pointer)
		_, exprPtr := rt.Underlying().(*types.Pointer)
		name := f.Fresh("recv")
		switch {
		case recvPtr && !exprPtr:
			c.Add(Define(name, jen.Op("&").Parens(recv)))
		case !recvPtr && exprPtr:
			c.Add(Define(name, jen.Op("*").Add(recv)))
		default:
			c.Add(Define(name, recv))
		}
		f.funText[l] = jen.Id(name).Dot(l.Func.Name())
		return
	case ir.FuncLit, ir.FuncValue:
		inl := len(f.kOf[s]) > 0
		for _, k := range f.kOf[s] {
			inl = inl && f.canInline(l, k.At.Pos())
		}
		if inl {
			if l.Kind == ir.FuncValue {
				// The variable is read here, as the spec reads it.
				c.Add(AssignTo("_", f.sub(l.Expr, f.cur)))
			}
			return
		}
		f.bindGathers(c, s, l)
	}
	f.bindFunc(c, l)
}

// bindFunc declares a temporary holding l's function value in c, and
// has l called through it from then on.
func (f *Func) bindFunc(c *Stmts, l *ir.Lambda) {
	name := f.Fresh("fn")
	if f.mayFuse(l) {
		// Its own compiled body, as the spec's combinator runs it
		// (fma.go, doc.go).
		c.Add(Define(name, f.soacQ("Opaque").Call(f.FuncExpr(l))))
	} else {
		c.Add(Define(name, f.FuncExpr(l)))
	}
	f.funText[l] = Id(name)
}

// FuncExpr returns the function argument as an expression: the literal
// with its body generated, or the expression as written.
func (f *Func) FuncExpr(l *ir.Lambda) *jen.Statement {
	if t := f.funText[l]; t != nil {
		f.funRefs[t] = true
		return jen.Add(t)
	}
	if lit, ok := ast.Unparen(l.Expr).(*ast.FuncLit); ok && l.Body != nil {
		body, err := f.body(lit.Body.List, l.Body.Stmts, nil)
		if err != nil {
			f.err = err
			return jen.Null()
		}
		return f.sub(lit.Type, nil).Add(Block(body))
	}
	return f.sub(l.Expr, f.cur)
}

// DeclareOutputs declares the temporaries among k's outputs and returns
// the name each output is assigned to ("_" for a result nobody reads).
func (f *Func) DeclareOutputs(c *Stmts, k *lowered.PlanKernel) map[*ir.Var]string {
	outs := map[*ir.Var]string{}
	for _, v := range k.Outputs {
		if v.Obj == nil && !f.used[v] {
			outs[v] = "_"
			continue
		}
		if f.laterOutput(c, k, v) {
			outs[v] = f.Name(v)
			continue
		}
		n := f.Name(v)
		outs[v] = n
		if v.Obj == nil {
			c.Add(VarDecl(n, f.Type(v.Type), nil))
		}
	}
	return outs
}

// Reference adds to c the reference calls of lk: the code of a kernel
// that no backend generates, at the end of the fallback chain. A kernel
// of form Call assigns its one SOAC's call of the runtime to its result
// (Call, evaluated where the spec evaluates it); any other runs its
// members one after another into outs, the outputs DeclareOutputs
// declared (Unfused).
func (f *Func) Reference(c *Stmts, lk *lowered.Kernel, outs map[*ir.Var]string) {
	if lk.Form == lowered.Call {
		m := lk.Src.SOACs[0]
		f.Assign(c, m.Out, f.Call(m, true))
		return
	}
	c.Add(f.Unfused(lk.Src, outs))
}

// Unfused runs k's members one after another with the runtime, in a
// block.
func (f *Func) Unfused(k *lowered.PlanKernel, outs map[*ir.Var]string) *jen.Statement {
	// The members' internal results are temporaries of this block: their
	// names are taken back after it.
	var c Stmts
	type prev struct {
		name string
		had  bool
	}
	saved := map[*ir.Var]prev{}
	for _, m := range k.SOACs {
		if m.Out == nil {
			continue
		}
		// A literal reading an array of the kernel at the iteration
		// index reads it under its name here.
		var call *jen.Statement
		f.gatherNames(&c, k, m, func() { call = f.Call(m, false) })
		if n, ok := outs[m.Out]; ok {
			c.Add(AssignTo(n, call))
			continue
		}
		n := f.Fresh("t")
		old, had := f.names[m.Out]
		saved[m.Out] = prev{old, had}
		f.names[m.Out] = n
		c.Add(Define(n, call))
	}
	for v, p := range saved {
		if p.had {
			f.names[v] = p.name
		} else {
			delete(f.names, v)
		}
	}
	return Block(c)
}

// Assign emits target = value for SOAC result v.
func (f *Func) Assign(c *Stmts, v *ir.Var, value jen.Code) {
	if v == nil || v.Obj == nil && !f.used[v] {
		c.Add(AssignTo("_", value))
		return
	}
	if v.Obj == nil {
		c.Add(Define(f.Name(v), value))
		return
	}
	c.Add(AssignTo(f.Name(v), value))
}

// Call returns the runtime call computing m. direct says m runs where it
// is written, so its operands and lambdas are written as in the spec.
func (f *Func) Call(m *ir.SOAC, direct bool) *jen.Statement {
	c := f.soacQ(m.Name)
	var targs []jen.Code
	for _, t := range m.TypeArgs {
		targs = append(targs, f.Type(t))
	}
	c.Types(targs...)
	var args []jen.Code
	for _, v := range m.Inputs() {
		args = append(args, Id(f.Name(v)))
	}
	op := func(o *ir.Operand) *jen.Statement {
		if direct {
			return f.sub(o.Expr, f.cur)
		}
		return f.operand(m, o)
	}
	fn := func(l *ir.Lambda) *jen.Statement {
		if direct || f.funText[l] == nil {
			return f.FuncExpr(l)
		}
		f.funRefs[f.funText[l]] = true
		return jen.Add(f.funText[l])
	}
	switch o := m.Op.(type) {
	case *ir.Screma:
		switch {
		case o.Reduce != nil:
			args = append(args, op(o.Reduce.Neutral), fn(o.Reduce.Op))
		case o.Scan != nil:
			args = append(args, op(o.Scan.Neutral), fn(o.Scan.Op))
		default:
			args = append(args, fn(o.Map))
		}
	case *ir.Filter:
		args = append(args, fn(o.Pred))
	case *ir.Stream:
		if o.Kind == ir.StreamRed {
			args = append(args, fn(o.Op))
		}
		args = append(args, fn(o.Chunk))
	case *ir.Iota:
		args = append(args, op(o.N))
	case *ir.Replicate:
		args = append(args, op(o.N), op(o.Value))
	default:
		f.err = fmt.Errorf("internal error: unknown SOAC %T", m.Op)
	}
	return c.Call(args...)
}

// FusedStream returns lowered kernel lk (form lowered.Chunked), maps
// feeding one stream, as one chunked loop: for each chunk of
// soac.ChunkSize elements the maps compute the stream's input chunk into
// a buffer (lk.Chunk.Buffer), then the chunk function runs on it; or the
// maps run inside the chunk function's range loop (chunkloop.go). It
// returns the reason it cannot, or "".
func (f *Func) FusedStream(lk *lowered.Kernel, outs map[*ir.Var]string) (*jen.Statement, string) {
	k := lk.Src
	last := k.SOACs[len(k.SOACs)-1]
	st := last.Op.(*ir.Stream)
	member := map[*ir.Var]*ir.SOAC{}
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		member[m.Out] = m
	}
	at := k.At.Pos()
	n, idx, lo, hi := f.Fresh("n"), f.Fresh("i"), f.Fresh("lo"), f.Fresh("hi")
	chunkSize := f.soacQ("ChunkSize")
	// Every map input has the stream's length: a Map2 of unequal lengths
	// would have been an assert.
	pre := &Stmts{Define(n, jen.Len(Id(f.Name(k.Inputs[0]))))}
	// maps emits the members' code for the element at idx, their lambdas
	// inlined for position pos, and returns the elements it computes.
	maps := func(body *Stmts, pos token.Pos) (map[*ir.Var]*jen.Statement, string) {
		return f.streamMaps(k, member, outs, nil, pre, n, idx, body, pos)
	}
	if c, ok := f.chunkLoopStream(lk, st, member, outs, pre, n, idx, maps); ok {
		return c, ""
	}
	var body Stmts
	elems, why := maps(&body, at)
	if why != "" {
		return nil, why
	}
	elemT := st.Input.Type
	chunk := f.Fresh("chunk")
	head := chunkHead(lo, hi, n, chunkSize)
	loop := &Stmts{Define(hi, jen.Min(jen.Id(lo).Op("+").Add(chunkSize), Id(n)))}
	reuse := lk.Chunk.Buffer == lowered.Reused
	buf := f.Fresh("buf")
	width := jen.Id(hi).Op("-").Id(lo)
	if lk.Chunk.Buffer == lowered.Output {
		out := outs[st.Input]
		loop.Add(CountLoop(idx, Id(lo), Id(hi), body))
		loop.Add(Define(chunk, jen.Id(out).Index(Id(lo), Id(hi), Id(hi))))
		pre.Add(AssignTo("_", jen.Id(out).Index(jen.Empty(), Lit(0), Lit(0))))
	} else {
		if reuse {
			pre.Add(Define(buf, MakeSlice(f.Type(elemT), jen.Min(Id(n), chunkSize))))
			loop.Add(Define(chunk, jen.Id(buf).Index(jen.Empty(), width, width)))
		} else {
			loop.Add(Define(chunk, MakeSlice(f.Type(elemT), width)))
		}
		body.Add(jen.Id(chunk).Index(jen.Id(idx).Op("-").Id(lo)).Op("=").Add(elems[st.Input]))
		loop.Add(CountLoop(idx, Id(lo), Id(hi), body))
	}
	res := f.Fresh("r")
	rt := st.Chunk.Sig.Results().At(0).Type()
	loop.Add(VarDecl(res, f.Type(rt), nil))
	if why := f.Apply(loop, st.Chunk, []jen.Code{Id(chunk)}, Id(res), at); why != "" {
		return nil, why
	}
	empty := jen.Id(buf).Index(jen.Empty(), Lit(0), Lit(0))
	if !reuse {
		empty = MakeSlice(f.Type(elemT), Lit(0))
	}
	return f.streamTail(k, st, outs, *pre, head, loop, n, lo, hi, res, empty)
}

// chunkHead returns the header of a loop over the chunks of [0, n):
// "for lo := 0; lo < n; lo += soac.ChunkSize".
func chunkHead(lo, hi, n string, chunkSize jen.Code) *jen.Statement {
	return jen.For(Define(lo, Lit(0)), jen.Id(lo).Op("<").Id(n), jen.Id(lo).Op("+=").Add(chunkSize))
}

// streamTail completes the kernel of stream st whose chunk loop is head
// and loop (the body so far; each chunk's result in res): StreamMap
// checks each result's length with the runtime's message and appends
// it, StreamRed starts from f(empty) and folds each result with its
// operator.
func (f *Func) streamTail(k *lowered.PlanKernel, st *ir.Stream, outs map[*ir.Var]string, pre Stmts, head *jen.Statement, loop *Stmts, n, lo, hi, res string, empty jen.Code) (*jen.Statement, string) {
	if then := f.streamThen[st]; then != nil {
		return then(pre, head, loop, n, lo, hi, res)
	}
	at := k.At.Pos()
	last := k.SOACs[len(k.SOACs)-1]
	out, ok := outs[last.Out]
	if !ok {
		out = "_"
	}
	c := pre
	acc := f.Fresh("acc")
	switch st.Kind {
	case ir.StreamMap:
		c.Add(Define(acc, MakeSlice(f.Type(last.Out.Type), Lit(0), Id(n))))
		width := jen.Id(hi).Op("-").Id(lo)
		msg := f.Qual("fmt", "fmt", "Sprintf").Call(jen.Lit("soac.StreamMap: chunk xs[%d:%d] has %d elements but f returned %d"), Id(lo), Id(hi), width, jen.Len(Id(res)))
		loop.Add(jen.If(jen.Len(Id(res)).Op("!=").Add(width)).Add(Block(Stmts{jen.Panic(msg)})))
		loop.Add(AssignTo(acc, jen.Append(Id(acc), jen.Id(res).Op("..."))))
	case ir.StreamRed:
		e := f.Fresh("empty")
		c.Add(Define(e, empty))
		c.Add(VarDecl(acc, f.Type(st.Chunk.Sig.Results().At(0).Type()), nil))
		if why := f.Apply(&c, st.Chunk, []jen.Code{Id(e)}, Id(acc), at); why != "" {
			return nil, why
		}
		if why := f.Apply(loop, st.Op, []jen.Code{Id(acc), Id(res)}, Id(acc), at); why != "" {
			return nil, why
		}
	}
	c.Add(jen.Add(head).Add(Block(*loop)), AssignTo(out, Id(acc)))
	return Block(c), ""
}
