package purity

import (
	"fmt"
	"slices"
)

// FuncFact is the purity summary of a function or method, exported for every
// exported function and method (the only ones another package can call) so
// that importing packages know the effects of their callees.
//
// Invariant: when Pure is false and WritesGlobal is false, the function's
// only effects are writes to the memory reachable from the arguments listed in
// WritesArgs (which is then non-empty); a caller that passes memory it
// allocated itself at those positions stays pure.
type FuncFact struct {
	// Pure reports whether calling the function has no effect beyond
	// computing its results, provided that the function-typed parameters in
	// CallsParams are pure when called.
	Pure bool
	// Reason says why the function is not pure; empty when Pure.
	Reason string
	// MayPanic reports whether the function may panic (not counting panics
	// of the functions passed for CallsParams).
	MayPanic bool
	// WritesArgs lists the parameters (0-based; -1 for the receiver) whose
	// pointed-to memory the function may write.
	WritesArgs []int
	// WritesGlobal reports whether the function may have any effect other
	// than writing WritesArgs: writing package-level state or memory
	// reachable from escaped values, I/O, channel operations, goroutines.
	WritesGlobal bool
	// CallsParams lists the function-typed parameters (0-based) that the
	// function calls; a call of the function is pure only if the arguments
	// passed for them are pure.
	CallsParams []int
	// FreshResults lists the results (0-based) that are, on every return,
	// memory the function allocated itself and that nothing else reaches
	// (fresh.go): a caller may write their elements as it writes memory
	// from make.
	FreshResults []int
}

// AFact marks FuncFact as an analysis fact.
func (*FuncFact) AFact() {}

// String returns a short description of the fact, as analysistest prints
// facts.
func (f *FuncFact) String() string {
	s := "pure"
	if !f.Pure {
		s = "impure: " + f.Reason
	}
	if f.MayPanic {
		s += "; maypanic"
	}
	if len(f.WritesArgs) > 0 {
		s += fmt.Sprintf("; writes args %v", f.WritesArgs)
	}
	if f.WritesGlobal {
		s += "; writes global"
	}
	if len(f.CallsParams) > 0 {
		s += fmt.Sprintf("; calls params %v", f.CallsParams)
	}
	if len(f.FreshResults) > 0 {
		s += fmt.Sprintf("; fresh results %v", f.FreshResults)
	}
	return s
}

// equalLattice reports whether two facts agree on everything except the
// wording of the reason: the part of a summary that the fixed point over
// recursive functions must stabilise.
func (f *FuncFact) equalLattice(g *FuncFact) bool {
	return f.Pure == g.Pure && f.MayPanic == g.MayPanic && f.WritesGlobal == g.WritesGlobal &&
		slices.Equal(f.WritesArgs, g.WritesArgs) && slices.Equal(f.CallsParams, g.CallsParams)
}

// addInt inserts x into the sorted set xs.
func addInt(xs []int, x int) []int {
	i, found := slices.BinarySearch(xs, x)
	if found {
		return xs
	}
	return slices.Insert(xs, i, x)
}
