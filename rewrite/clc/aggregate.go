package clc

// This file translates the expressions on structs, arrays and slice
// views: field selections (embedded fields included), indexes of arrays,
// slice views and views of rows, and slices of slice views, each checked
// against its bounds as Go checks it (an index out of range is a panic
// site), and struct and array literals.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strings"
)

// selector translates a field access.
func (f *fn) selector(e *ast.SelectorExpr) val {
	sel := f.info.Selections[e]
	if sel == nil {
		obj := f.info.Uses[e.Sel]
		if v, ok := obj.(*types.Var); ok {
			return f.varRef(v, e.Pos())
		}
		f.fail(e.Pos(), "reference to "+e.Sel.Name, "functions are translated only when called")
		return val{"0", scalars[types.Int64]}
	}
	if sel.Kind() != types.FieldVal {
		f.fail(e.Pos(), "method value "+e.Sel.Name, "methods are translated only when called")
		return val{"0", scalars[types.Int64]}
	}
	if sel.Indirect() {
		f.fail(e.Pos(), "field of a pointer", "pointers are not translated")
		return val{"0", scalars[types.Int64]}
	}
	x := f.expr(e.X)
	c, t := f.fieldPath(x.c, x.t, sel.Index(), e.Pos())
	return val{c, t}
}

// fieldPath follows a field index path (embedded fields included).
func (f *fn) fieldPath(base string, t *Type, path []int, pos token.Pos) (string, *Type) {
	for _, i := range path {
		if t.Kind != Struct || i >= len(t.Fields) {
			return f.fail(pos, "field selection", "not a struct value"), scalars[types.Int64]
		}
		base = base + "." + t.Fields[i].C
		t = t.Fields[i].Type
	}
	return base, t
}

// arrayIndex returns the C index expression of a local array, checked
// unless it is a constant (which Go checked at compile time).
func (f *fn) arrayIndex(ix val, t *Type, ie ast.Expr, pos token.Pos) string {
	if tv := f.info.Types[ie]; tv.Value != nil {
		return ix.c
	}
	f.u.helper("soac__panic", panicHelper)
	f.u.helper("soac__ix", "static inline long soac__ix(const long i, const long n, int *e, const int site) { if ((ulong)i >= (ulong)n) { soac__panic(e, site); return 0; } return i; }")
	return fmt.Sprintf("soac__ix((long)(%s), %d, soac__err, %d)", ix.c, t.Len, f.u.site(pos, "index out of range"))
}

// sliceOf returns the view type of the rows of a Slice2.
func (f *fn) sliceOf(t *Type) *Type {
	return f.typ(t.Go.Underlying().(*types.Slice).Elem(), token.NoPos)
}

// index translates x[i] on arrays, slice views and views of rows.
func (f *fn) index(e *ast.IndexExpr) val {
	if v, ok := f.reads[e]; ok {
		return v // an index read: the element the caller passes
	}
	if tv, ok := f.info.Types[e.X]; ok && tv.Type != nil {
		if _, isSig := tv.Type.Underlying().(*types.Signature); isSig {
			f.fail(e.Pos(), "generic instantiation", "generic functions are not translated")
			return val{"0", scalars[types.Int64]}
		}
	}
	xt := f.info.TypeOf(e.X)
	switch u := xt.Underlying().(type) {
	case *types.Map:
		f.fail(e.Pos(), "map index", "maps are not translated")
		return val{"0", scalars[types.Int64]}
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			f.fail(e.Pos(), "string index", "strings are not translated")
			return val{"0", scalars[types.Int64]}
		}
	case *types.Pointer:
		f.fail(e.Pos(), "index through a pointer", "pointers are not translated")
		return val{"0", scalars[types.Int64]}
	}
	t := f.typ(xt, e.X.Pos())
	x := f.expr(e.X)
	ix := f.expr(e.Index)
	if f.failed() {
		return val{"0", scalars[types.Int64]}
	}
	switch t.Kind {
	case Array:
		x = f.spillArray(x)
		return val{fmt.Sprintf("%s.a[%s]", x.c, f.arrayIndex(ix, t, e.Index, e.Lbrack)), t.Elem}
	case Slice:
		name := "soac__ld_" + t.Elem.C
		f.u.helper("soac__panic", panicHelper)
		f.u.helper(name, fmt.Sprintf("static inline %[1]s %[2]s(const %[3]s v, const long i, int *e, const int site) { if ((ulong)i >= (ulong)v.n) { soac__panic(e, site); return %[4]s; } return v.p[i]; }", t.Elem.C, name, t.C, zeroOf(t.Elem)))
		return val{fmt.Sprintf("%s(%s, (long)(%s), soac__err, %d)", name, x.c, ix.c, f.u.site(e.Lbrack, "index out of range")), t.Elem}
	case Slice2:
		row := f.sliceOf(t)
		name := "soac__row_" + t.Elem.C
		f.u.helper("soac__panic", panicHelper)
		f.u.helper(name, fmt.Sprintf("static inline %[1]s %[2]s(const %[3]s v, const long i, int *e, const int site) { if ((ulong)i >= (ulong)v.n) { soac__panic(e, site); return %[1]s__mk(v.p, 0); } return %[1]s__mk(v.p + v.off[i], v.off[i + 1] - v.off[i]); }", row.C, name, t.C))
		return val{fmt.Sprintf("%s(%s, (long)(%s), soac__err, %d)", name, x.c, ix.c, f.u.site(e.Lbrack, "index out of range")), row}
	}
	f.fail(e.Pos(), "index of "+xt.String(), "not translated")
	return val{"0", scalars[types.Int64]}
}

// spillArray binds an array value that is not a name to a temporary, since
// C cannot index the member of a function's result.
func (f *fn) spillArray(x val) val {
	if simple.MatchString(x.c) || strings.HasSuffix(x.c, "]") || regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`).MatchString(x.c) {
		return x
	}
	return f.spill(x)
}

// slice translates xs[lo:hi] of a slice view. The capacity of a captured
// slice is not passed to the device, so hi is checked against its length:
// a slice up to the capacity beyond the length is flagged as a panic,
// and the host's re-run on the CPU gives Go's result.
func (f *fn) slice(e *ast.SliceExpr) val {
	t := f.typ(f.info.TypeOf(e.X), e.X.Pos())
	if t.Kind != Slice || e.Slice3 {
		f.fail(e.Pos(), "slice expression on "+f.info.TypeOf(e.X).String(), "only two-index slices of slices are translated")
		return val{"0", scalars[types.Int64]}
	}
	x := f.spill(f.expr(e.X))
	lo, hi := "0", x.c+".n"
	if e.Low != nil {
		lo = "(long)(" + f.expr(e.Low).c + ")"
	}
	if e.High != nil {
		hi = "(long)(" + f.expr(e.High).c + ")"
	}
	name := "soac__sub_" + t.Elem.C
	f.u.helper("soac__panic", panicHelper)
	f.u.helper(name, fmt.Sprintf("static inline %[1]s %[2]s(const %[1]s v, const long lo, const long hi, int *e, const int site) { if ((ulong)hi > (ulong)v.n || (ulong)lo > (ulong)hi) { soac__panic(e, site); return %[1]s__mk(v.p, 0); } return %[1]s__mk(v.p + lo, hi - lo); }", t.C, name))
	return val{fmt.Sprintf("%s(%s, %s, %s, soac__err, %d)", name, x.c, lo, hi, f.u.site(e.Lbrack, "slice bounds out of range")), t}
}

// composite translates struct and array literals.
func (f *fn) composite(e *ast.CompositeLit) val {
	gt := f.info.TypeOf(e)
	t := f.typ(gt, e.Pos())
	if f.failed() {
		return val{"0", t}
	}
	switch t.Kind {
	case Struct:
		args := make([]string, len(t.Fields))
		for i, fl := range t.Fields {
			args[i] = zeroOf(fl.Type)
		}
		st := gt.Underlying().(*types.Struct)
		for i, el := range e.Elts {
			k := i
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				name := kv.Key.(*ast.Ident).Name
				for j := range st.NumFields() {
					if st.Field(j).Name() == name {
						k = j
					}
				}
				el = kv.Value
			}
			args[k] = f.convertTo(f.expr(el), t.Fields[k].Type)
		}
		return val{fmt.Sprintf("%s__mk(%s)", t.C, strings.Join(args, ", ")), t}
	case Array:
		tmp := f.temp()
		f.w.line("%s %s = %s;", t.C, tmp, zeroOf(t))
		idx := int64(0)
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				n, _ := constant.Int64Val(constant.ToInt(f.info.Types[kv.Key].Value))
				idx = n
				el = kv.Value
			}
			f.w.line("%s.a[%d] = %s;", tmp, idx, f.convertTo(f.expr(el), t.Elem))
			idx++
		}
		return val{tmp, t}
	}
	f.fail(e.Pos(), "composite literal of "+gt.String(), "only struct and array literals are translated")
	return val{"0", t}
}
