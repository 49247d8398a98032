package rewrite

// This file decides which functions the generated code must call through
// the same function value the spec calls, because inlining them could
// change how the compiler contracts floating-point arithmetic (x*y + z
// into one FMA, which amd64 does from GOAMD64=v3 and arm64 always does).
// It does not decide anything about function literals: their results are
// rounded where they are inlined (retCtx.round), and the arithmetic inside
// one lambda is the compiler's to contract, in the spec as in the
// generated code (see doc.go).

import (
	"go/ast"
	"go/types"
)

// mayContract reports whether a call of fn may compute floating-point
// arithmetic that the compiler could contract differently once fn is
// inlined into a fused loop: fn is declared in another package (its body
// is not seen), or its body in this package has an expression of
// floating-point or complex type. A method whose body has none (integer,
// string or boolean code only) is safe to inline.
func (f *fgen) mayContract(fn *types.Func) bool {
	decl := f.funcDecl(fn)
	if decl == nil || decl.Body == nil {
		return true
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		if e, ok := n.(ast.Expr); ok {
			if t := f.info.TypeOf(e); t != nil && isFloat(t) {
				found = true
			}
			if call, ok := e.(*ast.CallExpr); ok {
				// A call may hide float arithmetic behind a
				// non-float result (a predicate on floats).
				if !f.isBuiltinCall(call) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// funcDecl returns fn's declaration among the package's files, or nil.
func (f *fgen) funcDecl(fn *types.Func) *ast.FuncDecl {
	if fn.Pkg() != f.pkg {
		return nil
	}
	for _, file := range f.in.Files {
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
func (f *fgen) isBuiltinCall(call *ast.CallExpr) bool {
	if tv, ok := f.info.Types[call.Fun]; ok && tv.IsType() {
		return true
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		_, b := f.info.Uses[id].(*types.Builtin)
		return b
	}
	return false
}
