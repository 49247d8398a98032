package clc

// This file translates calls: conversions T(x), the builtins len, min and
// max, math functions (math.go), nested SOACs (soac.go) and calls of
// declared functions and methods, each translated once (unit.go) with the
// panic flag as its last argument. Calls of function values, interface
// methods, promoted or pointer methods and functions returning slices are
// refused.

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// call translates conversions, builtins, math functions, nested SOACs and
// calls of translatable functions and methods.
func (f *fn) call(e *ast.CallExpr) val {
	if tv, ok := f.info.Types[e.Fun]; ok && tv.IsType() {
		t := f.typ(tv.Type, e.Pos())
		x := f.expr(e.Args[0])
		if f.failed() {
			return val{"0", t}
		}
		if !t.IsScalar() || !x.t.IsScalar() {
			return val{x.c, t}
		}
		return val{f.conversion(x, t), t}
	}
	if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok {
		if b, ok := f.info.Uses[id].(*types.Builtin); ok {
			return f.builtin(b.Name(), e)
		}
	}
	callee := typeutil.Callee(f.info, e)
	fn, ok := callee.(*types.Func)
	if !ok {
		if _, lit := ast.Unparen(e.Fun).(*ast.FuncLit); lit {
			f.fail(e.Pos(), "call of a function literal", "write the code inline")
		} else {
			f.fail(e.Pos(), "call of function value "+types.ExprString(e.Fun), "only calls of declared functions are translated")
		}
		return val{"0", scalars[types.Int64]}
	}
	if fn.Pkg() != nil {
		switch fn.Pkg().Path() {
		case "math":
			return f.mathCall(fn.Name(), e)
		case soacPath:
			return f.nested(fn.Name(), e)
		}
	}
	sig := fn.Signature()
	if sig.Recv() != nil {
		if _, isIface := sig.Recv().Type().Underlying().(*types.Interface); isIface {
			f.fail(e.Pos(), "call of interface method "+fn.Name(), "interfaces are not translated")
			return val{"0", scalars[types.Int64]}
		}
	}
	tf, err := f.u.declared(fn, e.Pos())
	if err != nil {
		f.w.fail(err)
		return val{"0", scalars[types.Int64]}
	}
	if tf.Result != nil && tf.Result.IsView() {
		f.fail(e.Pos(), "call of "+fn.FullName(), "a called function returning a slice is not translated")
		return val{"0", scalars[types.Int64]}
	}
	var args []string
	if sig.Recv() != nil {
		sel := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if s := f.info.Selections[sel]; s != nil && (s.Indirect() || len(s.Index()) > 1) {
			f.fail(e.Pos(), "call of promoted or pointer method "+fn.Name(), "not translated")
			return val{"0", scalars[types.Int64]}
		}
		args = append(args, f.expr(sel.X).c)
	}
	off := len(args) // the receiver is the first parameter of a method
	for i, a := range e.Args {
		args = append(args, f.convertTo(f.expr(a), tf.Params[off+i].Type))
	}
	args = append(args, "soac__err")
	return val{fmt.Sprintf("%s(%s)", tf.Name, strings.Join(args, ", ")), tf.Result}
}

// builtin translates len, min and max; other builtins are refused.
func (f *fn) builtin(name string, e *ast.CallExpr) val {
	switch name {
	case "len":
		x := f.expr(e.Args[0])
		switch x.t.Kind {
		case Array:
			return val{fmt.Sprint(x.t.Len), scalars[types.Int]}
		case Slice, Slice2:
			return val{x.c + ".n", scalars[types.Int]}
		}
	case "min", "max":
		return f.minMax(name, e)
	}
	f.fail(e.Pos(), "builtin "+name, "not translated (allocation, maps, channels, complex numbers and capacities are not available on the device)")
	return val{"0", scalars[types.Int64]}
}
