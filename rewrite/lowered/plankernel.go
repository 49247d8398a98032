package lowered

// This file holds what the back end reads of a fusion plan's kernel:
// its members, where it runs, what it reads and writes, and the copies
// and index reads its code makes. The lowering copies them from the
// plan (package rewrite/lower), so that the host generator and the
// backends depend on the lowered form alone, never on the fusion engine.

import (
	"go/ast"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// PlanKernel is a kernel of the fusion plan: a set of SOACs that run as
// one pass over one iteration space. Its fields are the plan kernel's
// (package analyzer/fusion's Kernel says what each holds); the
// lowering copies them.
type PlanKernel struct {
	ID int
	// SOACs are the members in evaluation order.
	SOACs []*ir.SOAC
	// Block is the block the kernel runs in and At the statement whose
	// position it takes (members written after it are placed: the
	// lowered kernel's Later).
	Block *ir.Block
	At    ir.Stmt
	// Depth is 0 at the spec's top level, n+1 in a lambda of a depth-n
	// kernel, Parent.
	Depth  int
	Parent *PlanKernel
	// Inputs are the arrays it reads and does not compute, Outputs the
	// results used after it, Internal the arrays never materialised.
	Inputs, Outputs, Internal []*ir.Var
	// Form names the fused form in the papers' terms ("redomap", ...).
	Form string
	// Moved are the members written in an enclosing block, Asserts the
	// zips whose lengths the kernel checks before its loop.
	Moved, Asserts []*ir.SOAC
	// Copies are the captures a member reads as copies taken where it is
	// written; Gathers the index reads of an array a member computes.
	Copies  []Copy
	Gathers []Gather
}

// Copy is a captured variable a member reads as a copy taken where the
// member is written (the plan's Copy).
type Copy struct {
	SOAC *ir.SOAC
	Var  *ir.Var
}

// Gather is an index read (the plan's Gather): Lambda, a function
// literal of SOAC, reads captured array Var only as Var[p], p its
// parameter number Param, bound to an Iota's element; Reads are those
// index expressions, in source order.
type Gather struct {
	SOAC   *ir.SOAC
	Lambda *ir.Lambda
	Var    *ir.Var
	Param  int
	Reads  []*ast.IndexExpr
}
