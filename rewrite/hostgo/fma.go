package hostgo

// This file decides which lambdas the generated code may inline into a
// fused loop and which it must call through soac.Opaque, because inlining
// them could change how the compiler fuses floating-point arithmetic
// (x*y + z into one FMA, which amd64 does from GOAMD64=v3 and arm64,
// loong64, ppc64, riscv64 and s390x always do). The argument is in doc.go
// ("Floating-point contraction"). It does not emit anything: evalFunc
// (kernel.go) wraps the function values, canInline (inline.go) refuses
// the lambdas, and retCtx.round / Apply round the results: a float
// result, and the float fields and elements of a struct or array result
// whose literal holds a product (fmaparts.go).

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// mathExact lists the functions of package math that a lambda may call
// without losing its place among the lambdas that cannot fuse: none of
// them computes a floating-point product or sum that could meet the
// lambda's own (they are intrinsics, comparisons or bit operations), and
// none returns a product.
var mathExact = map[string]bool{
	"Abs": true, "Ceil": true, "Copysign": true, "FMA": true, "Float32bits": true,
	"Float32frombits": true, "Float64bits": true, "Float64frombits": true,
	"Floor": true, "Inf": true, "IsInf": true, "IsNaN": true, "Max": true,
	"Min": true, "NaN": true, "Round": true, "RoundToEven": true,
	"Signbit": true, "Sqrt": true, "Trunc": true,
}

// mathProductArg lists the functions of package math that may take a
// product as their argument: intrinsics everywhere (Sqrt) or bit
// operations and comparisons (Abs, IsNaN, IsInf, Signbit), so that the
// product is rounded before any addition sees it.
var mathProductArg = map[string]bool{
	"Abs": true, "IsInf": true, "IsNaN": true, "Signbit": true, "Sqrt": true,
}

// floatFree lists standard packages that compute no floating-point
// arithmetic at all: a lambda may call them (with no function values).
var floatFree = map[string]bool{
	"bytes": true, "math/bits": true, "strings": true, "unicode": true,
	"unicode/utf16": true, "unicode/utf8": true,
}

// mayFuse reports whether the compiler could fuse a floating-point
// multiplication of lambda l with an addition or subtraction (into one
// FMA) differently inlined into the generated loop than in l's own
// compiled body, which the spec's combinator runs (soac.Opaque). It
// returns false only for a lambda whose code, and the code of every
// function it calls, has no product (x*y, x/y, complex x*y) that an
// addition or subtraction could use before it is rounded: each product is
// compared, converted explicitly, passed to an exact math function
// (mathProductArg) or returned as the lambda's single floating-point
// result (which the generated code rounds, and the spec's call returns).
// A function value, or a function whose body is in another package
// (other than the exact math functions), may fuse.
func (f *Func) mayFuse(l *ir.Lambda) bool {
	return f.lambdaMayFuse(l, true)
}

// lambdaMayFuse is mayFuse, with the float fields and elements of a
// struct or array result counted as rounded when parts (roundedParts).
// The answers are kept: the generator asks for each application.
func (f *Func) lambdaMayFuse(l *ir.Lambda, parts bool) bool {
	key := fuseKey{l, parts}
	if r, ok := f.fuseMemo[key]; ok {
		return r
	}
	r := true
	switch {
	case l.Lit != nil:
		r = f.bodyMayFuse(l.Lit.Type, l.Lit.Body, resultRounding{float: true, parts: parts}, map[*types.Func]bool{})
	case l.Func != nil:
		r = f.funcMayFuse(l.Func, resultRounding{float: true, parts: parts}, map[*types.Func]bool{})
	}
	if f.fuseMemo == nil {
		f.fuseMemo = map[fuseKey]bool{}
	}
	f.fuseMemo[key] = r
	return r
}

// fuseKey keys Func.fuseMemo: a lambda, and whether its result's parts
// are rounded.
type fuseKey struct {
	l     *ir.Lambda
	parts bool
}

// resultRounding says which results of a function are rounded where they
// are used: a single floating-point result (float), the float fields and
// elements of a single struct or array result (parts). A lambda's are,
// by the spec's call boundary and by the generated code's conversions; a
// function the lambda calls has none, since an inlining caller may add
// to them.
type resultRounding struct{ float, parts bool }

// funcMayFuse reports whether function fn may fuse (see mayFuse), its
// results rounded where they are used as ret says.
func (f *Func) funcMayFuse(fn *types.Func, ret resultRounding, seen map[*types.Func]bool) bool {
	if seen[fn] || exactMath(fn) || fn.Pkg() != nil && (floatFree[fn.Pkg().Path()] || fn.Pkg().Path() == SOACPath) {
		return false
	}
	decl := f.FuncDecl(fn)
	if decl == nil || decl.Body == nil {
		return true
	}
	seen[fn] = true
	return f.bodyMayFuse(decl.Type, decl.Body, ret, seen)
}

// exactMath reports whether fn is one of the functions of package math
// listed in mathExact.
func exactMath(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "math" && mathExact[fn.Name()]
}

// bodyMayFuse reports whether the function of type ft with body body has
// a product that an addition could use unrounded (see mayFuse). ret says
// which of its results are rounded where they are used (a lambda's),
// rather than possibly added to by an inlining caller (a function the
// lambda calls). seen holds the functions being checked, so that
// recursion ends.
func (f *Func) bodyMayFuse(ft *ast.FuncType, body *ast.BlockStmt, ret resultRounding, seen map[*types.Func]bool) bool {
	var rt types.Type
	if ft.Results.NumFields() == 1 {
		rt = f.info.TypeOf(ft.Results.List[0].Type)
	}
	if rt == nil || !isFloat(rt) {
		ret.float = false
	}
	if _, ok := floatParts(f.pkg, rt); !ok {
		ret.parts = false
	}
	var stack []ast.Node
	fuse := false
	ast.Inspect(body, func(n ast.Node) bool {
		if fuse {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			// A literal passed to a SOAC is a lambda of its own (its
			// kernel decides for it); any other is called here.
			if len(stack) > 0 && f.isSOACCall(stack[len(stack)-1]) {
				return false
			}
			if f.bodyMayFuse(n.Type, n.Body, resultRounding{}, seen) {
				fuse = true
			}
			return false
		case *ast.BinaryExpr:
			if f.isProduct(n) && !f.productRounded(n, stack, ret) {
				fuse = true
			}
		case *ast.AssignStmt:
			// x *= y and x /= y keep a product in x.
			if (n.Tok == token.MUL_ASSIGN || n.Tok == token.QUO_ASSIGN) && f.isFloatExpr(n.Lhs[0]) {
				fuse = true
			}
		case *ast.CallExpr:
			if f.callMayFuse(n, seen) {
				fuse = true
			}
		case *ast.Ident:
			// A function named as a value may be called anywhere.
			switch obj := f.info.Uses[n].(type) {
			case *types.Func:
				if f.funcMayFuse(obj.Origin(), resultRounding{}, seen) {
					fuse = true
				}
			case *types.Var:
				if _, ok := obj.Type().Underlying().(*types.Signature); ok {
					fuse = true
				}
			}
		}
		stack = append(stack, n)
		return !fuse
	})
	return fuse
}

// isFloatExpr reports whether e has a floating-point or complex type and
// is not a constant.
func (f *Func) isFloatExpr(e ast.Expr) bool {
	tv, ok := f.info.Types[e]
	return ok && tv.Value == nil && tv.Type != nil && isFloat(tv.Type)
}

// isProduct reports whether e is a floating-point or complex
// multiplication or division that is computed at run time: the compiler
// turns a division by a constant whose reciprocal is exact into a
// multiplication, and a complex multiplication into products and sums.
func (f *Func) isProduct(e *ast.BinaryExpr) bool {
	return (e.Op == token.MUL || e.Op == token.QUO) && f.isFloatExpr(e)
}

// productRounded reports whether the value of product e (whose ancestors,
// innermost last, are stack) reaches no addition before it is rounded:
// through parentheses and signs to a comparison, an explicit conversion,
// an argument of an exact math function, or the returned result when
// ret.float; or, when ret.parts, through struct and array literals whose
// float fields and elements it fills (partElem) to the returned result.
// A complex product expands to a sum of products: never. Everything else
// (a variable, another product, which may be a doubling the compiler
// turns into an addition, an argument, an element of a slice, a map or an
// interface, a literal converted or whose address is taken) may reach an
// addition.
func (f *Func) productRounded(e *ast.BinaryExpr, stack []ast.Node, ret resultRounding) bool {
	if t := f.info.TypeOf(e); t != nil {
		if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsComplex != 0 {
			return false
		}
	}
	var child ast.Node = e
	inPart := false // child is a struct or array literal e fills a part of
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
		case *ast.UnaryExpr:
			if p.Op != token.SUB && p.Op != token.ADD || inPart {
				return false
			}
		case *ast.KeyValueExpr:
			if p.Value != child {
				return false
			}
		case *ast.CompositeLit:
			if !ret.parts || !f.partElem(p, child, inPart) {
				return false
			}
			inPart = true
		case *ast.BinaryExpr:
			if inPart {
				return false
			}
			switch p.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				return true
			}
			return false
		case *ast.CallExpr:
			if inPart {
				// A conversion of a struct or array rounds nothing.
				return false
			}
			if tv, ok := f.info.Types[p.Fun]; ok && tv.IsType() {
				return true
			}
			fn := f.calleeFunc(p)
			return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "math" && mathProductArg[fn.Name()]
		case *ast.ReturnStmt:
			if len(p.Results) != 1 || p.Results[0] != child {
				return false
			}
			return inPart || ret.float
		default:
			return false
		}
		child = stack[i]
	}
	return false
}

// callMayFuse reports whether call may bring a product into the caller's
// arithmetic, or fuse differently inside its callee once inlined: a
// builtin, a conversion, a SOAC (its lambdas are decided on their own,
// and its results are rounded), an exact math function and a function of
// a floatFree package do not; a function or method of this package does
// when its body may; any other call (a function value, an interface
// method, another package) may.
func (f *Func) callMayFuse(call *ast.CallExpr, seen map[*types.Func]bool) bool {
	if f.isBuiltinCall(call) || f.isSOACCall(call) {
		return false
	}
	fn := f.calleeFunc(call)
	return fn == nil || f.funcMayFuse(fn, resultRounding{}, seen)
}

// calleeFunc returns the function or concrete method call calls, or nil
// (a function value, an interface method).
func (f *Func) calleeFunc(call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	case *ast.IndexExpr:
		id = identOf(fun.X)
	case *ast.IndexListExpr:
		id = identOf(fun.X)
	}
	if id == nil {
		return nil
	}
	fn, _ := f.info.Uses[id].(*types.Func)
	if fn == nil {
		return nil
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return nil
	}
	return fn.Origin()
}

// isSOACCall reports whether n calls a function of the combinator
// package.
func (f *Func) isSOACCall(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := f.calleeFunc(call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == SOACPath
}

// FuncDecl returns fn's declaration among the package's files, or nil.
func (f *Func) FuncDecl(fn *types.Func) *ast.FuncDecl {
	if fn.Pkg() != f.pkg {
		return nil
	}
	for _, file := range f.files {
		if file.Pos() > fn.Pos() || fn.Pos() >= file.End() {
			continue
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && f.info.Defs[fd.Name] == fn {
				return fd
			}
		}
	}
	return nil
}

// isBuiltinCall reports whether call calls a builtin or is a conversion.
func (f *Func) isBuiltinCall(call *ast.CallExpr) bool {
	if tv, ok := f.info.Types[call.Fun]; ok && tv.IsType() {
		return true
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		_, b := f.info.Uses[id].(*types.Builtin)
		return b
	}
	return false
}
