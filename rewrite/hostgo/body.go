package hostgo

// This file generates the statements of a spec's body: the spec's own
// statements are copied (as source text, with the package references
// qualified and every SOAC call, hoisted subexpression and closure
// replaced), and each kernel is emitted at the statement the plan places
// it at (kernel.go).

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// Func generates one spec.
type Func struct {
	*File
	fn   *ir.Function
	plan *fusion.Plan
	low  *lower.Function // the plan lowered: every kernel's shape
	// backend is the backend the spec asks for; emit generates each
	// kernel at its position (File.Function).
	backend  string
	emit     KernelFunc
	atK      map[ir.Stmt][]*fusion.Kernel // kernels by the statement they run at
	kOf      map[*ir.SOAC][]*fusion.Kernel
	internal map[*ir.Var]bool
	used     map[*ir.Var]bool
	names    map[*ir.Var]string
	defIdent map[types.Object]*ast.Ident
	// opText names the temporary an operand was already evaluated into
	// at its SOAC's position; funText is the code of a function value
	// evaluated there.
	opText  map[*ir.Operand]string
	funText map[*ir.Lambda]*jen.Statement
	// funRefs holds the funText values that generated code used
	// (LocalFuncsUsed declares only those copies).
	funRefs map[*jen.Statement]bool
	// rebind names the temporaries holding inputs whose Go name means
	// something else where their kernel runs.
	rebind map[*ir.Var]string
	// zeroed holds the zero value that replaces a SOAC call the IR binds
	// to a variable its statement declares, when the kernel computing it
	// runs later (unbind).
	zeroed map[*ast.CallExpr]*jen.Statement
	// renameIdent names the symbolic variables of type switches renamed
	// with their clauses' implicit objects (rename.go).
	renameIdent map[*ast.Ident]string
	// cur is the substitution of the statement being generated.
	cur *subst
	// chunkLoops are the range loops over a chunk that run over input
	// indices instead (chunkloop.go); exprRepl replaces expressions of
	// the spec wherever they are generated (len(chunk) there).
	chunkLoops map[*ast.RangeStmt]*chunkLoop
	exprRepl   map[ast.Node]*jen.Statement
	// gatherVar names the variable a literal bound to a function value
	// reads an index-read array through (gather.go).
	gatherVar map[gatherKey]string
	// streamThen, while a ChunkedThen kernel is rendered, completes the
	// chunk loop of its stream (the key; not of a stream nested in its
	// chunk function) in place of streamTail (chunkthen.go).
	streamThen map[*ir.Stream]func(pre Stmts, head *jen.Statement, loop *Stmts, n, lo, hi, res string) (*jen.Statement, string)
	// later maps the outputs of members written after their kernel's
	// position to the spec's variable (placed.go).
	later map[*ir.Var]string
	// fuseMemo keeps lambdaMayFuse's answers (fma.go).
	fuseMemo map[fuseKey]bool
	// err is the first error met while generating a replacement.
	err error
	// decls are package-level declarations a backend's code needs
	// (AddDecls: the opencl backend's launch values), emitted after the
	// function.
	decls []jen.Code
	// prologue are statements a backend's code needs at the start of
	// the function (Prologue); devArrays the arrays its code may leave
	// on a device (SetDeviceArray).
	prologue      Stmts
	prologueNames map[string]string
	devArrays     map[*ir.Var]*DeviceArray
}

// retCtx rewrites the returns of an inlined function literal: the result
// is assigned to target and control jumps to label.
type retCtx struct {
	lit    *ast.FuncLit
	target *jen.Statement // nil discards the result
	named  []string       // the literal's named results, renamed
	label  string
	last   ast.Stmt // the literal's last top-level statement: a return there needs no jump
	jumped bool
	// round is the literal's floating-point result type, converted to
	// explicitly in every assignment of the result: the Go spec lets a
	// compiler fuse x*y + z into one FMA across statements (arm64 does),
	// and the spec's call boundary rounds, so the inlined body must too.
	round *jen.Statement
	// parts are the float fields and elements of a struct or array
	// result that are rounded after every assignment of the result, for
	// the same reason (roundedParts).
	parts []floatPart
}

// subst lists what the copy of one Go statement replaces.
type subst struct {
	calls    map[*ast.CallExpr]*jen.Statement
	hoisted  map[ast.Expr]*jen.Statement
	closures map[*ast.FuncLit]*ir.Closure
}

// A KernelFunc generates kernel k of f's spec into c, at the kernel's
// position among the spec's statements (package rewrite's chain of
// backends). Kernels nested in lambdas are generated where their lambda
// is, each once per copy of its body.
type KernelFunc func(f *Func, c *Stmts, k *fusion.Kernel) error

// Function returns the declarations generated for spec fn from its plan
// and lowered kernels: NAME and the guard that breaks the build when the
// spec's signature changes. backend is the backend the spec asks for
// (Func.Backend); emit generates each kernel.
func (g *File) Function(fn *ir.Function, plan *fusion.Plan, low *lower.Function, backend string, emit KernelFunc) ([]jen.Code, *Func, error) {
	g.resetTaken()
	f := &Func{
		File: g, fn: fn, plan: plan,
		atK: map[ir.Stmt][]*fusion.Kernel{}, kOf: map[*ir.SOAC][]*fusion.Kernel{},
		internal: map[*ir.Var]bool{}, used: map[*ir.Var]bool{}, names: map[*ir.Var]string{},
		defIdent: map[types.Object]*ast.Ident{}, opText: map[*ir.Operand]string{}, funText: map[*ir.Lambda]*jen.Statement{}, funRefs: map[*jen.Statement]bool{},
		rebind: map[*ir.Var]string{}, chunkLoops: map[*ast.RangeStmt]*chunkLoop{}, exprRepl: map[ast.Node]*jen.Statement{},
		zeroed: map[*ast.CallExpr]*jen.Statement{}, renameIdent: map[*ast.Ident]string{}, gatherVar: map[gatherKey]string{},
		backend: backend, emit: emit,
	}
	g.rename, g.unreserved = map[types.Object]string{}, ""
	defer func() { g.rename, g.reserved = nil, nil }()
	if err := f.renameLocals(); err != nil {
		return nil, nil, err
	}
	for _, k := range plan.Kernels {
		f.atK[k.At] = append(f.atK[k.At], k)
		for _, m := range k.SOACs {
			f.kOf[m] = append(f.kOf[m], k)
		}
		for _, v := range k.Internal {
			f.internal[v] = true
		}
	}
	ast.Inspect(fn.Decl, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := g.info.Defs[id]; obj != nil {
				f.defIdent[obj] = id
			}
		}
		return true
	})
	f.low = low
	f.used = f.low.Used
	d := fn.Decl
	body, err := f.stmts(d.Body.List, fn.Body.Stmts, nil)
	if err != nil {
		return nil, nil, err
	}
	body = append(f.prologue, body...)
	c := []jen.Code{
		jen.Commentf("%s is the fused form of %s (generated from its //soac:fuse directive).", fn.Fuse.Name, fn.Name),
		f.signature().Add(Block(body)),
	}
	c = append(c, f.decls...)
	if d.Recv == nil && d.Type.TypeParams == nil {
		// A spec whose signature changed after generation breaks the
		// build with a message naming this function.
		check := "soacgenRerunGoGenerate_" + fn.Fuse.Name
		sig := jen.Func().Add(f.sub(d.Type.Params, nil))
		if r := d.Type.Results; r != nil {
			sig.Add(f.sub(r, nil))
		}
		c = append(c, jen.Line(),
			jen.Commentf("%s does not compile when the signature of %s no longer matches %s: run go generate.", check, fn.Name, fn.Fuse.Name),
			jen.Func().Id(check).Params(sig).Block(),
			jen.Line(),
			jen.Func().Id("_").Params().Custom(jen.Options{Open: "{", Close: "}"}, jen.Id(check).Call(jen.Id(fn.Name))))
	}
	if g.unreserved != "" {
		return nil, nil, fmt.Errorf("internal error: generated code qualifies names with %s, which a local of the spec may shadow (add it to rename.go's qualifiers)", g.unreserved)
	}
	return c, f, nil
}

// signature returns "func (recv) NAME[type params](params) results" with
// the spec's receiver, type parameters, parameters and results.
func (f *Func) signature() *jen.Statement {
	d := f.fn.Decl
	c := jen.Func()
	if d.Recv != nil {
		c.Add(f.sub(d.Recv, nil))
	}
	c.Id(f.fn.Fuse.Name)
	if tp := d.Type.TypeParams; tp != nil {
		c.Add(f.sub(tp, nil))
	}
	c.Add(f.sub(d.Type.Params, nil))
	if r := d.Type.Results; r != nil {
		c.Add(f.sub(r, nil))
	}
	return c
}

// Name returns the Go name of v in generated code.
func (f *Func) Name(v *ir.Var) string {
	if n, ok := f.rebind[v]; ok {
		return n
	}
	if n, ok := f.names[v]; ok {
		return n
	}
	n := v.Name
	if v.Obj == nil || v.Obj.Name() != v.Name {
		n = f.Fresh("t")
	} else if r := f.rename[v.Obj]; r != "" {
		n = r
	}
	f.names[v] = n
	return n
}

// body generates the body of a function literal. A body may be generated
// more than once (a lambda inlined into a fused loop and passed to the
// runtime in the unfused fallback): the temporaries it evaluates operands,
// function values and inputs into are local to each copy.
func (f *Func) body(list []ast.Stmt, items []ir.Stmt, ret *retCtx) (Stmts, error) {
	op, fn, rb := clone(f.opText), clone(f.funText), clone(f.rebind)
	defer func() { f.opText, f.funText, f.rebind = op, fn, rb }()
	return f.stmts(list, items, ret)
}

func clone[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// stmts generates a statement list whose IR statements are items.
func (f *Func) stmts(list []ast.Stmt, items []ir.Stmt, ret *retCtx) (Stmts, error) {
	var c Stmts
	i := 0
	for _, s := range list {
		j := i
		for j < len(items) && s.Pos() <= items[j].Pos() && items[j].Pos() < s.End() {
			j++
		}
		if err := f.stmt(&c, s, items[i:j], ret, ""); err != nil {
			return nil, err
		}
		i = j
	}
	if i != len(items) {
		return nil, fmt.Errorf("internal error: IR statement at %s not matched to the source", f.fset.Position(items[i].Pos()))
	}
	return c, nil
}

// stmt generates one Go statement s whose IR statements are items; label
// is the label to put on the statement itself.
func (f *Func) stmt(c *Stmts, s ast.Stmt, items []ir.Stmt, ret *retCtx, label string) error {
	lab := func() {
		if label != "" {
			c.Add(labelStmt(label))
		}
	}
	switch s := s.(type) {
	case *ast.BlockStmt:
		lab()
		inner, err := f.stmts(s.List, items, ret)
		if err != nil {
			return err
		}
		c.Add(Block(inner))
		return nil
	case *ast.LabeledStmt:
		return f.stmt(c, s.Stmt, items, ret, s.Label.Name)
	case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.ForStmt, *ast.RangeStmt:
		return f.compound(c, s, items, ret, label)
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if ok && gd.Tok == token.VAR && len(items) > 0 {
			// The IR has the specs' statements in order; a spec whose
			// names are not all SOAC results ends with a Plain of the
			// whole declaration.
			j := 0
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				var its []ir.Stmt
				bound := map[types.Object]bool{}
				for j < len(items) && spec.Pos() <= itemPos(items[j]) && itemPos(items[j]) < spec.End() && !isFinal(items[j], s) {
					if soac, ok := items[j].(*ir.SOAC); ok && soac.Out != nil && soac.Out.Obj != nil {
						bound[soac.Out.Obj] = true
					}
					its = append(its, items[j])
					j++
				}
				all := len(vs.Values) > 0
				for _, id := range vs.Names {
					if !bound[f.info.Defs[id]] {
						all = false
					}
				}
				if !all && j < len(items) && isFinal(items[j], s) {
					its = append(its, items[j])
					j++
				}
				if err := f.simple(c, s, vs, its, ret, vs.Names); err != nil {
					return err
				}
				// A variable declared without a value that the generated
				// code may never read (unreadInCode) is marked used so
				// that it compiles.
				if len(vs.Values) == 0 {
					for _, id := range vs.Names {
						if id.Name != "_" && f.unreadInCode(f.info.Defs[id]) {
							c.Add(AssignTo("_", jen.Id(f.localName(id))))
						}
					}
				}
			}
			return nil
		}
	}
	lab()
	var idents []*ast.Ident
	if as, ok := s.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				idents = append(idents, id)
			}
		}
	}
	if err := f.simple(c, s, s, items, ret, idents); err != nil {
		return err
	}
	// A variable this statement declares as it is written (x := y) that
	// the generated code may never read (unreadInCode) is marked used so
	// that it compiles.
	// (A statement with SOAC calls in it has its declarations handled by
	// simple and unbind.)
	plain := true
	for _, it := range items {
		if _, ok := it.(*ir.SOAC); ok {
			plain = false
		}
	}
	if plain {
		for _, id := range idents {
			if id.Name != "_" && f.unreadInCode(f.info.Defs[id]) {
				c.Add(AssignTo("_", jen.Id(f.localName(id))))
			}
		}
	}
	return nil
}

// unreadInCode reports whether the generated code may never read the Go
// variable obj, which Go rejects as "declared and not used": some SOAC
// result that fusion keeps internal (never materialised) was an
// assignment to it, or every read of it is one fusion replaced
// (readByName).
func (f *Func) unreadInCode(obj types.Object) bool {
	for v := range f.internal {
		if v.Obj != nil && v.Obj == obj {
			return true
		}
	}
	return !f.readByName(obj)
}

// itemPos is the position of the source an IR statement comes from.
func itemPos(it ir.Stmt) token.Pos {
	if p, ok := it.(*ir.Plain); ok && p.Hoisted != nil {
		return p.Hoisted.Pos()
	}
	return it.Pos()
}

// isFinal reports whether it is the Plain that evaluates the rest of s.
func isFinal(it ir.Stmt, s ast.Stmt) bool {
	p, ok := it.(*ir.Plain)
	return ok && p.Node == s && p.Hoisted == nil
}

// simple generates a simple statement (or one var spec, node) from its IR
// items. When no Plain evaluates the rest of the statement, the SOAC
// statements are the whole assignment: the variables it declares (idents)
// are declared here and the kernels assign them.
func (f *Func) simple(c *Stmts, s ast.Stmt, node ast.Node, items []ir.Stmt, ret *retCtx, idents []*ast.Ident) error {
	if len(items) == 0 {
		if r, ok := s.(*ast.ReturnStmt); ok && ret != nil {
			f.ret(c, r, nil, ret)
			return nil
		}
		c.Add(f.sub(node, nil))
		return nil
	}
	final := false
	for _, it := range items {
		if p, ok := it.(*ir.Plain); ok && p.Hoisted == nil {
			final = true
		}
	}
	if !final {
		for _, id := range idents {
			obj := f.info.Defs[id]
			if obj == nil || id.Name == "_" {
				continue
			}
			// A value of the variable that a kernel keeps internal is
			// read nowhere in the generated code: where that was its only
			// read, the declaration alone would not compile ("declared
			// and not used"), so it is marked used.
			need, internal := false, false
			for _, v := range f.fn.Vars {
				if v.Obj != obj {
					continue
				}
				if f.internal[v] {
					internal = true
					continue
				}
				need = true
			}
			if !need {
				continue
			}
			c.Add(VarDecl(f.localName(id), f.Type(obj.Type()), nil))
			if internal || !f.readByName(obj) {
				c.Add(AssignTo("_", jen.Id(f.localName(id))))
			}
		}
	}
	var after Stmts
	if final {
		var restore func()
		after, restore = f.unbind(c, s, items)
		defer restore()
	}
	sb := f.newSubst(items)
	saved := f.cur
	f.cur = sb
	defer func() { f.cur = saved }()
	defer func() { c.Add(after...) }()
	for _, it := range items {
		switch it := it.(type) {
		case *ir.Plain:
			if it.Hoisted != nil {
				f.hoist(c, it, sb)
				continue
			}
			if r, ok := s.(*ast.ReturnStmt); ok && ret != nil {
				f.ret(c, r, sb, ret)
				continue
			}
			if dn, ok := node.(*ast.ValueSpec); ok {
				c.Add(jen.Var().Add(f.sub(dn, sb)))
				continue
			}
			c.Add(f.sub(s, sb))
		case *ir.SOAC:
			if err := f.soacStmt(c, it); err != nil {
				return err
			}
			if !final {
				f.assignLater(c, it)
			}
		case *ir.Closure:
		default:
			return fmt.Errorf("internal error: unexpected %T in a simple statement at %s", it, f.fset.Position(it.Pos()))
		}
	}
	return nil
}

// unbind handles the SOAC calls of a statement with more to evaluate (a
// final Plain) that the IR binds directly to a variable the statement
// assigns ("i, s := 0, soac.Reduce(...)"): written to the variable where
// its kernel runs, the result would precede the statement's declaration
// of it, or its other operands' reads of its old value. A result whose
// kernel runs here is computed into a temporary, which the statement
// then assigns; one whose kernel runs later is assigned there, and a
// statement declaring the variable gives it its zero value meanwhile
// (an assignment leaves it as it is). unbind emits the temporaries'
// declarations and returns what follows the statement, and the function
// that gives the variables their names back.
func (f *Func) unbind(c *Stmts, s ast.Stmt, items []ir.Stmt) (after Stmts, restore func()) {
	declares := false
	switch s := s.(type) {
	case *ast.AssignStmt:
		declares = s.Tok == token.DEFINE
	case *ast.DeclStmt:
		declares = true
	}
	here := map[ir.Stmt]bool{}
	for _, it := range items {
		here[it] = true
	}
	type name struct {
		v   *ir.Var
		old string
		had bool
	}
	var renamed []name
	for _, it := range items {
		soac, ok := it.(*ir.SOAC)
		if !ok || soac.Out == nil || soac.Out.Obj == nil {
			continue
		}
		v := soac.Out
		ks := f.kOf[soac]
		runsHere := len(ks) > 0
		for _, k := range ks {
			runsHere = runsHere && here[k.At]
		}
		if _, ok := f.later[v]; ok && !runsHere {
			f.zeroed[soac.Call] = Id(f.Name(v)) // computed by its kernel already
			continue
		}
		if !runsHere {
			if declares {
				f.zeroed[soac.Call] = jen.Op("*").New(f.Type(v.Type))
				if f.internal[v] {
					after.Add(AssignTo("_", Id(f.Name(v))))
				}
			}
			continue
		}
		old, had := f.names[v]
		renamed = append(renamed, name{v, old, had})
		t := f.Fresh("t")
		c.Add(VarDecl(t, f.Type(v.Type), nil))
		f.names[v] = t
	}
	return after, func() {
		for _, r := range renamed {
			if r.had {
				f.names[r.v] = r.old
			} else {
				delete(f.names, r.v)
			}
		}
	}
}
