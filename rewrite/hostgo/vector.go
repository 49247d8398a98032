package hostgo

// This file holds what the vector translator (rewrite/vector) reads of a
// spec's generation: whether a lambda may fuse x*y+z, the generated code
// of a variable a lambda captures, and the file's two companions, the
// vector forms (built only with GOEXPERIMENT=simd on amd64) and their
// scalar stubs (built otherwise).

import (
	"bytes"
	"go/ast"
	"go/token"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// MayFuse reports whether the compiler could fuse a floating-point
// product of lambda l with an addition into one FMA differently in the
// generated code than in l's own compiled body (see mayFuse): a vector
// form that rounds every product computes what l computes only in a
// build that never fuses.
func (f *Func) MayFuse(l *ir.Lambda) bool { return f.mayFuse(l) }

// Captured returns the generated code of identifier id of lambda l's
// literal where the kernel at pos runs, when id names a variable of the
// enclosing function that means the same variable there (a capture the
// generated code can pass on), else false.
func (f *Func) Captured(l *ir.Lambda, id *ast.Ident, pos token.Pos) (*jen.Statement, bool) {
	if l.Lit == nil || !f.namesMean(l.Lit, id, pos) {
		return nil, false
	}
	return f.sub(id, nil), true
}

// VectorFunc returns the name of the vector function written for kernel
// key in this file, if one was (SetVectorFunc): the cpu loop and the
// parallel backend's chunks of one kernel call the same function.
func (g *File) VectorFunc(key any) (string, bool) {
	name, ok := g.vecFuncs[key]
	return name, ok
}

// SetVectorFunc records name as the vector function of kernel key.
func (g *File) SetVectorFunc(key any, name string) {
	if g.vecFuncs == nil {
		g.vecFuncs = map[any]string{}
	}
	g.vecFuncs[key] = name
}

// AddVector adds declarations to the file's vector companion (vec) and
// their scalar stubs to its scalar companion (scalar).
func (g *File) AddVector(vec, scalar []jen.Code) {
	g.vec = append(g.vec, vec...)
	g.scalar = append(g.scalar, scalar...)
}

// RenderCompanions prints the file's vector and scalar companions, each
// under its header (soacgen's header and its build constraint), or
// returns nil, nil when no kernel of the file has vector forms.
func (g *File) RenderCompanions(vecHeader, scalarHeader string) (vec, scalar []byte, err error) {
	if len(g.vec) == 0 {
		return nil, nil, nil
	}
	render := func(header string, decls []jen.Code) ([]byte, error) {
		jf := jen.NewFilePathName(g.pkg.Path(), g.pkg.Name())
		jf.HeaderComment(header)
		for i, d := range decls {
			if i > 0 {
				jf.Line()
			}
			jf.Add(d)
		}
		var buf bytes.Buffer
		if err := jf.Render(&buf); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	if vec, err = render(vecHeader, g.vec); err != nil {
		return nil, nil, err
	}
	if scalar, err = render(scalarHeader, g.scalar); err != nil {
		return nil, nil, err
	}
	return vec, scalar, nil
}
