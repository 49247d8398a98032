package clc

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
)

// MethodValue translates the method value recv.fn used as a lambda
// (soac.Map(xs, s.Apply)): fn, a method with a value receiver, and a
// function of fn's parameters calling it on the receiver, which it
// captures (recv, a variable of the receiver's type or of a pointer to
// it: the capture has the receiver's type, and the caller passes the
// value recv holds, or points at, where the method value is evaluated).
// pos is the method value's position, for refusals.
func (u *Unit) MethodValue(fn *types.Func, recv *types.Var, pos token.Pos) (*Func, error) {
	sig := fn.Signature()
	if sig.Recv() == nil {
		return nil, u.refuse(pos, "method value "+fn.Name(), "not a method")
	}
	rt := sig.Recv().Type()
	if vt := recv.Type(); !types.Identical(vt, rt) {
		if p, ok := vt.(*types.Pointer); !ok || !types.Identical(p.Elem(), rt) {
			return nil, u.refuse(pos, "method value "+fn.Name(), fmt.Sprintf("its receiver %s has type %s, not %s or a pointer to it", recv.Name(), vt, rt))
		}
	}
	m, err := u.declared(fn, pos)
	if err != nil {
		return nil, err
	}
	if m.Result != nil && m.Result.Kind == Slice {
		return nil, u.refuse(pos, "method value "+fn.Name(), "a method returning a slice is translated only when called")
	}
	f := newFn(u, nil, nil, sig, pos, pos, false)
	ct := f.typ(rt, pos)
	if f.failed() {
		return nil, f.w.err
	}
	out := &Func{Name: u.funcName("soac__method_" + fn.Name()), Pos: u.fset.Position(pos), Result: m.Result}
	var params, args []string
	for i, p := range m.Params[1:] {
		c := fmt.Sprintf("x%d", i)
		out.Params = append(out.Params, Param{Name: p.Name, C: c, Type: p.Type})
		params = append(params, p.Type.C+" "+c)
		args = append(args, c)
	}
	c := "cap__v"
	if plainIdent.MatchString(recv.Name()) {
		c = "cap__" + recv.Name()
	}
	out.Captures = []Capture{{Var: recv, C: c, Type: ct, Pos: u.fset.Position(pos)}}
	params = append(params, "const "+ct.C+" "+c, "int *soac__err")
	out.Proto = proto(out.Name, out.Result, params)
	call := fmt.Sprintf("%s(%s)", m.Name, strings.Join(append(append([]string{c}, args...), "soac__err"), ", "))
	if out.Result == nil {
		u.funcs = append(u.funcs, fmt.Sprintf("%s { %s; }\n", out.Proto, call))
	} else {
		u.funcs = append(u.funcs, fmt.Sprintf("%s { return %s; }\n", out.Proto, call))
	}
	return out, nil
}
