package clc

// This file translates a function's signature and its simple statements:
// parameters, named results, captures, locals and var declarations,
// assignments (op= included), expression statements, panic and returns.
// Control flow is control.go's, expressions expr.go's, aggregate.go's
// and call.go's, nested SOAC calls soac.go's.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// fn is the state of translating one function or lambda.
type fn struct {
	u       *Unit
	info    *types.Info
	parent  *fn // the enclosing function of a nested lambda
	sig     *types.Signature
	lo, hi  token.Pos // the source range of the function
	lambda  bool      // captures are allowed
	recv    *ast.FieldList
	w       *writer
	locals  map[types.Object]string
	cnames  map[string]bool
	caps    []Capture
	capIdx  map[*types.Var]int
	result  *Type
	named   []string // C names of named results
	multi   bool     // several results, returned as the fields of result
	tmp     int
	targets []target
	labels  int
	row     *rowLocal // the row a chunk function makes (chunk.go), or nil
	// indexReads are the index reads LambdaReads replaces by parameters,
	// per array; reads maps each read to its parameter's value.
	indexReads [][]*ast.IndexExpr
	reads      map[*ast.IndexExpr]val
}

// target is an enclosing loop or switch that break or continue may name.
type target struct {
	label    string // the Go label, "" if none
	loop     bool
	brk      string // C label after the statement
	cont     string // C label before a loop's post statement
	usedBrk  bool
	usedCont bool
}

func newFn(u *Unit, info *types.Info, parent *fn, sig *types.Signature, lo, hi token.Pos, lambda bool) *fn {
	return &fn{u: u, info: info, parent: parent, sig: sig, lo: lo, hi: hi, lambda: lambda, w: &writer{indent: 1},
		locals: map[types.Object]string{}, cnames: map[string]bool{}, capIdx: map[*types.Var]int{}}
}

// fail records a refusal (the first one wins) and returns a placeholder.
func (f *fn) fail(pos token.Pos, construct, reason string) string {
	f.w.fail(f.u.refuse(pos, construct, reason))
	return "0"
}

// failed reports whether a refusal has been recorded.
func (f *fn) failed() bool { return f.w.err != nil }

// cname returns a fresh C name for a Go local named name.
func (f *fn) cname(name string) string {
	base := name
	if !safeLocal(name) {
		base = "soac__v"
	}
	n := base
	for i := 2; f.cnames[n] || (n == "soac__v"); i++ {
		n = fmt.Sprintf("%s%d", base, i)
		if base != "soac__v" {
			n = fmt.Sprintf("%s__%d", base, i)
		}
	}
	f.cnames[n] = true
	return n
}

// captureName returns a fresh C name for a captured Go variable named
// name: "cap__" and the name (or "v" when it is not a plain identifier).
// Captures become kernel parameters beside the skeletons' own variables
// (i, r, n, lid, ...), which they must not shadow or be shadowed by:
// a double underscore keeps them apart, as it does the translator's
// other names, and the prefix is not the skeletons' reserved "soac_".
func (f *fn) captureName(name string) string {
	base := "cap__v"
	if plainIdent.MatchString(name) {
		base = "cap__" + name
	}
	n := base
	for i := 2; f.cnames[n]; i++ {
		n = fmt.Sprintf("%s%d", base, i)
	}
	f.cnames[n] = true
	return n
}

// temp returns a fresh temporary name.
func (f *fn) temp() string {
	f.tmp++
	n := fmt.Sprintf("soac__t%d", f.tmp)
	f.cnames[n] = true
	return n
}

// typ translates a Go type, refusing at pos when it is not translatable.
func (f *fn) typ(t types.Type, pos token.Pos) *Type {
	ct, bad := f.u.types.of(t)
	if bad != "" {
		f.fail(pos, bad, "only booleans, numbers, and structs and arrays of them (and read-only slices of those) are translated")
		return scalars[types.Int64]
	}
	if ct.UsesFP64() && f.u.fp64 == token.NoPos {
		f.u.fp64 = pos
	}
	return ct
}

// declare binds a Go object to a fresh C local name.
func (f *fn) declare(obj types.Object) string {
	n := f.cname(obj.Name())
	f.locals[obj] = n
	return n
}

// translate writes the function and returns it.
func (f *fn) translate(name string, ftype *ast.FuncType, body *ast.BlockStmt) (*Func, error) {
	out := &Func{Name: name, Pos: f.u.fset.Position(f.lo)}
	var params []string
	addParam := func(obj types.Object, pos token.Pos) {
		t := f.typ(obj.Type(), pos)
		c := f.declare(obj)
		if obj.Name() == "_" || obj.Name() == "" {
			c = f.temp()
		}
		out.Params = append(out.Params, Param{Name: obj.Name(), C: c, Type: t})
		params = append(params, fmt.Sprintf("%s %s", t.C, c))
	}
	if f.recv != nil {
		for _, fld := range f.recv.List {
			for _, n := range fld.Names {
				addParam(f.info.Defs[n], n.Pos())
			}
			if len(fld.Names) == 0 {
				addParam(types.NewVar(fld.Pos(), nil, "_", f.info.TypeOf(fld.Type)), fld.Pos())
			}
		}
	}
	for _, fld := range ftype.Params.List {
		for _, n := range fld.Names {
			addParam(f.info.Defs[n], n.Pos())
		}
		if len(fld.Names) == 0 {
			addParam(types.NewVar(fld.Pos(), nil, "_", f.info.TypeOf(fld.Type)), fld.Pos())
		}
	}
	f.readParams(out, &params)
	if f.sig.Variadic() {
		f.fail(ftype.Pos(), "variadic function", "variadic parameters are slices built by the caller")
	}
	switch f.sig.Results().Len() {
	case 0:
		f.fail(ftype.Pos(), "function without result", "a lambda or called function must return one value")
	case 1:
		f.result = f.typ(f.sig.Results().At(0).Type(), ftype.Pos())
		if f.result.Kind == Slice2 {
			f.fail(ftype.Pos(), "result of type "+f.sig.Results().At(0).Type().String(), "a function may return a slice of numbers or structs, not of slices")
		}
		if f.result.Kind == Slice {
			f.u.needOut(f.result.Elem)
		}
	default:
		if f.lambda {
			f.fail(ftype.Pos(), "lambda with several results", "a SOAC's function returns one value")
			break
		}
		// Several results are returned as the fields r0, r1, ... of a struct.
		var fields []*types.Var
		for i := range f.sig.Results().Len() {
			fields = append(fields, types.NewField(token.NoPos, nil, fmt.Sprintf("r%d", i), f.sig.Results().At(i).Type(), false))
		}
		f.result = f.typ(types.NewStruct(fields, nil), ftype.Pos())
		f.multi = true
	}
	out.Result = f.result
	// Named results are locals initialised to zero.
	if ftype.Results != nil && f.result != nil {
		for _, fld := range ftype.Results.List {
			for _, n := range fld.Names {
				obj := f.info.Defs[n]
				t := f.typ(obj.Type(), n.Pos())
				c := f.declare(obj)
				f.named = append(f.named, c)
				if t.IsView() {
					f.fail(n.Pos(), "named slice result", "a slice result must be returned by an expression")
				}
				f.w.line("%s %s = %s;", t.C, c, zeroOf(t))
			}
		}
	}
	f.block(body.List)
	if !f.failed() && f.result != nil && !terminates(body.List) {
		// Go's type checker only accepts a function that ends in a
		// terminating statement; this is C's missing return.
		f.w.line("return %s;", zeroOf(f.result))
	}
	if f.failed() {
		return nil, f.w.err
	}
	for _, c := range f.caps {
		params = append(params, fmt.Sprintf("const %s %s", c.Type.C, c.C))
	}
	if f.result != nil && f.result.Kind == Slice {
		params = append(params, fmt.Sprintf("const %s soac__out", outView(f.result.Elem)))
	}
	params = append(params, "int *soac__err")
	out.Captures = f.caps
	out.Proto = proto(name, f.result, params)
	var w writer
	w.line("%s {", out.Proto)
	w.raw(f.w.String())
	w.line("}")
	f.u.funcs = append(f.u.funcs, w.String())
	return out, nil
}

// readParams declares a parameter per array of f.indexReads, after the
// Go parameters, and makes it the value of each of the array's reads.
func (f *fn) readParams(out *Func, params *[]string) {
	for _, rs := range f.indexReads {
		if len(rs) == 0 {
			continue
		}
		name := "v"
		if id, ok := ast.Unparen(rs[0].X).(*ast.Ident); ok {
			name = id.Name
		}
		t := f.typ(f.info.TypeOf(rs[0]), rs[0].Pos())
		c := f.readName(name)
		out.Reads = append(out.Reads, Param{Name: name, C: c, Type: t})
		*params = append(*params, fmt.Sprintf("const %s %s", t.C, c))
		if f.reads == nil {
			f.reads = map[*ast.IndexExpr]val{}
		}
		for _, r := range rs {
			f.reads[r] = val{c, t}
		}
	}
}

// readName returns a fresh C name for the element of an array read at
// the index: "elem__" and the array's name.
func (f *fn) readName(name string) string {
	base := "elem__v"
	if plainIdent.MatchString(name) {
		base = "elem__" + name
	}
	n := base
	for i := 2; f.cnames[n]; i++ {
		n = fmt.Sprintf("%s%d", base, i)
	}
	f.cnames[n] = true
	return n
}

// terminates reports whether a statement list ends in a return or panic
// (enough for C: the type checker already proved Go's rule).
func terminates(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BlockStmt:
		return terminates(s.List)
	}
	return false
}

// block writes statements.
func (f *fn) block(list []ast.Stmt) {
	for _, s := range list {
		if f.failed() {
			return
		}
		f.stmt(s, "")
	}
}

// stmt writes one statement; label is the Go label naming it, if any.
func (f *fn) stmt(s ast.Stmt, label string) {
	switch s := s.(type) {
	case *ast.BlockStmt:
		f.w.open("{")
		f.block(s.List)
		f.w.close("}")
	case *ast.EmptyStmt:
	case *ast.ExprStmt:
		f.exprStmt(s)
	case *ast.AssignStmt:
		f.assign(s)
	case *ast.IncDecStmt:
		op := token.ADD
		if s.Tok == token.DEC {
			op = token.SUB
		}
		f.opAssign(s.X, op, nil, s.TokPos)
	case *ast.DeclStmt:
		f.decl(s)
	case *ast.IfStmt:
		f.ifStmt(s)
	case *ast.SwitchStmt:
		f.switchStmt(s, label)
	case *ast.ForStmt:
		f.forStmt(s, label)
	case *ast.RangeStmt:
		f.rangeStmt(s, label)
	case *ast.ReturnStmt:
		f.returnStmt(s)
	case *ast.BranchStmt:
		f.branch(s)
	case *ast.LabeledStmt:
		switch s.Stmt.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt:
			f.stmt(s.Stmt, s.Label.Name)
		default:
			f.fail(s.Pos(), "label "+s.Label.Name, "only loops and switches may be labelled (goto is not translated)")
		}
	case *ast.GoStmt:
		f.fail(s.Pos(), "go statement", "a work-item cannot start goroutines")
	case *ast.DeferStmt:
		f.fail(s.Pos(), "defer statement", "deferred calls are not translated")
	case *ast.SendStmt:
		f.fail(s.Pos(), "channel send", "channels are not translated")
	case *ast.SelectStmt:
		f.fail(s.Pos(), "select statement", "channels are not translated")
	case *ast.TypeSwitchStmt:
		f.fail(s.Pos(), "type switch", "interfaces are not translated")
	default:
		f.fail(s.Pos(), fmt.Sprintf("statement %T", s), "not in the translated subset")
	}
}

// exprStmt writes an expression statement: a call whose result is
// dropped, or panic.
func (f *fn) exprStmt(s *ast.ExprStmt) {
	call, ok := ast.Unparen(s.X).(*ast.CallExpr)
	if !ok {
		f.fail(s.Pos(), "expression statement", "only calls may be statements")
		return
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := f.info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
			f.u.helper("soac__panic", panicHelper)
			f.w.line("soac__panic(soac__err, %d);", f.u.site(call.Pos(), "panic"))
			if f.result != nil {
				f.w.line("return %s;", f.zeroResult())
			}
			return
		}
	}
	v := f.expr(call)
	if v.t != nil {
		f.w.line("(void)%s;", v.c)
	} else if v.c != "" {
		f.w.line("%s;", v.c)
	}
}

// zeroResult is what a function returns after a panic.
func (f *fn) zeroResult() string {
	if f.result.Kind == Slice {
		return fmt.Sprintf("%s__mk(soac__out.p, 0)", outView(f.result.Elem))
	}
	return zeroOf(f.result)
}

// decl writes var declarations; const and type declarations need no code.
func (f *fn) decl(s *ast.DeclStmt) {
	gd, ok := s.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR {
		return
	}
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		vals := f.values(vs.Values, len(vs.Names))
		for i, n := range vs.Names {
			obj := f.info.Defs[n]
			t := f.typ(obj.Type(), n.Pos())
			init := zeroOf(t)
			if len(vals) > 0 {
				init = f.convertTo(vals[i], t)
			}
			if n.Name == "_" {
				continue
			}
			f.defineLocal(obj, t, init, n.Pos())
		}
	}
}

// values translates the right-hand sides of an assignment to n
// variables; several are all evaluated into temporaries before any is
// assigned, as in Go. One call of a function of n results gives the
// fields of its result.
func (f *fn) values(es []ast.Expr, n int) []val {
	if len(es) == 1 && n > 1 {
		call, ok := ast.Unparen(es[0]).(*ast.CallExpr)
		if !ok {
			f.fail(es[0].Pos(), "multi-value assignment", "map reads with ok, type assertions and channel receives are not translated")
			return make([]val, n)
		}
		v := f.expr(call)
		if f.failed() || v.t == nil || v.t.Kind != Struct || len(v.t.Fields) != n {
			f.fail(call.Pos(), "multi-value assignment", "not a call of a translated function of several results")
			return make([]val, n)
		}
		t := f.temp()
		f.w.line("const %s %s = %s;", v.t.C, t, v.c)
		vals := make([]val, n)
		for i, fl := range v.t.Fields {
			vals[i] = val{t + "." + fl.C, fl.Type}
		}
		return vals
	}
	vals := make([]val, len(es))
	for i, e := range es {
		vals[i] = f.expr(e)
		if len(es) > 1 && vals[i].t != nil {
			// Even a plain name: a, b = b, a reads b before a is written.
			t := f.temp()
			f.w.line("const %s %s = %s;", vals[i].t.C, t, vals[i].c)
			vals[i].c = t
		}
	}
	return vals
}

// defineLocal declares a C local for obj initialised to init.
func (f *fn) defineLocal(obj types.Object, t *Type, init string, pos token.Pos) {
	if t.Kind == Slice && strings.HasPrefix(init, "soac__nested") {
		f.fail(pos, "local slice", "a nested SOAC's result is only used as a Reduce input or returned")
	}
	f.w.line("%s %s = %s;", t.C, f.declare(obj), init)
}

// assign writes =, := and op= assignments.
func (f *fn) assign(s *ast.AssignStmt) {
	if f.isRowDefine(s) {
		f.rowDefine(s)
		return
	}
	if f.rowAppend(s) { // chunkmap.go
		return
	}
	if s.Tok != token.ASSIGN && s.Tok != token.DEFINE {
		op, ok := opAssign[s.Tok]
		if !ok {
			f.fail(s.Pos(), "assignment "+s.Tok.String(), "not translated")
			return
		}
		f.opAssign(s.Lhs[0], op, s.Rhs[0], s.TokPos)
		return
	}
	vals := f.values(s.Rhs, len(s.Lhs))
	for i, l := range s.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name == "_" {
			continue
		}
		if s.Tok == token.DEFINE {
			id := l.(*ast.Ident)
			if obj := f.info.Defs[id]; obj != nil {
				t := f.typ(obj.Type(), id.Pos())
				f.defineLocal(obj, t, f.convertTo(vals[i], t), id.Pos())
				continue
			}
		}
		lv, t := f.lvalue(l)
		if f.failed() {
			return
		}
		f.w.line("%s = %s;", lv, f.convertTo(vals[i], t))
	}
}

var opAssign = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB, token.MUL_ASSIGN: token.MUL,
	token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM, token.AND_ASSIGN: token.AND,
	token.OR_ASSIGN: token.OR, token.XOR_ASSIGN: token.XOR, token.SHL_ASSIGN: token.SHL,
	token.SHR_ASSIGN: token.SHR, token.AND_NOT_ASSIGN: token.AND_NOT,
}

// opAssign writes l op= r, and l++ and l-- when r is nil.
func (f *fn) opAssign(l ast.Expr, op token.Token, r ast.Expr, pos token.Pos) {
	lv, t := f.lvalue(l)
	if f.failed() {
		return
	}
	if r == nil {
		one := "1"
		if t.IsFloat() {
			one = "1.0"
		}
		one = fmt.Sprintf("((%s)%s)", t.C, one)
		f.w.line("%s = %s;", lv, f.binary(op, val{lv, t}, val{one, t}, t, nil, pos))
		return
	}
	f.w.line("%s = %s;", lv, f.binary(op, val{lv, t}, f.expr(r), t, r, pos))
}

// lvalue translates an assignable expression: a local, a field of one, or
// an element of a local array. Index expressions are spilled so that op=
// evaluates them once.
func (f *fn) lvalue(e ast.Expr) (string, *Type) {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj := f.info.Uses[e]
		if obj == nil {
			obj = f.info.Defs[e]
		}
		if c, ok := f.locals[obj]; ok {
			return c, f.typ(obj.Type(), e.Pos())
		}
		f.fail(e.Pos(), "assignment to "+e.Name, "a lambda may not write variables it captures or package-level variables")
		return "0", scalars[types.Int64]
	case *ast.SelectorExpr:
		sel := f.info.Selections[e]
		if sel == nil || sel.Kind() != types.FieldVal {
			break
		}
		base, bt := f.lvalue(e.X)
		return f.fieldPath(base, bt, sel.Index(), e.Pos())
	case *ast.IndexExpr:
		if lv, t, ok := f.rowElem(e); ok {
			return lv, t
		}
		bt := f.typ(f.info.TypeOf(e.X), e.Pos())
		if bt.Kind != Array {
			f.fail(e.Pos(), "assignment to a slice element", "slices are read-only device buffers")
			return "0", scalars[types.Int64]
		}
		base, _ := f.lvalue(e.X)
		ix := f.spill(f.expr(e.Index))
		return fmt.Sprintf("%s.a[%s]", base, f.arrayIndex(ix, bt, e.Index, e.Pos())), bt.Elem
	case *ast.StarExpr:
		f.fail(e.Pos(), "pointer indirection", "pointers into Go memory are not translated")
		return "0", scalars[types.Int64]
	}
	f.fail(e.Pos(), "assignment target", "only locals, their fields and their array elements can be assigned")
	return "0", scalars[types.Int64]
}

// returnStmt writes a return. A slice result is written through the out
// view.
func (f *fn) returnStmt(s *ast.ReturnStmt) {
	if len(s.Results) == 0 {
		if f.multi {
			f.w.line("return %s__mk(%s);", f.result.C, strings.Join(f.named, ", "))
		} else if len(f.named) == 1 {
			f.w.line("return %s;", f.named[0])
		}
		return
	}
	if f.multi && len(s.Results) > 1 {
		args := make([]string, len(s.Results))
		for i, e := range s.Results {
			args[i] = f.convertTo(f.expr(e), f.result.Fields[i].Type)
		}
		f.w.line("return %s__mk(%s);", f.result.C, strings.Join(args, ", "))
		return
	}
	if f.rowReturn(s) {
		return
	}
	if f.result.Kind == Slice {
		f.returnSlice(s.Results[0])
		return
	}
	v := f.expr(s.Results[0])
	f.w.line("return %s;", f.convertTo(v, f.result))
}
