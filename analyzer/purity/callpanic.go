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
	row, conv, ok := callRow(info, call)
	switch {
	case conv:
		return len(call.Args) != 1 || conversionMayPanic(info.TypeOf(call.Args[0]), info.Types[ast.Unparen(call.Fun)].Type)
	case ok && row.Key() == "make":
		return MakeMayPanic(info, call)
	}
	return !ok || (row.MayPanic && !row.SafeIf.Holds(info, call)) || row.NoReturn || len(row.CallsArgs) > 0
}

// CallPure reports whether the call, its arguments aside, computes its
// result from its arguments alone, without effects or panics, by the
// same rules as CallMayPanic: two evaluations of it on the same values
// give the same result (new and make, which allocate, do not).
func CallPure(info *types.Info, call *ast.CallExpr) bool {
	row, conv, ok := callRow(info, call)
	if conv {
		return !CallMayPanic(info, call)
	}
	return ok && row.Impure == "" && len(row.WritesArgs) == 0 && row.Key() != "new" && row.Key() != "make" && !CallMayPanic(info, call)
}

// callRow returns the table row of the call's callee, whether the call
// is a conversion, and whether a row was found.
func callRow(info *types.Info, call *ast.CallExpr) (StdFunc, bool, bool) {
	if info == nil {
		return StdFunc{}, false, false
	}
	fun := ast.Unparen(call.Fun)
	if tv, ok := info.Types[fun]; ok && tv.IsType() {
		return StdFunc{}, true, false
	}
	if name := builtinName(info, fun); name != "" {
		pkg := ""
		if _, sel := fun.(*ast.SelectorExpr); sel {
			pkg = "unsafe"
		}
		row, ok := LookupStd(pkg, name)
		return row, false, ok
	}
	if fn, isFunc := typeutil.Callee(info, call).(*types.Func); isFunc && fn.Pkg() != nil {
		sig := fn.Type().(*types.Signature)
		if sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
			return StdFunc{}, false, false
		}
		row, ok := LookupStd(fn.Pkg().Path(), methodKey(fn.Origin()))
		return row, false, ok
	}
	return StdFunc{}, false, false
}
