package hostgo

// This file lets a lambda whose struct or array result holds a product,
// such as func(x float64) moments { return moments{x, x * x} }, be
// inlined: the generated code rounds each floating-point field and
// element of the result where the lambda is applied (x.f = float64(x.f)),
// as the spec's call of the lambda rounds them, so that no addition of
// the code that reads the result can fuse with the product (doc.go,
// "Floating-point contraction"). fma.go's productRounded accepts such a
// product; this file names the parts and emits the conversions.

import (
	"go/ast"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// maxRoundedParts bounds the floating-point fields and elements of a
// result that the generated code rounds one by one; a larger result's
// lambda is called through soac.Opaque when it may fuse.
const maxRoundedParts = 16

// floatPart is one floating-point field or element of a struct or array
// value: the selectors and indices that reach it from the value, and its
// type.
type floatPart struct {
	path []partStep
	typ  types.Type
}

// partStep selects a field (name) or, when name is "", an array element
// (index).
type partStep struct {
	name  string
	index int
}

// floatParts returns the floating-point and complex fields and elements
// of t, recursively through its struct fields and array elements (not
// through pointers, slices, maps or interfaces, which are not part of the
// value), when t is a struct or array type whose parts generated code in
// package pkg can name: no blank field, no unexported field of another
// package, no type parameter, at most maxRoundedParts of them. ok is false
// for any other type.
func floatParts(pkg *types.Package, t types.Type) (parts []floatPart, ok bool) {
	if t == nil {
		return nil, false
	}
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
	default:
		return nil, false
	}
	ok = true
	var walk func(t types.Type, path []partStep)
	walk = func(t types.Type, path []partStep) {
		if !ok {
			return
		}
		if _, isParam := t.(*types.TypeParam); isParam {
			ok = false
			return
		}
		if isFloat(t) {
			if len(parts) == maxRoundedParts {
				ok = false
				return
			}
			parts = append(parts, floatPart{path: append([]partStep(nil), path...), typ: t})
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				fd := u.Field(i)
				if fd.Name() == "_" || !fd.Exported() && fd.Pkg() != pkg {
					ok = false
					return
				}
				walk(fd.Type(), append(path, partStep{name: fd.Name()}))
			}
		case *types.Array:
			if u.Len() > maxRoundedParts && hasFloat(u.Elem()) {
				ok = false
				return
			}
			for i := int64(0); i < u.Len(); i++ {
				walk(u.Elem(), append(path, partStep{index: int(i)}))
			}
		}
	}
	walk(t, nil)
	if !ok {
		return nil, false
	}
	return parts, true
}

// hasFloat reports whether a value of type t holds a floating-point or
// complex number in a field or element (not behind a pointer).
func hasFloat(t types.Type) bool {
	if isFloat(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if hasFloat(u.Field(i).Type()) {
				return true
			}
		}
	case *types.Array:
		return u.Len() > 0 && hasFloat(u.Elem())
	}
	return false
}

// partElem reports whether child, an element of the struct or array
// literal lit (or the key-value element holding it), is stored in a part
// of lit's value that floatParts reaches: a field or element of
// floating-point type when child is the product itself (outer false), or
// of the struct or array type of child's own literal (outer true). A
// slice or map literal, and a field or element of interface or pointer
// type, store their elements elsewhere.
func (f *Func) partElem(lit *ast.CompositeLit, child ast.Node, outer bool) bool {
	t := f.info.TypeOf(lit)
	if t == nil {
		return false
	}
	var et types.Type
	switch u := t.Underlying().(type) {
	case *types.Array:
		et = u.Elem()
	case *types.Struct:
		for i, e := range lit.Elts {
			if e != child {
				continue
			}
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					if v, ok := f.info.Uses[id].(*types.Var); ok && v.IsField() {
						et = v.Type()
					}
				}
			} else if i < u.NumFields() {
				et = u.Field(i).Type()
			}
		}
	}
	if et == nil {
		return false
	}
	if !outer {
		return isFloat(et)
	}
	inner, ok := ast.Unparen(elemValue(child)).(*ast.CompositeLit)
	if !ok {
		return false
	}
	it := f.info.TypeOf(inner)
	switch et.Underlying().(type) {
	case *types.Struct, *types.Array:
		return it != nil && types.Identical(et, it)
	}
	return false
}

// elemValue returns the value of composite literal element e, or nil.
func elemValue(e ast.Node) ast.Expr {
	if kv, ok := e.(*ast.KeyValueExpr); ok {
		return kv.Value
	}
	x, _ := e.(ast.Expr)
	return x
}

// roundedParts returns the parts of lambda l's result that the generated
// code rounds where it applies l: the float fields and elements of its
// struct or array result, when l could fuse with them unrounded but not
// once they are rounded. It returns nil for every other lambda (one
// called through soac.Opaque, whose call rounds its result, or one whose
// result's parts hold no product).
func (f *Func) roundedParts(l *ir.Lambda) []floatPart {
	if l.Sig == nil || l.Sig.Results().Len() != 1 {
		return nil
	}
	parts, ok := floatParts(f.pkg, l.Sig.Results().At(0).Type())
	if !ok || len(parts) == 0 || f.lambdaMayFuse(l, true) || !f.lambdaMayFuse(l, false) {
		return nil
	}
	return parts
}

// roundParts emits target.part = T(target.part) for each of parts: an
// explicit conversion rounds the value and keeps the compiler from
// fusing its product with a later addition.
func (f *Func) roundParts(c *Stmts, target *jen.Statement, parts []floatPart) {
	if target == nil {
		return
	}
	for _, p := range parts {
		c.Add(Set(partExpr(target, p), f.Type(p.typ).Call(partExpr(target, p))))
	}
}

// partExpr returns the expression of part p of the value target names.
func partExpr(target *jen.Statement, p floatPart) *jen.Statement {
	e := jen.Add(target)
	for _, s := range p.path {
		if s.name != "" {
			e = e.Dot(s.name)
		} else {
			e = e.Index(Lit(s.index))
		}
	}
	return e
}
