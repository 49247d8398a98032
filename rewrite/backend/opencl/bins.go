package opencl

// This file puts a stream reduction on the bins skeleton (skel.Bins,
// launch.StreamRed.Bins) beside the stream skeleton: where the operator
// adds integer rows element-wise,
//
//	func(a, b []E) []E { return soac.Map2(a, b, func(x, y E) E { return x + y }) }
//
// and the chunk function adds an amount per element to one bin of the
// row it makes (clc.Unit.Bins: row[i] += v, row[i]++, i and v from the
// element and captures). Integer addition wraps alike in every order, so
// the device adds the elements' amounts atomically, the fused maps
// computing each element in the same work-item, with no chunks; an
// index out of the row sets the panic flag and the CPU code raises Go's
// panic. Float bins (k-means' sums) stay on the stream skeleton, whose
// chunk order fixes the rounding. Anything else keeps the stream
// skeleton alone, the reason written beside its launch value.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/hostgo"
)

// binsFields returns the Bins field of the stream's launch value, or
// nil and why the stream does not run on the bins skeleton.
func (s *clStream) binsFields() (jen.Code, string) {
	f := s.f
	if why := s.addsRows(); why != "" {
		return nil, why
	}
	b, err := s.unit.Bins(s.st.Chunk.Lit, f.Info())
	if err != nil {
		if r, ok := err.(*clc.Refusal); ok {
			return nil, fmt.Sprintf("%s at %s:%d:%d: %s", r.Construct, filepath.Base(r.Pos.Filename), r.Pos.Line, r.Pos.Column, r.Reason)
		}
		return nil, err.Error()
	}
	for _, c := range b.Fn.Captures {
		if why := s.capture(s.m, c); why != "" {
			return nil, why
		}
	}
	var w strings.Builder
	w.WriteString("int k__e = 0;\n")
	for _, in := range s.ins {
		fmt.Fprintf(&w, "const %s %s = in_%s[soac_index];\n", skelTypeName(in), in.c, in.c)
	}
	w.WriteString(s.body.String())
	x, ok := s.cname[s.st.Input]
	if !ok {
		return nil, fmt.Sprintf("its input %s is not computed in its kernel", s.st.Input.Name)
	}
	fmt.Fprintf(&w, "if (k__e == 0) {\nconst %s soac__b = %s;\n", b.Fn.Result.C, b.Fn.Call([]string{x}, "", "&k__e"))
	fmt.Fprintf(&w, "soac_bin = soac__b.%s;\nsoac_add = soac__b.%s;\n}\nsoac_err = k__e;\n", b.BinField, b.AddField)
	name := strings.TrimPrefix(s.kvName(), "soacgen") + "_bins"
	return field("Bins", jen.Op("&").Add(f.Qual(skelPath, "skel", "Bins")).Custom(lines,
		field("Name", jen.Lit(name)),
		field("Bin", s.skelType(s.rowSkel)),
		field("Elem", goString(w.String())))), ""
}

// kvName returns the name of the stream's launch value.
func (s *clStream) kvName() string { return "soacgenCL" + s.f.Spec().Fuse.Name }

// addsRows returns why the stream's operator is not element-wise
// integer addition, soac.Map2(a, b, func(x, y E) E { return x + y })
// over its two rows (or y + x, or b and a), or "".
func (s *clStream) addsRows() string {
	info := s.f.Info()
	lit := s.st.Op.Lit
	shape := "the operator is not func(a, b []E) []E { return soac.Map2(a, b, func(x, y E) E { return x + y }) }"
	if lit == nil || len(lit.Body.List) != 1 {
		return shape
	}
	if sig, _ := info.TypeOf(lit).(*types.Signature); sig != nil && sig.Params().Len() == 2 {
		if row, ok := sig.Params().At(0).Type().Underlying().(*types.Slice); ok {
			if b, ok := row.Elem().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
				return "the operator combines rows of " + types.TypeString(row.Elem(), func(p *types.Package) string { return p.Name() }) + ": only integer rows are added atomically, in any order; float sums stay in the stream skeleton's chunk order, which fixes their rounding"
			}
		}
	}
	ret, ok := lit.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return shape
	}
	call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok || len(call.Args) != 3 || !isSOACFunc(info, call.Fun, "Map2") {
		return shape
	}
	if !sameParams(info, lit, call.Args[0], call.Args[1]) {
		return shape + ": Map2 does not read the operator's two rows"
	}
	add, ok := ast.Unparen(call.Args[2]).(*ast.FuncLit)
	if !ok || len(add.Body.List) != 1 {
		return shape + ": Map2's function is not a literal returning x + y"
	}
	r, ok := add.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 {
		return shape + ": Map2's function is not a literal returning x + y"
	}
	sum, ok := ast.Unparen(r.Results[0]).(*ast.BinaryExpr)
	if !ok || sum.Op != token.ADD || !sameParams(info, add, sum.X, sum.Y) {
		return shape + ": Map2's function does not return the sum of its parameters"
	}
	return ""
}

// isSOACFunc reports whether fun names the function name of package
// runtime/soac (instantiated or not).
func isSOACFunc(info *types.Info, fun ast.Expr, name string) bool {
	fun = ast.Unparen(fun)
	switch e := fun.(type) {
	case *ast.IndexExpr:
		fun = e.X
	case *ast.IndexListExpr:
		fun = e.X
	}
	sel, ok := ast.Unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Name() == name && fn.Pkg() != nil && fn.Pkg().Path() == hostgo.SOACPath
}

// sameParams reports whether x and y name lit's two parameters, in
// either order.
func sameParams(info *types.Info, lit *ast.FuncLit, x, y ast.Expr) bool {
	sig, _ := info.TypeOf(lit).(*types.Signature)
	if sig == nil || sig.Params().Len() != 2 {
		return false
	}
	obj := func(e ast.Expr) types.Object {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		return info.Uses[id]
	}
	a, b := sig.Params().At(0), sig.Params().At(1)
	ox, oy := obj(x), obj(y)
	return ox != nil && oy != nil && (ox == a && oy == b || ox == b && oy == a)
}
