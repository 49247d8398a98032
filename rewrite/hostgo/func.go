package hostgo

// This file holds Func, the generator of one spec: its state;
// File.Function, which makes one and generates the spec's function (the
// signature, the body: body.go, and the function that breaks the build
// when the spec's signature changes); the Go names of the spec's
// variables (Name); what a backend reads of the spec being generated
// (Func's accessors); the call of the chain at each kernel's position;
// and the rerun guard a backend's code is wrapped in. It does not choose
// a backend (package rewrite does) nor render a kernel (the backends do,
// with the loops of fused.go).

import (
	"fmt"

	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// Func generates one spec.
type Func struct {
	*File
	fn  *ir.Function
	low *lowered.Function // the plan lowered: every kernel's shape
	// kernels generates each kernel at its position (File.Function).
	kernels  Kernels
	atK      map[ir.Stmt][]*lowered.PlanKernel // kernels by the statement they run at
	kOf      map[*ir.SOAC][]*lowered.PlanKernel
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
	// readNames memoises readByName: the objects the generated code may
	// read by name (namedreads.go), computed once.
	readNames map[types.Object]bool
	// err is the first error met while generating a replacement.
	err error
	// decls are package-level declarations a backend's code needs
	// (AddDecls), emitted after the function.
	decls []jen.Code
}

// Kernels generates the kernels of one spec (package rewrite's chain of
// backends).
type Kernels interface {
	// Kernel generates lk into c, at its position among the spec's
	// statements. Kernels nested in lambdas are generated where their
	// lambda is, each once per copy of its body.
	Kernel(c *Stmts, lk *lowered.Kernel) error
	// Prologue returns the statements the generated function runs
	// before its body, once every kernel is generated.
	Prologue() Stmts
}

// Function returns the declarations generated for the spec of low, its
// lowered plan: NAME and the guard that breaks the build when the
// spec's signature changes. begin returns what generates the kernels,
// given the Func that generates the spec.
func (g *File) Function(low *lowered.Function, begin func(*Func) Kernels) ([]jen.Code, *Func, error) {
	g.resetTaken()
	fn := low.Func
	f := &Func{
		File: g, fn: fn, low: low,
		atK: map[ir.Stmt][]*lowered.PlanKernel{}, kOf: map[*ir.SOAC][]*lowered.PlanKernel{},
		internal: map[*ir.Var]bool{}, used: map[*ir.Var]bool{}, names: map[*ir.Var]string{},
		defIdent: map[types.Object]*ast.Ident{}, opText: map[*ir.Operand]string{}, funText: map[*ir.Lambda]*jen.Statement{}, funRefs: map[*jen.Statement]bool{},
		rebind: map[*ir.Var]string{}, chunkLoops: map[*ast.RangeStmt]*chunkLoop{}, exprRepl: map[ast.Node]*jen.Statement{},
		zeroed: map[*ast.CallExpr]*jen.Statement{}, renameIdent: map[*ast.Ident]string{}, gatherVar: map[gatherKey]string{},
	}
	g.rename, g.unreserved = map[types.Object]string{}, ""
	defer func() { g.rename, g.reserved = nil, nil }()
	if err := f.renameLocals(); err != nil {
		return nil, nil, err
	}
	for _, lk := range low.Kernels {
		k := lk.Src
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
	f.used = low.Used
	f.kernels = begin(f)
	d := fn.Decl
	body, err := f.stmts(d.Body.List, fn.Body.Stmts, nil)
	if err != nil {
		return nil, nil, err
	}
	body = append(f.kernels.Prologue(), body...)
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

// Spec is the spec function being generated.
func (f *Func) Spec() *ir.Function { return f.fn }

// Fset is the file set of the spec's package.
func (f *Func) Fset() *token.FileSet { return f.fset }

// Info is the type information of the spec's package.
func (f *Func) Info() *types.Info { return f.info }

// Files are the syntax trees of the spec's package.
func (f *Func) Files() []*ast.File { return f.files }

// AddDecls appends package-level declarations that f's generated code
// needs; they are emitted after its function.
func (f *Func) AddDecls(d ...jen.Code) { f.decls = append(f.decls, d...) }

// kernel generates kernel k at its position through f.kernels.
func (f *Func) kernel(c *Stmts, k *lowered.PlanKernel) error {
	if err := f.kernels.Kernel(c, f.low.Of[k]); err != nil {
		return err
	}
	return f.err
}

// Lowered returns the lowered form of kernel k.
func (f *Func) Lowered(k *lowered.PlanKernel) *lowered.Kernel { return f.low.Of[k] }

// EmitGuarded emits a backend's code fc for lk. When two members may
// panic, the fused code could meet the second's panic before the first's:
// on a panic the members run again unfused, in the spec's order, and
// panic as the spec does.
func (f *Func) EmitGuarded(c *Stmts, lk *lowered.Kernel, fc Stmts, outs map[*ir.Var]string) {
	if !lk.Rerun || lk.Form == lowered.Call {
		c.Add(fc...)
		return
	}
	e := f.Fresh("e")
	rerun := jen.If(Define(e, jen.Recover()), jen.Id(e).Op("!=").Nil()).Add(Block(Stmts{f.Unfused(lk.Src, outs), jen.Panic(Id(e))}))
	deferred := jen.Defer().Func().Params().Add(Block(Stmts{rerun})).Call()
	c.Add(jen.Func().Params().Add(Block(append(Stmts{deferred}, fc...))).Call())
}

// LocalFuncs prepares code that runs in a closure of its own (the
// parallel backend's chunk functions) for kernel lk at pos: each function
// literal of lk's members that is called through a temporary evaluated
// where its SOAC is written (a literal that may fuse x*y+z, through
// soac.Opaque, or one that cannot be inlined) gets a copy, declared by
// the statements returned, that code rendered until restore is called
// calls instead. Evaluating a literal has no effect and its captures are
// variables, not values, so the copy calls the same code on the same
// variables; a literal is copied only where every name it uses means
// what it means where it is written, and only if it captures a variable
// (one that captures none is a static function value, never allocated).
// The temporary itself is then never
// captured by the closure, so it need not move to the heap when the
// kernel runs sequentially (one allocation per call at n = 1).
func (f *Func) LocalFuncs(lk *lowered.Kernel, pos token.Pos) (decls Stmts, restore func()) {
	copies, restore := f.localFuncs(lk, pos, false)
	for _, c := range copies {
		decls.Add(c.decl...)
	}
	return decls, restore
}

// LocalFuncsUsed is LocalFuncs whose declarations, returned by decls once
// the code is rendered, are only those of the copies that code used: the
// parallel backend's chunk functions declare their own copies
// (ChunkFuncs), so that the copies made for the code around them may be
// used by none.
func (f *Func) LocalFuncsUsed(lk *lowered.Kernel, pos token.Pos) (decls func() Stmts, restore func()) {
	return f.usedFuncs(lk, pos, false)
}

// ChunkFuncs is LocalFuncsUsed for the code of one chunk function, which
// declares the copies at its start: the compiler then sees which literal
// each call in the chunk's loop calls and inlines it, as it does in the
// cpu backend's loop, rather than calling a captured function value per
// element. Literals that capture no variable are copied too (the copy is
// a static function value as well).
func (f *Func) ChunkFuncs(lk *lowered.Kernel, pos token.Pos) (decls func() Stmts, restore func()) {
	return f.usedFuncs(lk, pos, true)
}

// usedFuncs makes the copies of LocalFuncsUsed and ChunkFuncs (all).
func (f *Func) usedFuncs(lk *lowered.Kernel, pos token.Pos, all bool) (decls func() Stmts, restore func()) {
	copies, restore := f.localFuncs(lk, pos, all)
	return func() Stmts {
		var c Stmts
		for _, lc := range copies {
			if f.funRefs[lc.ref] {
				c.Add(lc.decl...)
			}
		}
		return c
	}, restore
}

// localCopy is one copy made by localFuncs: its declaration and the
// expression that calls it (funText's value).
type localCopy struct {
	decl Stmts
	ref  *jen.Statement
}

// localFuncs makes the copies of LocalFuncs, in the order of lk's
// members; with all, also of the literals that capture no variable.
func (f *Func) localFuncs(lk *lowered.Kernel, pos token.Pos, all bool) (copies []localCopy, restore func()) {
	saved := map[*ir.Lambda]*jen.Statement{}
	for _, m := range lk.Members {
		for _, l := range m.SOAC.Lambdas() {
			if _, done := saved[l]; done || l.Kind != ir.FuncLit || l.Lit == nil || l.Body == nil || f.funText[l] == nil || !all && !f.captures(l.Lit) || !f.namesMean(l.Lit, l.Lit, pos) {
				continue
			}
			saved[l] = f.funText[l]
			// The copy's body is generated from the literal, as the
			// temporary's was (FuncExpr reads funText first).
			delete(f.funText, l)
			var decl Stmts
			f.bindFunc(&decl, l)
			copies = append(copies, localCopy{decl, f.funText[l]})
		}
	}
	return copies, func() {
		for l, t := range saved {
			f.funText[l] = t
		}
	}
}

// captures reports whether literal lit uses a variable of the spec's
// function declared outside it.
func (f *Func) captures(lit *ast.FuncLit) bool {
	found := false
	ast.Inspect(lit, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !found {
			if v, ok := f.info.Uses[id].(*types.Var); ok && v.Pkg() == f.pkg && v.Parent() != nil && v.Parent() != f.pkg.Scope() && (v.Pos() < lit.Pos() || v.Pos() >= lit.End()) {
				found = true
			}
		}
		return !found
	})
	return found
}
