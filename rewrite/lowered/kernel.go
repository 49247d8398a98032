package lowered

// This file holds the lowered kernel: its form, its members' roles and
// stores, its spaces, lengths, asserts and chunk loop, and the lowered
// function that holds the kernels of one plan.

import (
	"go/ast"
	"go/token"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// Form is how a kernel runs.
type Form int

const (
	// Sequence runs the members one after another with the reference
	// runtime, in evaluation order (Kernel.Reason says why it is not a
	// loop).
	Sequence Form = iota
	// Call is one stream at its own position: a call of the reference
	// runtime, which calls the chunk function on chunks either way.
	Call
	// Loop is one loop over the iteration space.
	Loop
	// Chunked is maps feeding a stream: a loop over the stream's chunks
	// (Kernel.Chunk).
	Chunked
	// ChunkedThen is a chunk loop whose stream, a StreamMap, feeds more
	// members (Chunk.Then): after the chunk function returned a chunk,
	// they run as one loop over its elements at their global indices,
	// folds and scans carrying their accumulators from chunk to chunk
	// (chunkthen.go; StreamPart and ThenPart are its two halves).
	ChunkedThen
)

var formNames = [...]string{"sequence", "call", "loop", "chunked", "chunked-then"}

func (f Form) String() string { return formNames[f] }

// Role is what a member does in its kernel.
type Role int

const (
	// Gen is Iota (the index) or Replicate (a value).
	Gen Role = iota
	// Map computes one element per element of its inputs.
	Map
	// Fold is a reduction: an accumulator folded left to right.
	Fold
	// Scan is a running accumulator, each value an element.
	Scan
	// Filter keeps some elements: its kept elements form a space.
	Filter
	// Stream is StreamMap or StreamRed, the last member of a Chunked
	// kernel or the only member of a Call.
	Stream
)

var roleNames = [...]string{"gen", "map", "fold", "scan", "filter", "stream"}

func (r Role) String() string { return roleNames[r] }

// Store is how a member's materialised output is written.
type Store int

const (
	// NoStore: the output is not materialised (internal, a fold's
	// result, or a result nobody reads).
	NoStore Store = iota
	// Indexed: allocated with the loop's length, written at the index.
	Indexed
	// AtCount: allocated with the loop's length, written at the kept
	// count for every element, cut to the count after the loop (a
	// select space).
	AtCount
	// Appended: allocated with the loop's length as capacity, kept
	// elements appended (a branch space).
	Appended
)

var storeNames = [...]string{"none", "indexed", "at-count", "appended"}

func (s Store) String() string { return storeNames[s] }

// Root is the index of the root space in Kernel.Spaces.
const Root = 0

// Space is the root iteration space or the kept elements of a filter.
// Invariant: a space's Parent has a smaller index; Spaces[Root] is the
// root, with Parent and Filter -1.
type Space struct {
	Parent int
	// Filter is the index in Kernel.Members of the filter whose kept
	// elements the space holds.
	Filter int
	// Select reports that the members reading the kept elements run for
	// every element and keep their effect only when the predicate holds:
	// no branch on the data. Only a space directly under the root is a
	// select.
	Select bool
}

// Member is one SOAC of a kernel with its role.
type Member struct {
	SOAC *ir.SOAC
	Role Role
	// Space is the space of the elements the member reads (and of its
	// own elements, for a map or a scan); the root for generators.
	Space int
	// Kept is the space of a filter's kept elements (-1 otherwise).
	Kept int
	// Store is how the member's output is materialised.
	Store Store
	// Split reports that a fold is split over Kernel.Unroll accumulators
	// (the operator is exactly associative and commutative).
	Split bool
	// NeutralSelect reports that a fold in a select space folds its
	// neutral element for a dropped element (exact for the operator);
	// otherwise it folds every element and keeps the new accumulator
	// only when the predicate holds (integers).
	NeutralSelect bool
	// StartNotNeutral reports that a fold's or scan's operator is one the
	// generator recognises (not idempotent) and its start is not provably
	// the operator's neutral element: several partial folds that each
	// start from it (a parallel backend's chunks) would combine it more
	// than once, which the spec does not.
	StartNotNeutral bool
	// StartOp is, when StartNotNeutral, the operator (token.ADD,
	// token.MUL or token.XOR, on integers or, ADD and MUL, on floats):
	// its own neutral element (0, 1; -0 for a float sum, which leaves
	// every float unchanged) is where a partial fold that does not hold
	// the start may begin, the start being combined once, by the first.
	StartOp token.Token
	// IdemStart is, for a fold whose start is not a constant and whose
	// operator is one exactOps knows as idempotent, the operator: "max",
	// "min" (the builtins), "|" or "&". Partial folds may each start from
	// the start (StartNotNeutral is false); a backend that builds a
	// constant neutral element into its code folds from the operator's
	// identity instead and combines the start once.
	IdemStart string
	// Unread reports that nothing reads a map's elements: it is stored
	// nowhere, and its consumers' lambdas ignore the parameter its
	// elements are bound to (or are unread themselves); its lambda is a
	// literal that is pure, cannot panic and captures nothing, so the
	// loop leaves it out (form Loop only).
	Unread bool
	// Commutative reports that a fold's operator is one exactOps knows
	// (integer + * ^ | & min max, float + *): commutative bit for bit, so a
	// backend that may re-associate the fold (parallel, opencl) may also
	// fold its elements in any order. Named operators and struct combines
	// are not assumed commutative (the caller promises associativity only).
	Commutative bool
	// Operator is, for a fold or scan whose operator is one exactOps
	// knows, that operator: "+", "*", "^", "|", "&" (its token) or "min",
	// "max" (the builtins), on integers or, "+" and "*", on floats; ""
	// for any other operator. A backend that folds elements in another
	// order or in lanes (the vector forms) reads the operation from it.
	Operator string
}

// Length is the length of an array the kernel reads or computes: len(Var)
// of an array it reads, or the length operand of generator Gen.
type Length struct {
	Var *ir.Var
	Gen *ir.SOAC
}

// Assert is a zip (Map2, Map3) whose inputs the loop treats as one
// space: the loop runs only when Lengths are equal, otherwise the members
// run as a Sequence.
type Assert struct {
	SOAC    *ir.SOAC
	Lengths []Length
}

// Buffer is where a Chunked kernel's chunk lives.
type Buffer int

const (
	// Output: the stream's input is materialised; each chunk is a slice
	// of it.
	Output Buffer = iota
	// Reused: one buffer of ChunkSize elements serves every chunk (the
	// chunk function's result cannot refer to it).
	Reused
	// Fresh: every chunk is allocated.
	Fresh
	// Input: no map feeds the stream, which reads an input of the
	// kernel: each chunk is a slice of it, as the runtime's (ChunkedThen
	// only).
	Input
)

var bufferNames = [...]string{"output", "reused", "fresh", "input"}

func (b Buffer) String() string { return bufferNames[b] }

// Chunk describes the chunk loop of a Chunked kernel.
type Chunk struct {
	Buffer Buffer
	// Range, when not nil, is the chunk function's only use of its chunk
	// parameter (besides Lens): a range loop that may run over the
	// input indices and compute each element where it reads it, with no
	// buffer. The maps are pure and cannot panic and nothing else of the
	// chunk is materialised; a backend still checks the names the maps
	// use mean the same variables inside the chunk function.
	Range *ast.RangeStmt
	Lens  []*ast.CallExpr
	// Then is the index in Kernel.Members of the first member after the
	// stream (form ChunkedThen), 0 when the stream is the last member.
	Then int
}

// Kernel is one lowered kernel.
type Kernel struct {
	// Src is the plan's kernel the lowered kernel runs.
	Src  *PlanKernel
	Form Form
	// Reason says why a kernel of several members (or of one that is not
	// a lone stream) is a Sequence.
	Reason  string
	Members []Member
	Spaces  []Space
	// Length is the loop's length (Loop and Chunked).
	Length Length
	// Asserts are checked before the loop (Loop).
	Asserts []Assert
	// Unroll is the number of copies of the loop body per iteration (1,
	// or the accumulators of the split folds).
	Unroll int
	// Rerun reports that two members may panic: a panic in the loop runs
	// the members again as a Sequence, so that the first panic is the
	// spec's.
	Rerun bool
	// Chunk is the chunk loop of a Chunked kernel.
	Chunk *Chunk
	// Later are the members written after the kernel's position in its
	// block (the engine placed the kernel at an earlier member, fusion's
	// place.go), in block order: the kernel evaluates their operands and
	// computes their results where it runs, into temporaries that their
	// own statements assign.
	Later []*ir.SOAC
}

// Function is the lowered form of one spec's plan.
type Function struct {
	// Func is the spec; Fset renders its positions (may be nil).
	Func *ir.Function
	Fset *token.FileSet
	// Kernels in the plan's order: by the position of the statement they
	// run at; a nested kernel after the kernel whose lambda holds it.
	Kernels []*Kernel
	// Of maps each plan kernel to its lowered kernel.
	Of map[*PlanKernel]*Kernel
	// Used are the variables something in the function reads: a kernel
	// output nobody reads and no Go variable holds is not materialised.
	Used map[*ir.Var]bool
}
