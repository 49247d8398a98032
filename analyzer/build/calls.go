package build

// This file walks call expressions: which combinator or builtin a call
// calls and whether its order matters, SOAC calls (built by soac.go, or
// left in place when the IR cannot express them), conversions, builtins,
// and ordinary calls, whose purity summary gives their impurity and the
// memory they write through their arguments and receiver.

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// soacName returns the combinator a call calls, or "".
func (b *builder) soacName(call *ast.CallExpr) string {
	id := calleeIdent(call.Fun)
	if id == nil {
		return ""
	}
	return combinatorName(b.info.Uses[id])
}

// pureBuiltins are the builtins whose calls have no effect and cannot be
// reordered observably.
var pureBuiltins = map[string]bool{
	"len": true, "cap": true, "make": true, "new": true, "min": true, "max": true,
	"complex": true, "real": true, "imag": true,
}

// effectful reports whether evaluating the call may have an effect whose
// order matters: it is not a conversion or an effect-free builtin.
func (b *builder) effectful(call *ast.CallExpr) bool {
	if tv, ok := b.info.Types[call.Fun]; ok && tv.IsType() {
		return false
	}
	if bi := b.builtin(call); bi != "" {
		return !pureBuiltins[bi]
	}
	return true
}

// builtin returns the name of the builtin a call calls, or "".
func (b *builder) builtin(call *ast.CallExpr) string {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		if bi, ok := b.info.Uses[f].(*types.Builtin); ok {
			return bi.Name()
		}
	case *ast.SelectorExpr: // unsafe.Sizeof and friends
		if bi, ok := b.info.Uses[f.Sel].(*types.Builtin); ok {
			return bi.Name()
		}
	}
	return ""
}

// call walks a call expression.
func (c *ectx) call(e *ast.CallExpr, cond string) {
	b := c.b
	if name := b.soacName(e); name != "" {
		if reason := c.unsupReason(e, name, cond); reason != "" {
			c.unsupportedCall(e, reason)
			return
		}
		v := c.soac(e, name)
		if c.sh.bind[e] == nil {
			addUse(c.eff, v)
		}
		return
	}
	if tv, ok := b.info.Types[e.Fun]; ok && tv.IsType() { // conversion
		for _, a := range e.Args {
			c.expr(a, cond)
		}
		return
	}
	if bi := b.builtin(e); bi != "" {
		for _, a := range e.Args {
			c.expr(a, cond)
		}
		c.builtinEffects(e, bi)
		return
	}
	c.fun(e.Fun, cond)
	for _, a := range e.Args {
		c.expr(a, cond)
	}
	ce := b.pur.Call(e)
	written, exact := c.writtenArgs(e, ce.WritesArgs)
	// A call whose only effect is writing memory reachable from its
	// arguments (sort.Ints(ks), fill(buf, v), st.add(x)) is no side
	// effect beyond those writes, which Writes records: it blocks only
	// what reads or writes that memory. Any other impure call is impure.
	if !ce.Purity.Pure && !(ce.ArgWritesOnly && !ce.WritesGlobal && exact) {
		r := ce.Purity.Reason
		if r == "" {
			r = "calls " + types.ExprString(e.Fun) + ", which is not known to be pure"
		}
		pos := ce.Purity.Pos
		if !pos.IsValid() {
			pos = e.Pos()
		}
		setImpure(c.eff, r, pos)
	}
	for _, a := range written {
		if a == nil {
			c.writeReceiver(e.Fun)
		} else {
			c.writeThrough(a)
		}
	}
	if ce.WritesGlobal {
		c.eff.WritesGlobal = true
	}
	if ce.NoReturn {
		c.eff.Exits = true
	}
}

// writtenArgs returns the argument expressions of call e that the callee's
// parameters ws (-1: the receiver) receive: for the variadic parameter
// every argument it collects, for a method expression's receiver the first
// argument; nil stands for a method value's receiver (writeReceiver). exact
// is false when some parameter of ws cannot be matched to the arguments
// that way.
func (c *ectx) writtenArgs(e *ast.CallExpr, ws []int) (written []ast.Expr, exact bool) {
	b := c.b
	offset := 0
	methodVal := false
	if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok {
		if s := b.info.Selections[sel]; s != nil {
			switch s.Kind() {
			case types.MethodExpr:
				offset = 1
			case types.MethodVal:
				methodVal = true
			}
		}
	}
	sig, _ := typeUnder(b.info.TypeOf(e.Fun)).(*types.Signature)
	exact = sig != nil
	for _, i := range ws {
		switch {
		case i == -1 && methodVal:
			written = append(written, nil)
		case i == -1 && offset == 1 && len(e.Args) > 0:
			written = append(written, e.Args[0])
		case i == -1:
			exact = false
		case sig != nil && sig.Variadic() && i == sig.Params().Len()-1-offset && !e.Ellipsis.IsValid():
			if i+offset <= len(e.Args) {
				written = append(written, e.Args[i+offset:]...)
			}
		case i+offset < len(e.Args):
			written = append(written, e.Args[i+offset])
		default:
			exact = false
		}
	}
	return written, exact
}

// typeUnder returns t's underlying type, nil-safe.
func typeUnder(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// unsupReason returns why the SOAC call e cannot be put into the IR, or "".
func (c *ectx) unsupReason(e *ast.CallExpr, name, cond string) string {
	switch {
	case c.b.noSOAC != "":
		return c.b.noSOAC
	case cond != "":
		return cond
	case c.sh.unsup[e] != "":
		return c.sh.unsup[e]
	case len(e.Args) != arity[name] || e.Ellipsis.IsValid():
		return "unexpected arguments"
	}
	return ""
}

// arity is the number of arguments of each combinator.
var arity = map[string]int{
	"Map": 2, "Map2": 3, "Map3": 4, "Reduce": 3, "Scan": 3, "Filter": 2,
	"StreamMap": 2, "StreamRed": 3, "Iota": 1, "Replicate": 2,
}

// fun walks the function operand of a call: the receiver of a method, the
// variable holding a function value, a literal called in place.
func (c *ectx) fun(f ast.Expr, cond string) {
	b := c.b
	u := ast.Unparen(f)
	switch x := u.(type) {
	case *ast.IndexExpr:
		if _, ok := b.info.Instances[calleeIdent(x)]; ok {
			u = ast.Unparen(x.X)
		}
	case *ast.IndexListExpr:
		u = ast.Unparen(x.X)
	}
	switch x := u.(type) {
	case *ast.Ident:
		if _, ok := b.info.Uses[x].(*types.Func); ok {
			return
		}
	case *ast.SelectorExpr:
		if sel := b.info.Selections[x]; sel == nil {
			if _, ok := b.info.Uses[x.Sel].(*types.Func); ok {
				return
			}
		}
	}
	c.expr(u, cond)
}

// builtinEffects records the effects of a builtin call.
func (c *ectx) builtinEffects(e *ast.CallExpr, name string) {
	switch name {
	case "append", "copy", "clear", "delete":
		if len(e.Args) > 0 {
			c.writeThrough(e.Args[0])
		}
	case "close":
		setImpure(c.eff, "closes a channel", e.Pos())
	case "print", "println":
		setImpure(c.eff, "calls "+name+" (I/O)", e.Pos())
	case "recover":
		setImpure(c.eff, "calls recover", e.Pos())
	case "panic":
		c.eff.Exits = true
	}
}

// writeThrough records that a callee may write the memory the value of
// argument a refers to; when a is &x of a variable x, x itself changes.
func (c *ectx) writeThrough(a ast.Expr) {
	b := c.b
	srcs, unknown := b.sources(a)
	for _, v := range srcs {
		addWrite(c.eff, v)
	}
	if unknown {
		c.eff.WritesGlobal = true
	}
	if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
		if id := valueRoot(b.info, u.X); id != nil {
			c.redefine(b.info.ObjectOf(id), a.Pos())
		}
	}
}

// writeReceiver records that a method may write its receiver.
func (c *ectx) writeReceiver(f ast.Expr) {
	b := c.b
	sel, ok := ast.Unparen(f).(*ast.SelectorExpr)
	if !ok {
		return
	}
	s := b.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return
	}
	c.writeThrough(sel.X)
	if ptrRecv(s.Obj()) && !isPointer(b.info.TypeOf(sel.X)) {
		if id := valueRoot(b.info, sel.X); id != nil {
			c.redefine(b.info.ObjectOf(id), sel.Pos())
		}
	}
}

// unsupportedCall records a SOAC call the IR cannot express and walks it as
// an ordinary call with conservative effects.
func (c *ectx) unsupportedCall(e *ast.CallExpr, reason string) {
	b := c.b
	b.fn.Unsupported = append(b.fn.Unsupported, ir.Unsupported{Call: e, Expr: e, Reason: reason})
	for _, a := range e.Args {
		c.expr(a, reason)
	}
	setImpure(c.eff, "calls "+types.ExprString(e.Fun)+", which the IR does not model here: "+reason, e.Pos())
	c.eff.WritesGlobal = true
	for _, a := range e.Args {
		c.writeThrough(a)
	}
}
