package purity

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// CallMayPanic reports whether evaluating the call itself may panic, its
// arguments aside, judged from the syntax and the types alone (no facts
// of the package's own functions): a conversion only where
// conversionMayPanic says so, a builtin or a standard-library function by
// its table row (make by MakeMayPanic), anything else may. A row that
// calls a function argument may panic with it. For callers that hold a
// statement's syntax but no Verdicts, such as the fusion engine's
// panic-order checks.
func CallMayPanic(info *types.Info, call *ast.CallExpr) bool {
	if info == nil {
		return true
	}
	fun := ast.Unparen(call.Fun)
	if tv, ok := info.Types[fun]; ok && tv.IsType() {
		return len(call.Args) != 1 || conversionMayPanic(info.TypeOf(call.Args[0]), tv.Type)
	}
	var row StdFunc
	var ok bool
	if name := builtinName(info, fun); name != "" {
		pkg := ""
		if _, sel := fun.(*ast.SelectorExpr); sel {
			pkg = "unsafe"
		}
		if name == "make" {
			return MakeMayPanic(info, call)
		}
		row, ok = LookupStd(pkg, name)
	} else if fn, isFunc := typeutil.Callee(info, call).(*types.Func); isFunc && fn.Pkg() != nil {
		sig := fn.Type().(*types.Signature)
		if sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
			return true
		}
		row, ok = LookupStd(fn.Pkg().Path(), methodKey(fn.Origin()))
	}
	return !ok || (row.MayPanic && !row.SafeIf.Holds(info, call)) || row.NoReturn || len(row.CallsArgs) > 0
}
