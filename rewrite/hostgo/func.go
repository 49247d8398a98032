package hostgo

// This file holds what a backend reads of the spec being generated
// (Func's accessors), the call of the chain at each kernel's position,
// and the rerun guard a backend's code is wrapped in. It does not choose
// a backend (package rewrite does) nor render a kernel (the backends do,
// with the loops of fused.go).

import (
	"slices"

	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// Spec is the spec function being generated.
func (f *Func) Spec() *ir.Function { return f.fn }

// Backend is the backend the spec asks for: its directive's, else the
// package's default.
func (f *Func) Backend() string { return f.backend }

// Fset is the file set of the spec's package.
func (f *Func) Fset() *token.FileSet { return f.fset }

// Info is the type information of the spec's package.
func (f *Func) Info() *types.Info { return f.info }

// Files are the syntax trees of the spec's package.
func (f *Func) Files() []*ast.File { return f.files }

// AddDecls appends package-level declarations that f's generated code
// needs; they are emitted after its function.
func (f *Func) AddDecls(d ...jen.Code) { f.decls = append(f.decls, d...) }

// kernel generates kernel k at its position through the File's chain.
func (f *Func) kernel(c *Stmts, k *fusion.Kernel) error {
	if err := f.emit(f, c, k); err != nil {
		return err
	}
	f.endDeviceArrays(k)
	return f.err
}

// Lowered returns the lowered form of kernel k.
func (f *Func) Lowered(k *fusion.Kernel) *lower.Kernel { return f.low.Of[k] }

// EmitGuarded emits a backend's code fc for lk. When two members may
// panic, the fused code could meet the second's panic before the first's:
// on a panic the members run again unfused, in the spec's order, and
// panic as the spec does.
func (f *Func) EmitGuarded(c *Stmts, lk *lower.Kernel, fc Stmts, outs map[*ir.Var]string) {
	if !lk.Rerun || lk.Form == lower.Call {
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
func (f *Func) LocalFuncs(lk *lower.Kernel, pos token.Pos) (decls Stmts, restore func()) {
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
func (f *Func) LocalFuncsUsed(lk *lower.Kernel, pos token.Pos) (decls func() Stmts, restore func()) {
	return f.usedFuncs(lk, pos, false)
}

// ChunkFuncs is LocalFuncsUsed for the code of one chunk function, which
// declares the copies at its start: the compiler then sees which literal
// each call in the chunk's loop calls and inlines it, as it does in the
// cpu backend's loop, rather than calling a captured function value per
// element. Literals that capture no variable are copied too (the copy is
// a static function value as well).
func (f *Func) ChunkFuncs(lk *lower.Kernel, pos token.Pos) (decls func() Stmts, restore func()) {
	return f.usedFuncs(lk, pos, true)
}

// usedFuncs makes the copies of LocalFuncsUsed and ChunkFuncs (all).
func (f *Func) usedFuncs(lk *lower.Kernel, pos token.Pos, all bool) (decls func() Stmts, restore func()) {
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
func (f *Func) localFuncs(lk *lower.Kernel, pos token.Pos, all bool) (copies []localCopy, restore func()) {
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

// Plan is the fusion plan of the spec being generated.
func (f *Func) Plan() *fusion.Plan { return f.plan }

// Prologue returns the name of a variable of the generated function
// that a backend's code needs in every call (the opencl backend's
// session of device arrays): the first call for key takes a fresh name
// from key and adds the statements decl returns for it at the start of
// the function; later calls return that name.
func (f *Func) Prologue(key string, decl func(name string) Stmts) string {
	if f.prologueNames == nil {
		f.prologueNames = map[string]string{}
	}
	if n, ok := f.prologueNames[key]; ok {
		return n
	}
	n := f.Fresh(key)
	f.prologueNames[key] = n
	f.prologue.Add(decl(n)...)
	return n
}

// A DeviceArray is an array that a backend's code may leave on a device
// instead of in its Go variable: only kernels read it, and the kernels
// that run on the host get it through Host. The backend whose kernel
// writes it registers it (SetDeviceArray); the chain calls HostInputs
// before every kernel another backend generates.
type DeviceArray struct {
	// Handle is the variable of the backend's code that holds the
	// device's copy.
	Handle string
	// Host, when not nil, returns the statements that make the array's
	// Go variable hold its elements (a no-op when the kernel that writes
	// it ran on the host), naming the variable as the code generated at
	// the call does: a reader's code comes after the statement that
	// assigns the variable, whose code may have computed the array into a
	// temporary (a tuple assignment), so the name where the array was
	// written may no longer be the variable's.
	Host func() Stmts
	// Release frees the device's copy, after Last, the last kernel that
	// reads the array, has run.
	Release Stmts
	Last    *fusion.Kernel
}

// HostCode returns the statements of Host, or none.
func (d *DeviceArray) HostCode() Stmts {
	if d == nil || d.Host == nil {
		return nil
	}
	return d.Host()
}

// SetDeviceArray records that code generated from now on, until the code
// of d.Last, may find v on a device (see DeviceArray); a nil d forgets v.
func (f *Func) SetDeviceArray(v *ir.Var, d *DeviceArray) {
	if f.devArrays == nil {
		f.devArrays = map[*ir.Var]*DeviceArray{}
	}
	if d == nil {
		delete(f.devArrays, v)
		return
	}
	f.devArrays[v] = d
}

// DeviceArrayOf returns what SetDeviceArray recorded of v, or nil.
func (f *Func) DeviceArrayOf(v *ir.Var) *DeviceArray { return f.devArrays[v] }

// endDeviceArrays forgets the device arrays whose last reader is k, once
// k's code is generated: its code released them, and their handles are
// declared in the block of the kernel that wrote them, which a later
// kernel reading the same Var (after a loop or branch holding both, in
// the next round of a loop) may be outside of. Such a kernel reads the
// Go variable, which holds the array wherever one of its readers may
// run later (the residency analysis keeps on the device only arrays
// whose every reader runs until the last).
func (f *Func) endDeviceArrays(k *fusion.Kernel) {
	for v, d := range f.devArrays {
		if d.Last == k {
			delete(f.devArrays, v)
		}
	}
}

// HostInputs adds to c the statements that make k's inputs and
// captures that may be on a device hold their elements in their Go
// variables (k at the top level), then free the
// device's copies that k reads last: the code of a kernel that reads
// its inputs from Go memory comes after them.
func (f *Func) HostInputs(c *Stmts, k *fusion.Kernel) {
	if k.Depth > 0 {
		// Inside a lambda: the enclosing kernel's code downloaded what
		// its lambdas read (its captures), and writing the Go variable
		// here would race between the work-items of a parallel loop.
		return
	}
	// And the slices its lambdas capture.
	vs := slices.Clone(k.Inputs)
	for _, m := range k.SOACs {
		for _, l := range m.Lambdas() {
			for _, v := range l.Free {
				if !slices.Contains(vs, v) {
					vs = append(vs, v)
				}
			}
		}
	}
	for _, v := range vs {
		if d := f.devArrays[v]; d != nil {
			c.Add(d.HostCode()...)
			if d.Last == k {
				c.Add(d.Release...)
			}
		}
	}
}
