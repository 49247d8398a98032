package fusion

import (
	"go/token"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// Plan is the fusion engine's decision for one function: which SOACs run
// together as one pass (a Kernel), and why the fusions that were possible in
// shape were not made (Notes).
//
// Every SOAC of the function (at any depth) is a member of exactly one
// kernel, except a producer fused into consumers on disjoint branches, which
// is a member of each of those kernels.
type Plan struct {
	Func *ir.Function
	// Kernels in the order a reader meets them: by the position of the
	// statement they run at; a nested kernel after the kernel whose lambda
	// holds it.
	Kernels []*Kernel
	// Notes explain each fusion that was possible in shape but not made.
	Notes []Note
	// Diagnostics are findings that are not refusals to fuse: provably
	// unequal lengths into Map2/Map3, impure lambdas, unsupported shapes.
	Diagnostics []Diagnostic
	Stats       Stats
	// Fset renders the plan's positions (Options.Fset); may be nil.
	Fset *token.FileSet
	// Partitioner names the algorithm that chose the kernels ("greedy",
	// "ilp", "wsp"; see Methods).
	Partitioner string
	// GasExhausted reports that Options.Gas stopped fusion early.
	GasExhausted bool
	// Cost prices the clustering under both cost models (cost.go).
	Cost Cost
	// Optimal reports that the method proved the clustering optimal
	// under its cost model (never for greedy).
	Optimal bool
}

// Kernel is a set of SOACs that run as one pass over one iteration space:
// one loop on the CPU, one launch group in OpenCL.
type Kernel struct {
	ID int
	// SOACs are the members in evaluation order: a producer before its
	// consumers, otherwise program order.
	SOACs []*ir.SOAC
	// Block is the block the kernel runs in and At the statement whose
	// position it takes: the last member in program order, or an earlier
	// member where the kernel was placed (place.go). Members written
	// earlier in the block move down to At; members written after it move
	// up: the kernel computes their results there, and their own
	// statements assign them.
	Block *ir.Block
	At    ir.Stmt
	// Depth is 0 for kernels in the function body (and its ifs, switches,
	// loops and closures) and n+1 for kernels inside a lambda of a depth-n
	// kernel; Parent is that kernel.
	Depth  int
	Parent *Kernel
	// Inputs are the arrays the kernel reads that it does not compute.
	Inputs []*ir.Var
	// Outputs are the members' results that are used after the kernel:
	// final results and map-out arrays (Spiegelhauer & Sprent, "Implementing Map-Scan Fusion in the Futhark Compiler" (2016) [Map-scan] §5.2).
	Outputs []*ir.Var
	// Internal are the intermediate arrays that are never materialised.
	Internal []*ir.Var
	// Form names the fused form in the papers' terms: "map", "redomap",
	// "scanomap", "filter-redomap", "stream_red", ...
	Form string
	// Rules are the names of the fusion rules applied to build the kernel,
	// in the order they fired, with the tags "map-out", "branch-copy" and
	// "merge" (see Tags).
	Rules []string
	// Moved are the members whose statement lies in an enclosing block of
	// Block: generators (Iota, Replicate) fused across a loop, closure or
	// lambda boundary, and producers copied into the kernels of disjoint
	// branches. The generated code keeps their operands' evaluation (and
	// Iota's/Replicate's negative-length panic) where they were written.
	Moved []*ir.SOAC
	// Asserts are the Map2/Map3 members whose inputs the kernel treats as
	// one iteration space. The generated kernel checks their lengths before
	// running any member and, when they differ, runs the members unfused in
	// program order so that every panic is the reference's.
	Asserts []*ir.SOAC
	// Copies are the variables captured by members' function literals
	// that are reassigned between the member's statement and At: the
	// generated code copies each where its member is written and the
	// member's lambdas read the copy.
	Copies []Copy
	// Gathers are the index reads of members whose array another member
	// computes (gather.go): in the kernel's loop the producer's element
	// at the iteration index stands for each read; code that calls the
	// consumer as the spec does computes the array and passes the
	// literal reading it.
	Gathers []Gather
}

// Copy is a captured variable a member reads as a copy taken where the
// member is written.
type Copy struct {
	SOAC *ir.SOAC
	Var  *ir.Var // the version the member's lambdas capture
}

// Note explains a fusion that was possible in shape but refused.
type Note struct {
	// Pos is the position of the hazard: the write, the reassignment, the
	// second use, the loop; or of the consumer when the reason is a shape.
	Pos token.Pos
	// Producer is the SOAC that was not fused; Consumer the one it was not
	// fused into (nil when there are several).
	Producer, Consumer *ir.SOAC
	// Var is the variable the reason is about.
	Var *ir.Var
	// Rule is the stable identifier of the refusal ("write-between",
	// "size-mismatch", "loop-boundary", "consumed-twice",
	// "capture-reassigned", "impure", ...).
	Rule string
	// Reason is the sentence users read, naming the variable and position.
	Reason string
}

// Diagnostic is a finding about a SOAC that is not a refusal to fuse.
type Diagnostic struct {
	Pos token.Pos
	// Category is the stable vet category: "size", "impure", "unsupported".
	Category string
	Message  string
}

// Stats counts what fusion did in one function, like Figure 18 of Henriksen & Oancea, "A T2 Graph-Reduction Approach to Fusion" (2013) [T2-fusion].
type Stats struct {
	// Rules counts how often each fusion rule fired, by rule name.
	Rules map[string]int
	// PassesBefore is the number of passes over memory the unfused program
	// makes (one per SOAC, generators excepted); PassesAfter the number of
	// kernels, those of generators alone excepted likewise (each makes a
	// pass, as the generator does in the unfused program).
	PassesBefore, PassesAfter int
	// IntermediatesRemoved counts the arrays that are no longer
	// materialised.
	IntermediatesRemoved int
}
