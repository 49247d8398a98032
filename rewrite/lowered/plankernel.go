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
// one pass over one iteration space.
type PlanKernel struct {
	// ID numbers the plan's kernels.
	ID int
	// SOACs are the members in evaluation order: a producer before its
	// consumers, otherwise program order.
	SOACs []*ir.SOAC
	// Block is the block the kernel runs in and At the statement whose
	// position it takes: the last member in program order, or an earlier
	// member where the engine placed the kernel. Members written earlier
	// in the block move down to At; members written after it move up:
	// the kernel computes their results there, and their own statements
	// assign them.
	Block *ir.Block
	At    ir.Stmt
	// Depth is 0 for kernels in the function body (and its ifs,
	// switches, loops and closures) and n+1 for kernels inside a lambda
	// of a depth-n kernel; Parent is that kernel.
	Depth  int
	Parent *PlanKernel
	// Inputs are the arrays the kernel reads that it does not compute.
	Inputs []*ir.Var
	// Outputs are the members' results that are used after the kernel:
	// final results and map-out arrays.
	Outputs []*ir.Var
	// Internal are the intermediate arrays that are never materialised.
	Internal []*ir.Var
	// Form names the fused form in the papers' terms: "map", "redomap",
	// "scanomap", "filter-redomap", "stream_red", ...
	Form string
	// Moved are the members whose statement lies in an enclosing block
	// of Block: generators fused across a loop, closure or lambda
	// boundary, and producers copied into the kernels of disjoint
	// branches. The generated code keeps their operands' evaluation (and
	// Iota's/Replicate's negative-length panic) where they were written.
	Moved []*ir.SOAC
	// Asserts are the Map2/Map3 members whose inputs the kernel treats as
	// one iteration space: the generated kernel checks their lengths
	// before running any member and, when they differ, runs the members
	// unfused in program order so that every panic is the reference's.
	Asserts []*ir.SOAC
	// Copies are the variables captured by members' function literals
	// that are reassigned between the member's statement and At: the
	// generated code copies each where its member is written and the
	// member's lambdas read the copy.
	Copies []Copy
	// Gathers are the index reads of members whose array another member
	// computes: in the kernel's loop the producer's element at the
	// iteration index stands for each read; code that calls the consumer
	// as the spec does computes the array and passes the literal reading
	// it.
	Gathers []Gather
}

// Copy is a captured variable a member reads as a copy taken where the
// member is written.
type Copy struct {
	SOAC *ir.SOAC
	Var  *ir.Var // the version the member's lambdas capture
}

// Gather is an index read: the function literal Lambda of consumer SOAC
// reads captured array Var only as Var[p], p its parameter number Param,
// bound to the element of an Iota input of the same length as Var.
type Gather struct {
	SOAC   *ir.SOAC
	Lambda *ir.Lambda
	Var    *ir.Var
	Param  int
	// Reads are the index expressions Var[p], in source order.
	Reads []*ast.IndexExpr
}
