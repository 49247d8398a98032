package rewrite

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

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// direct reports whether s is a kernel of its own, run where it is
// written, as a call of the runtime: a stream on its own (its chunk
// function is called on chunks either way).
func (f *fgen) direct(s *ir.SOAC) bool {
	ks := f.kOf[s]
	return len(ks) == 1 && ks[0].At == ir.Stmt(s) && len(ks[0].SOACs) == 1 && s.IsStream()
}

// soacStmt generates SOAC statement s at its position.
func (f *fgen) soacStmt(c *code, s *ir.SOAC) error {
	if !f.direct(s) {
		f.evalOperands(c, s)
	}
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
func (f *fgen) evalOperands(c *code, s *ir.SOAC) {
	for _, o := range s.Operands() {
		if o.Const != nil || f.opText[o] != nil || isRecv(s, o) {
			continue
		}
		name := f.fresh("v")
		c.pf("var %s ", name).add(f.typeCode(operandType(s, o))).p(" = ").line(f.sub(o.Expr, f.cur))
		f.opText[o] = txt(name)
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
		c.p("if ").add(nc).p(" < 0 {\npanic(")
		f.qual(c, "fmt", "fmt", "Sprintf")
		c.pf("(%q, ", "soac."+s.Name+": negative length %d").add(nc).p("))\n}\n")
	}
	// Inputs whose Go name means another variable where the kernel runs
	// are copied now.
	for _, k := range f.kOf[s] {
		for _, v := range s.Inputs() {
			if v.Obj == nil || f.rebind[v] != "" {
				continue
			}
			if f.lookupAt(v.Obj.Name(), k.At.Pos()) != v.Obj {
				t := f.fresh("in")
				c.pf("%s := %s\n", t, f.name(v))
				f.rebind[v] = t
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

// lookupAt resolves name at pos in the spec's scopes.
func (f *fgen) lookupAt(name string, pos token.Pos) types.Object {
	sc := f.pkg.Scope().Innermost(pos)
	if sc == nil {
		return nil
	}
	_, obj := sc.LookupParent(name, pos)
	return obj
}

// operand returns the code of operand o of s.
func (f *fgen) operand(s *ir.SOAC, o *ir.Operand) *code {
	if c := f.opText[o]; c != nil {
		return c
	}
	c := new(code)
	if o.Const != nil {
		// An untyped constant takes the operand's type.
		if t := operandType(s, o); t != nil {
			return c.add(f.typeCode(t)).p("(").add(f.sub(o.Expr, f.cur)).p(")")
		}
	}
	return c.add(f.sub(o.Expr, f.cur))
}

// evalFunc evaluates a function value that is not inlined, where its SOAC
// is written: a method value's receiver, a function variable, any other
// function expression, or a literal that cannot be inlined where the
// kernel runs.
func (f *fgen) evalFunc(c *code, s *ir.SOAC, l *ir.Lambda) {
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
		name := f.fresh("recv")
		switch {
		case recvPtr && !exprPtr:
			c.pf("%s := &(", name).add(recv).p(")\n")
		case !recvPtr && exprPtr:
			c.pf("%s := *", name).add(recv).p("\n")
		default:
			c.pf("%s := ", name).line(recv)
		}
		f.funText[l] = txtf("%s.%s", name, l.Func.Name())
		return
	case ir.FuncLit, ir.FuncValue:
		inl := len(f.kOf[s]) > 0
		for _, k := range f.kOf[s] {
			inl = inl && f.canInline(l, k.At.Pos())
		}
		if inl {
			if l.Kind == ir.FuncValue {
				// The variable is read here, as the spec reads it.
				c.p("_ = ").line(f.sub(l.Expr, f.cur))
			}
			return
		}
	}
	name := f.fresh("fn")
	if f.mayFuse(l) {
		// Its own compiled body, as the spec's combinator runs it
		// (fma.go, doc.go).
		c.pf("%s := ", name).add(f.soacQ(new(code), "Opaque")).p("(").add(f.funcExpr(l)).p(")\n")
	} else {
		c.pf("%s := ", name).line(f.funcExpr(l))
	}
	f.funText[l] = txt(name)
}

// funcExpr returns the function argument as an expression: the literal
// with its body generated, or the expression as written.
func (f *fgen) funcExpr(l *ir.Lambda) *code {
	if t := f.funText[l]; t != nil {
		return t
	}
	if lit, ok := ast.Unparen(l.Expr).(*ast.FuncLit); ok && l.Body != nil {
		body, err := f.body(lit.Body.List, l.Body.Stmts, nil)
		if err != nil {
			f.err = err
			return new(code)
		}
		return new(code).add(f.sub(lit.Type, nil)).p(" {\n").add(body).p("}")
	}
	return f.sub(l.Expr, f.cur)
}

// declareOutputs declares the temporaries among k's outputs and returns
// the name each output is assigned to ("_" for a result nobody reads).
func (f *fgen) declareOutputs(c *code, k *fusion.Kernel) map[*ir.Var]string {
	outs := map[*ir.Var]string{}
	for _, v := range k.Outputs {
		if v.Obj == nil && !f.used[v] {
			outs[v] = "_"
			continue
		}
		n := f.name(v)
		outs[v] = n
		if v.Obj == nil {
			c.pf("var %s ", n).line(f.typeCode(v.Type))
		}
	}
	return outs
}

// unfused runs k's members one after another with the runtime.
func (f *fgen) unfused(k *fusion.Kernel, outs map[*ir.Var]string) *code {
	// The members' internal results are temporaries of this block: their
	// names are taken back after it.
	c := txt("{\n")
	type prev struct {
		name string
		had  bool
	}
	saved := map[*ir.Var]prev{}
	for _, m := range k.SOACs {
		if m.Out == nil {
			continue
		}
		if n, ok := outs[m.Out]; ok {
			c.pf("%s = ", n).line(f.call(m, false))
			continue
		}
		n := f.fresh("t")
		old, had := f.names[m.Out]
		saved[m.Out] = prev{old, had}
		f.names[m.Out] = n
		c.pf("%s := ", n).line(f.call(m, false))
	}
	for v, p := range saved {
		if p.had {
			f.names[v] = p.name
		} else {
			delete(f.names, v)
		}
	}
	return c.p("}\n")
}

// assign emits target = value for SOAC result v.
func (f *fgen) assign(c *code, v *ir.Var, value *code) {
	if v == nil || v.Obj == nil && !f.used[v] {
		c.p("_ = ").line(value)
		return
	}
	if v.Obj == nil {
		c.pf("%s := ", f.name(v)).line(value)
		return
	}
	c.pf("%s = ", f.name(v)).line(value)
}

// call returns the runtime call computing m. direct says m runs where it
// is written, so its operands and lambdas are written as in the spec.
func (f *fgen) call(m *ir.SOAC, direct bool) *code {
	c := new(code)
	f.soacQ(c, m.Name)
	if len(m.TypeArgs) > 0 {
		c.p("[")
		for i, t := range m.TypeArgs {
			if i > 0 {
				c.p(", ")
			}
			c.add(f.typeCode(t))
		}
		c.p("]")
	}
	var args []*code
	for _, v := range m.Inputs() {
		args = append(args, txt(f.name(v)))
	}
	op := func(o *ir.Operand) *code {
		if direct {
			return f.sub(o.Expr, f.cur)
		}
		return f.operand(m, o)
	}
	fn := func(l *ir.Lambda) *code {
		if direct || f.funText[l] == nil {
			return f.funcExpr(l)
		}
		return f.funText[l]
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
	c.p("(")
	for i, a := range args {
		if i > 0 {
			c.p(", ")
		}
		c.add(a)
	}
	return c.p(")")
}

// fusedStream returns lowered kernel lk (form lower.Chunked), maps
// feeding one stream, as one chunked loop: for each chunk of
// soac.ChunkSize elements the maps compute the stream's input chunk into
// a buffer (lk.Chunk.Buffer), then the chunk function runs on it; or the
// maps run inside the chunk function's range loop (chunkloop.go). It
// returns the reason it cannot, or "".
func (f *fgen) fusedStream(lk *lower.Kernel, outs map[*ir.Var]string) (*code, string) {
	k := lk.Src
	last := k.SOACs[len(k.SOACs)-1]
	st := last.Op.(*ir.Stream)
	member := map[*ir.Var]*ir.SOAC{}
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		member[m.Out] = m
	}
	at := k.At.Pos()
	n, idx, lo, hi := f.fresh("n"), f.fresh("i"), f.fresh("lo"), f.fresh("hi")
	chunkSize := f.soacQ(new(code), "ChunkSize")
	// Every map input has the stream's length: a Map2 of unequal lengths
	// would have been an assert.
	pre := new(code).pf("%s := len(%s)\n", n, f.name(k.Inputs[0]))
	// maps emits the members' code for the element at idx, their lambdas
	// inlined for position pos, and returns the elements it computes.
	maps := func(body *code, pos token.Pos) (map[*ir.Var]*code, string) {
		elems := map[*ir.Var]*code{}
		for _, m := range k.SOACs[:len(k.SOACs)-1] {
			op := m.Op.(*ir.Screma)
			var args []*code
			for _, v := range op.Inputs {
				if e := elems[v]; e != nil {
					args = append(args, e)
				} else if member[v] == nil {
					args = append(args, txtf("%s[%s]", f.name(v), idx))
				} else {
					return nil, fmt.Sprintf("%s at %s reads %s before the kernel computes it", m.Name, f.fset.Position(m.Pos()), v.Name)
				}
			}
			res := f.fresh("m")
			body.pf("var %s ", res).line(f.typeCode(op.Map.Sig.Results().At(0).Type()))
			if why := f.apply(body, op.Map, args, res, pos); why != "" {
				return nil, why
			}
			if out, ok := outs[m.Out]; ok && out != "_" {
				pre.pf("%s = make(", out).add(f.typeCode(m.Out.Type)).pf(", %s)\n", n)
				body.pf("%s[%s] = %s\n", out, idx, res)
			}
			elems[m.Out] = txt(res)
		}
		return elems, ""
	}
	if c, ok := f.chunkLoopStream(lk, st, member, outs, pre, n, idx, maps); ok {
		return c, ""
	}
	body := new(code)
	elems, why := maps(body, at)
	if why != "" {
		return nil, why
	}
	elemT := st.Input.Type
	chunk := f.fresh("chunk")
	var loop = new(code)
	loop.pf("for %s := 0; %s < %s; %s += ", lo, lo, n, lo).add(chunkSize).p(" {\n")
	loop.pf("%s := min(%s+", hi, lo).add(chunkSize).pf(", %s)\n", n)
	reuse := lk.Chunk.Buffer == lower.Reused
	buf := f.fresh("buf")
	if lk.Chunk.Buffer == lower.Output {
		out := outs[st.Input]
		loop.pf("for %s := %s; %s < %s; %s++ {\n", idx, lo, idx, hi, idx).add(body).p("}\n")
		loop.pf("%s := %s[%s:%s:%s]\n", chunk, out, lo, hi, hi)
		pre.pf("_ = %s[:0:0]\n", out)
	} else {
		if reuse {
			pre.pf("%s := make(", buf).add(f.typeCode(elemT)).pf(", min(%s, ", n).add(chunkSize).p("))\n")
			loop.pf("%s := %s[:%s-%s:%s-%s]\n", chunk, buf, hi, lo, hi, lo)
		} else {
			loop.pf("%s := make(", chunk).add(f.typeCode(elemT)).pf(", %s-%s)\n", hi, lo)
		}
		loop.pf("for %s := %s; %s < %s; %s++ {\n", idx, lo, idx, hi, idx).add(body).pf("%s[%s-%s] = %s\n", chunk, idx, lo, elems[st.Input].String()).p("}\n")
	}
	res := f.fresh("r")
	rt := st.Chunk.Sig.Results().At(0).Type()
	loop.pf("var %s ", res).line(f.typeCode(rt))
	if why := f.apply(loop, st.Chunk, []*code{txt(chunk)}, res, at); why != "" {
		return nil, why
	}
	empty := txtf("%s[:0:0]", buf)
	if !reuse {
		empty = new(code).p("make(").add(f.typeCode(elemT)).p(", 0)")
	}
	return f.streamTail(k, st, outs, pre, loop, n, lo, hi, res, empty)
}

// streamTail completes the kernel of stream st whose chunk loop (open;
// each chunk's result in res) is loop: StreamMap checks each result's
// length with the runtime's message and appends it, StreamRed starts from
// f(empty) and folds each result with its operator.
func (f *fgen) streamTail(k *fusion.Kernel, st *ir.Stream, outs map[*ir.Var]string, pre, loop *code, n, lo, hi, res string, empty *code) (*code, string) {
	at := k.At.Pos()
	last := k.SOACs[len(k.SOACs)-1]
	out, ok := outs[last.Out]
	if !ok {
		out = "_"
	}
	c := txt("{\n").add(pre)
	acc := f.fresh("acc")
	switch st.Kind {
	case ir.StreamMap:
		c.pf("%s := make(", acc).add(f.typeCode(last.Out.Type)).pf(", 0, %s)\n", n)
		loop.pf("if len(%s) != %s-%s {\npanic(", res, hi, lo)
		f.qual(loop, "fmt", "fmt", "Sprintf")
		loop.pf("(%q, %s, %s, %s-%s, len(%s)))\n}\n", "soac.StreamMap: chunk xs[%d:%d] has %d elements but f returned %d", lo, hi, hi, lo, res)
		loop.pf("%s = append(%s, %s...)\n", acc, acc, res)
	case ir.StreamRed:
		e := f.fresh("empty")
		c.pf("%s := ", e).line(empty)
		c.pf("var %s ", acc).line(f.typeCode(st.Chunk.Sig.Results().At(0).Type()))
		if why := f.apply(c, st.Chunk, []*code{txt(e)}, acc, at); why != "" {
			return nil, why
		}
		if why := f.apply(loop, st.Op, []*code{txt(acc), txt(res)}, acc, at); why != "" {
			return nil, why
		}
	}
	c.add(loop).p("}\n").pf("%s = %s\n", out, acc)
	return c.p("}\n"), ""
}
