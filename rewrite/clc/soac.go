package clc

// This file translates SOAC calls nested in a lambda into sequential loops
// inside the work-item: Reduce over a slice or over a Map, Map2 or Map3
// of slices (a redomap: the mapped array is never stored), Iota and
// Replicate as inputs, and a Map or Scan returned as a slice result,
// written through the function's out view. Map2 and Map3 check their
// lengths first and flag a panic when they differ, as runtime/soac
// panics. It does not translate Filter or the streams (their results
// have no length known before the loop; refused), nor parallelise:
// the backend decides what runs in parallel.

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// soacPath is the import path of the combinators.
const soacPath = "github.com/soacgen/soacgen/runtime/soac"

// source is an array a nested loop reads: its length and its element at
// an index, both C expressions valid after the statements written so far.
type source struct {
	n    string
	elem func(i string) val
}

// nested translates a SOAC call used as a value: only Reduce has a
// scalar result.
func (f *fn) nested(name string, e *ast.CallExpr) val {
	if name != "Reduce" {
		f.fail(e.Pos(), "nested soac."+name, "only Reduce is translated as a value; Map, Map2, Map3 and Scan inside a lambda feed a Reduce or are returned")
		return val{"0", scalars[types.Int64]}
	}
	src := f.source(e.Args[0])
	ne := f.expr(e.Args[1])
	t := f.typ(f.info.TypeOf(e), e.Pos())
	op := f.lambdaArg(e.Args[2])
	if f.failed() {
		return val{"0", t}
	}
	acc := f.temp()
	f.w.line("%s %s = %s;", t.C, acc, f.convertTo(ne, t))
	i := f.temp()
	f.w.open("for (long %s = 0; %s < %s; %s++) {", i, i, src.n, i)
	x := src.elem(i)
	f.w.line("%s = %s;", acc, op(acc, x.c))
	f.w.close("}")
	return val{acc, t}
}

// source translates the array argument of a nested SOAC.
func (f *fn) source(e ast.Expr) source {
	bad := source{n: "0", elem: func(string) val { return val{"0", scalars[types.Int64]} }}
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		if fn, ok := calleeFunc(f.info, call); ok && fn.Pkg() != nil && fn.Pkg().Path() == soacPath {
			switch fn.Name() {
			case "Map", "Map2", "Map3":
				k := len(call.Args) - 1
				srcs := make([]source, k)
				for j := range k {
					srcs[j] = f.source(call.Args[j])
				}
				g := f.lambdaArg(call.Args[k])
				t := f.typ(f.info.TypeOf(call).Underlying().(*types.Slice).Elem(), call.Pos())
				n := f.temp()
				f.w.line("const long %s = %s;", n, srcs[0].n)
				if k > 1 {
					var conds []string
					for _, s := range srcs[1:] {
						conds = append(conds, fmt.Sprintf("%s != %s", s.n, n))
					}
					f.u.helper("soac__panic", panicHelper)
					f.w.open("if (%s) {", strings.Join(conds, " || "))
					f.w.line("soac__panic(soac__err, %d);", f.u.site(call.Pos(), "soac."+fn.Name()+": slices of unequal lengths"))
					if f.result != nil {
						f.w.line("return %s;", f.zeroResult())
					}
					f.w.close("}")
				}
				return source{n: n, elem: func(i string) val {
					args := make([]string, k)
					for j, s := range srcs {
						args[j] = s.elem(i).c
					}
					return val{g(args...), t}
				}}
			case "Iota":
				n := f.spill(f.expr(call.Args[0]))
				f.negativeLength(n.c, call)
				return source{n: n.c, elem: func(i string) val { return val{i, scalars[types.Int]} }}
			case "Replicate":
				n := f.spill(f.expr(call.Args[0]))
				v := f.spill(f.expr(call.Args[1]))
				f.negativeLength(n.c, call)
				return source{n: n.c, elem: func(string) val { return v }}
			}
			f.fail(call.Pos(), "nested soac."+fn.Name(), "only Map, Map2, Map3, Iota and Replicate feed a nested Reduce or a returned slice")
			return bad
		}
	}
	t := f.typ(f.info.TypeOf(e), e.Pos())
	x := f.spill(f.expr(e))
	switch t.Kind {
	case Slice:
		return source{n: x.c + ".n", elem: func(i string) val { return val{fmt.Sprintf("%s.p[%s]", x.c, i), t.Elem} }}
	case Slice2:
		row := f.sliceOf(t)
		return source{n: x.c + ".n", elem: func(i string) val {
			return val{fmt.Sprintf("%s__mk(%s.p + %s.off[%s], %s.off[%s + 1] - %s.off[%s])", row.C, x.c, x.c, i, x.c, i, x.c, i), row}
		}}
	}
	if !f.failed() {
		f.fail(e.Pos(), "SOAC input of type "+t.C, "not a slice")
	}
	return bad
}

// negativeLength flags Iota's and Replicate's panic on a negative length.
func (f *fn) negativeLength(n string, call *ast.CallExpr) {
	f.u.helper("soac__panic", panicHelper)
	f.w.line("if (%s < 0) soac__panic(soac__err, %d);", n, f.u.site(call.Pos(), "negative length"))
}

// calleeFunc returns the function a call statically calls.
func calleeFunc(info *types.Info, call *ast.CallExpr) (*types.Func, bool) {
	var id *ast.Ident
	switch fe := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fe
	case *ast.SelectorExpr:
		id = fe.Sel
	case *ast.IndexExpr:
		return calleeFunc(info, &ast.CallExpr{Fun: fe.X})
	case *ast.IndexListExpr:
		return calleeFunc(info, &ast.CallExpr{Fun: fe.X})
	}
	if id == nil {
		return nil, false
	}
	fn, ok := info.Uses[id].(*types.Func)
	return fn, ok
}

// lambdaArg translates the function argument of a nested SOAC into a C
// function and returns how to call it on C argument expressions: a
// function literal (its captures passed from this function's scope), a
// declared function, or a math function.
func (f *fn) lambdaArg(e ast.Expr) func(args ...string) string {
	fail := func(args ...string) string { return "0" }
	switch x := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		sig := f.info.TypeOf(x).(*types.Signature)
		inner := newFn(f.u, f.info, f, sig, x.Pos(), x.End(), true)
		tf, err := inner.translate(f.u.funcName("soac__lambda"), x.Type, x.Body)
		if err != nil {
			f.w.fail(err)
			return fail
		}
		if tf.Result != nil && tf.Result.IsView() {
			f.fail(x.Pos(), "nested lambda returning a slice", "a work-item has no memory for the slices it would return")
			return fail
		}
		var caps []string
		for _, c := range tf.Captures {
			caps = append(caps, f.varRef(c.Var, x.Pos()).c)
		}
		return func(args ...string) string {
			all := append(append(append([]string(nil), args...), caps...), "soac__err")
			return fmt.Sprintf("%s(%s)", tf.Name, strings.Join(all, ", "))
		}
	case *ast.Ident, *ast.SelectorExpr:
		var id *ast.Ident
		if s, ok := x.(*ast.SelectorExpr); ok {
			if sel := f.info.Selections[s]; sel != nil {
				f.fail(e.Pos(), "method value "+s.Sel.Name, "method values are not translated as lambdas")
				return fail
			}
			id = s.Sel
		} else {
			id = x.(*ast.Ident)
		}
		fn, ok := f.info.Uses[id].(*types.Func)
		if !ok {
			f.fail(e.Pos(), "function value "+id.Name, "a lambda must be a function literal or a declared function")
			return fail
		}
		if fn.Pkg() != nil && fn.Pkg().Path() == "math" {
			return func(args ...string) string {
				vs := make([]val, len(args))
				for i, a := range args {
					vs[i] = val{a, scalars[types.Float64]}
				}
				return f.mathApply(fn.Name(), vs, e.Pos()).c
			}
		}
		tf, err := f.u.declared(fn, e.Pos())
		if err != nil {
			f.w.fail(err)
			return fail
		}
		if tf.Result != nil && tf.Result.IsView() {
			f.fail(e.Pos(), "nested lambda returning a slice", "a work-item has no memory for the slices it would return")
			return fail
		}
		return func(args ...string) string {
			return fmt.Sprintf("%s(%s, soac__err)", tf.Name, strings.Join(args, ", "))
		}
	}
	f.fail(e.Pos(), "lambda", "a nested SOAC's function must be a function literal or a declared function")
	return fail
}

// returnSlice writes the return of a slice result: the elements of a
// nested Map (or any slice view) or the prefixes of a nested Scan go
// through the out view, which must have room for them.
func (f *fn) returnSlice(e ast.Expr) {
	var src source
	scan := false
	var acc string
	var op func(...string) string
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		if fn, ok := calleeFunc(f.info, call); ok && fn.Pkg() != nil && fn.Pkg().Path() == soacPath && fn.Name() == "Scan" {
			scan = true
			src = f.source(call.Args[0])
			ne := f.expr(call.Args[1])
			op = f.lambdaArg(call.Args[2])
			acc = f.temp()
			f.w.line("%s %s = %s;", f.result.Elem.C, acc, f.convertTo(ne, f.result.Elem))
		}
	}
	if !scan {
		src = f.source(e)
	}
	if f.failed() {
		return
	}
	n := f.temp()
	f.w.line("const long %s = %s;", n, src.n)
	f.u.helper("soac__panic", panicHelper)
	f.w.open("if (%s > soac__out.n) {", n)
	f.w.line("soac__panic(soac__err, %d);", f.u.site(e.Pos(), "result longer than its device buffer"))
	f.w.line("return %s;", f.zeroResult())
	f.w.close("}")
	i := f.temp()
	f.w.open("for (long %s = 0; %s < %s; %s++) {", i, i, n, i)
	x := src.elem(i)
	if scan {
		f.w.line("%s = %s;", acc, op(acc, x.c))
		f.w.line("soac__out.p[%s] = %s;", i, acc)
	} else {
		f.w.line("soac__out.p[%s] = %s;", i, f.convertTo(x, f.result.Elem))
	}
	f.w.close("}")
	f.w.line("return %s__mk(soac__out.p, %s);", outView(f.result.Elem), n)
}
