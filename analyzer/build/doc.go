// Package build defines the soacir analyzer, which builds the IR
// (package analyzer/ir) of every function of a package that uses
// runtime/soac.
//
// # Analyzer soacir
//
// soacir: build the let-normalised IR of functions that call runtime/soac
//
// The analyzer reports nothing. Its result, of type *ir.Program, holds one
// ir.Function for every top-level function or method whose body (at any
// depth, closures and lambdas included) refers to a runtime/soac combinator,
// and for every function carrying a //soac:fuse directive. Calls are
// recognised by the identity of their callee (renamed and dot imports and
// explicit instantiations work); every combinator call becomes an ir.SOAC
// statement whose inputs are variables, in Go's evaluation order. Every
// statement carries a conservative summary of its effects, computed with
// the purity analyzer's result. Calls the IR cannot express (a SOAC in the
// right operand of && or ||, in a loop condition, a case expression, a
// combinator used as a value, ...) are listed in Function.Unsupported and
// left in place; malformed or misplaced //soac: directives are listed in
// Program.Problems. Checks that report, such as soacvet, require this
// analyzer and report those.
//
// Build is the same construction without the go/analysis driver, for tools
// and tests that hold type-checked syntax and a purity.Result of their own.
package build
