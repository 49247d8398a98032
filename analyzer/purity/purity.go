// Package purity computes which functions and function literals of a
// package have side effects, for the fusion engine: a SOAC whose lambda is
// impure is never reordered relative to other evaluation.
//
// It is a go/analysis analyzer that reports nothing. It exports a FuncFact
// for every function of the package, so that the analysis of an importing
// package knows the purity of functions it calls, and its Result answers
// questions about every function, literal and call in the package. A small
// table names the pure functions of the standard library.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): analyzer: purity
// verdicts of functions, literals and calls (writes to memory a function
// allocated itself are pure); which index expressions are proven in range
// (SafeIndexes: range loops, len guards, early exits, counted loops,
// constant lengths), shared with the engine's panic checks; exports facts
// across packages; standard-library table.
package purity

import (
	"go/ast"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// CallEffect is what a call expression may do beyond computing its result.
type CallEffect struct {
	// Purity of the callee (for a call of a function value that cannot be
	// resolved, impure with a reason saying so).
	Purity ir.Purity
	// WritesArgs lists the argument indices (0-based, in the call's argument
	// list; -1 for a method's receiver) whose pointed-to memory the callee may
	// write: sort.Ints writes argument 0, copy writes argument 0.
	WritesArgs []int
	// WritesGlobal reports whether the callee may write package-level state or
	// memory reachable from escaped values.
	WritesGlobal bool
	// NoReturn reports whether the call never returns normally (panic,
	// os.Exit, log.Fatal, runtime.Goexit).
	NoReturn bool
	// ArgWritesOnly reports whether the callee's only effects are the
	// writes of WritesArgs (sort.Ints, copy, append): Purity is then impure
	// only because of them, and a call whose written arguments are memory
	// the caller allocated itself leaves the caller pure.
	ArgWritesOnly bool
	// FreshResults lists the results (0-based) the callee allocates
	// itself, reachable from nothing else (FuncFact.FreshResults, or a
	// table row's Fresh): the caller's only reference to that memory.
	FreshResults []int
}

// Result answers purity questions about the analysed package. Every
// function literal and call expression in the package's files, and every
// function they reference, can be asked about.
type Result interface {
	// Func returns the verdict on calling fn (a function of this package, of
	// an imported package with a FuncFact, or of the standard-library
	// table); a function with none of these is impure, with a reason that
	// names it.
	Func(fn *types.Func) ir.Purity
	// Lit returns the verdict on calling the literal: impure if its body
	// writes captured, global or pointed-to memory it did not allocate
	// itself, does I/O or channel operations, or calls a function that is not
	// pure.
	Lit(lit *ast.FuncLit) ir.Purity
	// Call returns the effects of evaluating the call expression (the call
	// itself, not its arguments).
	Call(call *ast.CallExpr) CallEffect
}
