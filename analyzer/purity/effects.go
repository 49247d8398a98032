package purity

import (
	"go/ast"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// This file finds the effect of calling a function: from the package's own
// summaries, the standard-library table, imported facts, or (for anything
// else) the conservative unknown effect. It does not look at call sites.

// funcEffect returns the effect of calling fn from the body from (nil for
// package-level initialisers or after Run).
func (s *state) funcEffect(fn *types.Func, from *fnode) *calleeEffect {
	fn = fn.Origin()
	sig := fn.Type().(*types.Signature)
	name := s.funcName(fn)
	if fn.Pkg() == s.pass.Pkg && !s.tableOnly {
		if n := s.byFunc[fn]; n != nil {
			ce := factEffect(name, n.sum.FuncFact, sig)
			if from != nil && n.scc == from.scc {
				ce.level = levelSCC
			}
			return ce
		}
		return factEffect(name, s.declFact(fn), sig)
	}
	if ce, ok := s.external[fn]; ok {
		return ce
	}
	var ce *calleeEffect
	var fact FuncFact
	if fn.Pkg() == nil {
		ce = unknownEffect(name, sig)
	} else if row, ok := LookupStd(fn.Pkg().Path(), methodKey(fn)); ok {
		ce = rowEffect(row, name, sig)
	} else if !s.done && s.pass.ImportObjectFact(fn, &fact) {
		ce = factEffect(name, fact, sig)
	} else {
		ce = unknownEffect(name, sig)
	}
	if !s.done {
		s.external[fn] = ce
	}
	return ce
}

// factEffect is the effect of a function with the summary f.
func factEffect(name string, f FuncFact, sig *types.Signature) *calleeEffect {
	ce := &calleeEffect{
		name:         name,
		pure:         f.Pure,
		own:          f.Reason,
		mayPanic:     f.MayPanic,
		writesGlobal: f.WritesGlobal || (!f.Pure && len(f.WritesArgs) == 0),
		writesArgs:   f.WritesArgs,
		callsArgs:    f.CallsParams,
		variadic:     variadicIndex(sig),
		fresh:        f.FreshResults,
	}
	if !f.Pure {
		ce.reason = "calls " + name + ", which " + f.Reason
	}
	return ce
}

// rowEffect is the effect of a function whose table row is r.
func rowEffect(r StdFunc, name string, sig *types.Signature) *calleeEffect {
	ce := &calleeEffect{
		name:         name,
		pure:         r.Impure == "" && len(r.WritesArgs) == 0,
		mayPanic:     r.MayPanic,
		writesGlobal: r.Impure != "",
		noRet:        r.NoReturn,
		writesArgs:   r.WritesArgs,
		callsArgs:    r.CallsArgs,
		variadic:     variadicIndex(sig),
		shallow:      true,
		row:          r.Key(),
		safeIf:       r.SafeIf,
	}
	if r.Fresh {
		ce.fresh = []int{0}
	}
	switch {
	case r.Impure != "":
		ce.own = r.Impure
		ce.reason = "calls " + name + " (" + r.Impure + ")"
	case len(r.WritesArgs) > 0:
		ce.own = "writes its arguments"
		ce.reason = "calls " + name + ", which writes its arguments"
	}
	return ce
}

// unknownEffect is the effect of a function with no summary, no fact and no
// table row: it may do anything.
func unknownEffect(name string, sig *types.Signature) *calleeEffect {
	ce := dynamicEffect("calls "+name+", which is not known to be pure", sig)
	ce.name = name
	ce.own = "is not known to be pure"
	return ce
}

// dynamicEffect is the effect of a call that cannot be resolved (a function
// value, an interface method), with the given reason; sig, if known, says
// which arguments it may write.
func dynamicEffect(reason string, sig *types.Signature) *calleeEffect {
	return &calleeEffect{
		name:         "a function value",
		reason:       reason,
		own:          reason,
		mayPanic:     true,
		writesGlobal: true,
		writesArgs:   refParams(sig),
		variadic:     variadicIndex(sig),
	}
}

// litsEffect is the effect of calling one of the literals lits (the values
// of a function variable, or one immediately called literal) from the body
// from.
func (s *state) litsEffect(name string, lits []*ast.FuncLit, from *fnode) *calleeEffect {
	var v verdict
	v.Pure = true
	level := levelDirect
	var sig *types.Signature
	for _, lit := range lits {
		n := s.byLit[lit]
		if n == nil {
			return dynamicEffect("calls a function value "+name+" that cannot be resolved", nil)
		}
		sig = n.sig
		v = join(v, n.sum)
		if !n.sum.Pure && v.Reason == "" {
			v.Reason = n.sum.Reason
		}
		if from != nil && n.scc == from.scc {
			level = levelSCC
		}
	}
	if !v.Pure && v.Reason == "" {
		for _, lit := range lits {
			if r := s.byLit[lit].sum.Reason; r != "" {
				v.Reason = r
				break
			}
		}
	}
	ce := factEffect(name, v.FuncFact, sig)
	ce.level = level
	return ce
}

// funcName names fn for reasons: "f", "T.M", and with the package name for
// functions of other packages: "fmt.Println", "strings.Builder.WriteString".
func (s *state) funcName(fn *types.Func) string {
	name := methodKey(fn)
	if fn.Pkg() != nil && fn.Pkg() != s.pass.Pkg {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}

// methodKey returns "Name" for a function and "Type.Name" for a method, as
// the table names them.
func methodKey(fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return fn.Name()
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if named, ok := types.Unalias(t).(*types.Named); ok {
		return named.Obj().Name() + "." + fn.Name()
	}
	return fn.Name()
}

// ifaceMethodName names an interface method as called: "io.Writer.Write".
func (s *state) ifaceMethodName(fun ast.Expr, m *types.Func) string {
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if t := s.info.TypeOf(sel.X); t != nil {
			return types.TypeString(t, s.qualifier) + "." + m.Name()
		}
	}
	return m.FullName()
}

// qualifier writes package names, omitting the analysed package's.
func (s *state) qualifier(p *types.Package) string {
	if p == s.pass.Pkg {
		return ""
	}
	return p.Name()
}

// refParams returns the parameters of sig (-1: the receiver) whose type can
// reach memory: pointers, slices, maps, channels, interfaces, functions.
func refParams(sig *types.Signature) []int {
	if sig == nil {
		return nil
	}
	var out []int
	if r := sig.Recv(); r != nil && isReference(r.Type()) {
		out = append(out, -1)
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if isReference(sig.Params().At(i).Type()) {
			out = append(out, i)
		}
	}
	return out
}

// isReference reports whether values of t can reach shared memory.
func isReference(t types.Type) bool {
	switch u := under(t).(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Array:
		return isReference(u.Elem())
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if isReference(u.Field(i).Type()) {
				return true
			}
		}
		return false
	}
	return true
}

// variadicIndex returns the index of sig's variadic parameter, or -1.
func variadicIndex(sig *types.Signature) int {
	if sig == nil || !sig.Variadic() {
		return -1
	}
	return sig.Params().Len() - 1
}

// Verdicts is the Analyzer's result: the verdicts on the functions,
// literals and calls of one package. It implements Result; consumers may
// type-assert pass.ResultOf[purity.Analyzer] to Result or to *Verdicts.
//
// (The analysis checker requires ResultType to be the dynamic type of the
// result, so ResultType is *Verdicts rather than the Result interface.)
type Verdicts struct{ s *state }

var _ Result = (*Verdicts)(nil)

// result ends the run and returns its Verdicts.
func (s *state) result() *Verdicts {
	s.done = true
	return &Verdicts{s}
}

// Func implements Result.
func (r *Verdicts) Func(fn *types.Func) ir.Purity {
	s := r.s
	fn = fn.Origin()
	sig := fn.Type().(*types.Signature)
	if n := s.byFunc[fn]; n != nil {
		return unconditional(n.sum, n.sig)
	}
	if sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return ir.Purity{Reason: "is interface method " + fn.FullName() + ", which cannot be resolved", Pos: fn.Pos(), MayPanic: true}
	}
	ce := s.funcEffect(fn, nil)
	v := verdict{FuncFact: FuncFact{Pure: ce.pure, Reason: ce.own, MayPanic: ce.mayPanic, CallsParams: ce.callsArgs}}
	if !ce.pure {
		v.Pos = fn.Pos()
	}
	return unconditional(v, sig)
}

// Lit implements Result.
func (r *Verdicts) Lit(lit *ast.FuncLit) ir.Purity {
	n := r.s.byLit[lit]
	if n == nil {
		return ir.Purity{Reason: "is a function literal outside the analysed package", Pos: lit.Pos(), MayPanic: true}
	}
	return unconditional(n.sum, n.sig)
}

// TableRow returns the key ("pkg.Name", or the builtin's name) of the
// standard-library table row that decided the effect of call, if one did.
func (r *Verdicts) TableRow(call *ast.CallExpr) (string, bool) {
	key, ok := r.s.rows[call]
	return key, ok
}

// Call implements Result.
func (r *Verdicts) Call(call *ast.CallExpr) CallEffect {
	if ce, ok := r.s.calls[call]; ok {
		return ce
	}
	return CallEffect{
		Purity:       ir.Purity{Reason: "is a call outside the analysed package", Pos: call.Pos(), MayPanic: true},
		WritesGlobal: true,
	}
}
