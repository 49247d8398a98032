// Package lower turns the kernels of a fusion plan (package
// analyzer/fusion) into lowered kernels: a backend-neutral description of
// how each kernel runs, with every decision about its shape made once,
// here, from the plan and the types. A lowered kernel names its form (one
// loop, a loop over the chunks of a stream, a call of the reference
// runtime, or its members one after another with the reason why), its
// iteration space and the nested spaces of kept elements, each member's
// role (generator, map, fold, scan, filter, stream), how each
// materialised output is stored (at the index, at the kept count, by
// append), which folds are split over several accumulators, which
// filters are selects instead of branches, the length asserts that guard
// the loop, and whether a panic makes the members run again unfused so
// that the first panic is the spec's.
//
// The package holds no text and renders nothing: backends (package
// rewrite's cpu backend today) render lowered kernels, and may still
// refuse one with a reason (the host code around the kernel, such as a
// lambda that names a variable shadowed where the kernel runs, is theirs
// to check). Verify checks a lowered kernel's invariants; Dump prints it
// for golden tests and debugging.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): fusion.Kernel →
// lower.Kernel: the kernel's form (Loop, Chunked, ChunkedThen — a
// StreamMap's chunk loop that runs the members after it, scans carrying
// their accumulators and filters their kept counts from chunk to chunk, on
// each chunk it returns (chunkthen.go; rendered by hostgo's
// FusedStreamThen, chunkthen.go, by the parallel backend's parthen.go, and
// by the opencl backend in two device steps, openclstreamthen.go) —, Call,
// or Sequence with the reason), its spaces (root, kept elements of
// filters: branch or select), each member's role (gen, map, fold, scan,
// filter, stream) and store (indexed, at the kept count, appended), split
// folds and the unroll factor, chunk buffers and range-fused chunk loops,
// length asserts, rerun-on-panic (when two members may panic, a StreamMap
// counting as one: a chunk of the wrong length). Every shape decision is
// made here, once; Verify, Dump (a golden per rewrite testdata case:
// testdata/*/*.lowered.golden).
package lower

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/soacgen/soacgen/analyzer/fusion"
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
	// Commutative reports that a fold's operator is one exactOps knows
	// (integer + * ^ | & min max, float + *): commutative bit for bit, so a
	// backend that may re-associate the fold (parallel, opencl) may also
	// fold its elements in any order. Named operators and struct combines
	// are not assumed commutative (the caller promises associativity only).
	Commutative bool
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
	// Src is the plan's kernel.
	Src  *fusion.Kernel
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
	Plan *fusion.Plan
	// Kernels in the plan's order.
	Kernels []*Kernel
	// Of maps each plan kernel to its lowered kernel.
	Of map[*fusion.Kernel]*Kernel
	// Used are the variables something in the function reads: a kernel
	// output nobody reads and no Go variable holds is not materialised.
	Used map[*ir.Var]bool
}

// Lower lowers every kernel of plan; info holds the types of the plan's
// package.
func Lower(plan *fusion.Plan, info *types.Info) *Function {
	lw := &lowerer{info: info, plan: plan, used: uses(plan.Func.Body), kernelsOf: map[*ir.SOAC]int{}}
	for _, k := range plan.Kernels {
		for _, m := range k.SOACs {
			lw.kernelsOf[m]++
		}
	}
	fn := &Function{Plan: plan, Of: map[*fusion.Kernel]*Kernel{}, Used: lw.used}
	for _, k := range plan.Kernels {
		lk := lw.kernel(k)
		fn.Kernels = append(fn.Kernels, lk)
		fn.Of[k] = lk
	}
	return fn
}

// lowerer lowers the kernels of one plan.
type lowerer struct {
	info      *types.Info
	plan      *fusion.Plan
	used      map[*ir.Var]bool
	kernelsOf map[*ir.SOAC]int // how many kernels a SOAC is a member of
}

// uses returns every Var something in b reads.
func uses(b *ir.Block) map[*ir.Var]bool {
	used := map[*ir.Var]bool{}
	ir.Walk(b, func(s ir.Stmt) bool {
		for _, v := range s.Effects().Uses {
			used[v] = true
		}
		if soac, ok := s.(*ir.SOAC); ok {
			for _, v := range soac.Inputs() {
				used[v] = true
			}
			for _, o := range soac.Operands() {
				for _, v := range o.Uses {
					used[v] = true
				}
			}
			for _, l := range soac.Lambdas() {
				for _, v := range l.Free {
					used[v] = true
				}
			}
		}
		return true
	})
	return used
}

// materialised reports whether output v of kernel k is stored in an
// array the generated code keeps: an output of k that a Go variable holds
// or something reads.
func (lw *lowerer) materialised(k *fusion.Kernel, v *ir.Var) bool {
	return v != nil && slices.Contains(k.Outputs, v) && (v.Obj != nil || lw.used[v])
}

// position formats the position of a SOAC for reasons.
func (lw *lowerer) position(s *ir.SOAC) string {
	if lw.plan.Fset == nil {
		return s.Name
	}
	return fmt.Sprintf("%s at %s", s.Name, shortPos(lw.plan.Fset.Position(s.Pos())))
}

// kernel lowers k.
func (lw *lowerer) kernel(k *fusion.Kernel) *Kernel {
	lk := &Kernel{Src: k, Unroll: 1, Spaces: []Space{{Parent: -1, Filter: -1}}}
	defer func() { lk.Later = later(k) }()
	if len(k.SOACs) == 1 && k.At == ir.Stmt(k.SOACs[0]) && k.SOACs[0].IsStream() && lw.kernelsOf[k.SOACs[0]] == 1 {
		lk.Form = Call
		lk.Members = []Member{{SOAC: k.SOACs[0], Role: Stream, Kept: -1}}
		return lk
	}
	lk.Rerun = panicky(k) >= 2
	var reason string
	if slices.ContainsFunc(k.SOACs, (*ir.SOAC).IsStream) {
		reason = lw.stream(k, lk)
	} else {
		reason = lw.loop(k, lk)
	}
	if reason != "" {
		*lk = Kernel{Src: k, Form: Sequence, Reason: reason, Unroll: 1, Spaces: []Space{{Parent: -1, Filter: -1}}, Rerun: lk.Rerun}
		for _, m := range k.SOACs {
			lk.Members = append(lk.Members, Member{SOAC: m, Role: roleOf(m), Kept: -1})
		}
	}
	return lk
}

// later returns the members of k written after k.At in k's block, in
// block order.
func later(k *fusion.Kernel) []*ir.SOAC {
	at := slices.Index(k.Block.Stmts, k.At)
	var out []*ir.SOAC
	for _, s := range k.Block.Stmts[at+1:] {
		if m, ok := s.(*ir.SOAC); ok && slices.Contains(k.SOACs, m) {
			out = append(out, m)
		}
	}
	return out
}

// roleOf is the role of m by its combinator.
func roleOf(m *ir.SOAC) Role {
	switch op := m.Op.(type) {
	case *ir.Iota, *ir.Replicate:
		return Gen
	case *ir.Filter:
		return Filter
	case *ir.Stream:
		return Stream
	case *ir.Screma:
		switch {
		case op.Reduce != nil:
			return Fold
		case op.Scan != nil:
			return Scan
		}
	}
	return Map
}

// panicky counts the members of k whose lambdas may panic or have
// effects, and the StreamMaps (a chunk of the wrong length panics): in
// a chunk loop a StreamMap's length check of one chunk runs before the
// other members' code of the next.
func panicky(k *fusion.Kernel) int {
	n := 0
	for _, m := range k.SOACs {
		if st, ok := m.Op.(*ir.Stream); ok && st.Kind == ir.StreamMap {
			n++
			continue
		}
		for _, l := range m.Lambdas() {
			if l.Purity.MayPanic || !l.Purity.Pure {
				n++
				break
			}
		}
	}
	return n
}

// lengthOf returns the length of v when it is known before the loop: an
// input's len, a generator's length operand, or the length of a map's
// first input; ok is false for a filter's kept elements and a fold.
func lengthOf(member map[*ir.Var]*ir.SOAC, v *ir.Var) (Length, bool) {
	m := member[v]
	if m == nil {
		return Length{Var: v}, true
	}
	switch op := m.Op.(type) {
	case *ir.Iota, *ir.Replicate:
		return Length{Gen: m}, true
	case *ir.Screma:
		if op.Reduce == nil {
			return lengthOf(member, op.Inputs[0])
		}
	}
	return Length{}, false
}

// loop lowers k as one loop into lk, or returns the reason it cannot be
// one.
func (lw *lowerer) loop(k *fusion.Kernel, lk *Kernel) string {
	member := map[*ir.Var]*ir.SOAC{}
	for _, m := range k.SOACs {
		if m.Out != nil {
			member[m.Out] = m
		}
	}
	n, ok := Length{}, false
	if len(k.Inputs) > 0 {
		n, ok = lengthOf(member, k.Inputs[0])
	}
	if !ok {
		for _, m := range k.SOACs {
			if m.IsGenerator() {
				n, ok = lengthOf(member, m.Out)
				break
			}
		}
	}
	if !ok {
		return "the length of its iteration space is not known before the loop"
	}
	lk.Length = n
	// Every Map2 and Map3 compares its inputs' lengths before the loop
	// runs (the plan's asserts name them only for kernels of several
	// members); inputs whose length is known only inside the loop (kept
	// elements of a filter) lie in one space by the engine's rules.
	asserts := slices.Clone(k.Asserts)
	for _, m := range k.SOACs {
		if len(m.Inputs()) > 1 && !slices.Contains(asserts, m) {
			asserts = append(asserts, m)
		}
	}
	for _, a := range asserts {
		ins := a.Inputs()
		l0, ok := lengthOf(member, ins[0])
		if !ok {
			if slices.Contains(k.Asserts, a) {
				return fmt.Sprintf("the lengths %s asserts equal are known only inside the loop", lw.position(a))
			}
			continue
		}
		as := Assert{SOAC: a, Lengths: []Length{l0}}
		for _, v := range ins[1:] {
			l, ok := lengthOf(member, v)
			if !ok {
				return fmt.Sprintf("the length of input %s of %s is known only inside the loop", v.Name, lw.position(a))
			}
			as.Lengths = append(as.Lengths, l)
		}
		lk.Asserts = append(lk.Asserts, as)
	}
	lk.Unroll = lw.unrollFactor(k)
	space := map[*ir.Var]int{} // the space of each member's elements
	inputs := func(m *ir.SOAC) (int, string) {
		sp := -1
		for i, v := range m.Inputs() {
			s, ok := space[v]
			if !ok {
				if member[v] != nil || !slices.Contains(k.Inputs, v) {
					return 0, fmt.Sprintf("%s reads %s, which the kernel neither reads nor has computed before it", lw.position(m), v.Name)
				}
				s = Root
			}
			if i > 0 && s != sp {
				return 0, fmt.Sprintf("%s zips elements of different spaces", lw.position(m))
			}
			sp = s
		}
		return sp, ""
	}
	for mi, m := range k.SOACs {
		mem := Member{SOAC: m, Role: roleOf(m), Kept: -1}
		store := func(sp int) {
			if !lw.materialised(k, m.Out) {
				return
			}
			switch {
			case lk.Spaces[sp].Select:
				mem.Store = AtCount
			case sp != Root:
				mem.Store = Appended
			default:
				mem.Store = Indexed
			}
		}
		switch op := m.Op.(type) {
		case *ir.Iota, *ir.Replicate:
			space[m.Out] = Root
			store(Root)
		case *ir.Filter:
			sp, why := inputs(m)
			if why != "" {
				return why
			}
			mem.Space = sp
			mem.Kept = len(lk.Spaces)
			lk.Spaces = append(lk.Spaces, Space{Parent: sp, Filter: mi, Select: sp == Root && lw.selectable(k, mi)})
			space[m.Out] = mem.Kept
			store(mem.Kept)
		case *ir.Screma:
			sp, why := inputs(m)
			if why != "" {
				return why
			}
			mem.Space = sp
			switch {
			case op.Reduce != nil:
				mem.StartNotNeutral, mem.StartOp = lw.startNotNeutral(op.Reduce.Op, op.Reduce.Neutral, m.TypeArgs[0])
				mem.IdemStart = lw.idemStart(op.Reduce.Op, op.Reduce.Neutral, m.TypeArgs[0])
				mem.Commutative = lw.commutative(op.Reduce.Op, m.TypeArgs[0])
				mem.Split = lk.Unroll > 1 && lw.splittable(m)
				if lk.Spaces[sp].Select {
					xop, neutral := lw.exactReduce(op.Reduce.Op, op.Reduce.Neutral, m.TypeArgs[0])
					mem.NeutralSelect = xop != nil && neutral
				}
			case op.Scan != nil:
				mem.StartNotNeutral, mem.StartOp = lw.startNotNeutral(op.Scan.Op, op.Scan.Neutral, m.TypeArgs[0])
				mem.IdemStart = lw.idemStart(op.Scan.Op, op.Scan.Neutral, m.TypeArgs[0])
				if lk.Spaces[sp].Select {
					return fmt.Sprintf("%s scans the kept elements of %s, which a select does not carry", lw.position(m), lw.position(k.SOACs[lk.Spaces[sp].Filter]))
				}
				// In a kept space (filter->scanomap) the scan folds and
				// appends only the kept elements: a branch (selectable
				// refuses a select for a filter a scan reads).
				space[m.Out] = sp
				store(sp)
			default:
				space[m.Out] = sp
				store(sp)
			}
		default:
			return fmt.Sprintf("%s is not a member a loop runs", lw.position(m))
		}
		lk.Members = append(lk.Members, mem)
	}
	// An index read (fusion.Gather) is the producer's element where the
	// consumer reads it: both lie in the root space, one element per
	// iteration.
	for _, g := range k.Gathers {
		sp, ok := space[g.Var]
		cons := slices.IndexFunc(lk.Members, func(m Member) bool { return m.SOAC == g.SOAC })
		if !ok || sp != Root || cons < 0 || lk.Members[cons].Space != Root {
			return fmt.Sprintf("%s reads %s at the iteration index outside the root space", lw.position(g.SOAC), g.Var.Name)
		}
	}
	lk.Form = Loop
	return ""
}

// stream lowers k, maps feeding one stream, as a chunk loop into lk, or
// returns the reason it cannot be one.
func (lw *lowerer) stream(k *fusion.Kernel, lk *Kernel) string {
	last := k.SOACs[len(k.SOACs)-1]
	st, ok := last.Op.(*ir.Stream)
	if si := slices.IndexFunc(k.SOACs, (*ir.SOAC).IsStream); !ok && si >= 0 {
		return lw.streamThen(k, lk, si)
	}
	switch {
	case !ok:
		return fmt.Sprintf("its stream is not its last member (%s is)", lw.position(last))
	case len(k.Asserts) > 0:
		return fmt.Sprintf("a chunk loop does not check the lengths %s zips", lw.position(k.Asserts[0]))
	case len(k.Inputs) == 0:
		return "it reads no array"
	case len(k.Gathers) > 0:
		return fmt.Sprintf("a chunk loop does not put elements where %s reads %s at the iteration index", lw.position(k.Gathers[0].SOAC), k.Gathers[0].Var.Name)
	}
	member := map[*ir.Var]*ir.SOAC{}
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		if !m.IsMap() {
			return fmt.Sprintf("%s runs beside the stream %s; a chunk loop fuses only maps that feed its stream", lw.position(m), lw.position(last))
		}
		member[m.Out] = m
	}
	if member[st.Input] == nil {
		return fmt.Sprintf("the stream %s does not read a map of the kernel", lw.position(last))
	}
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		for _, v := range m.Inputs() {
			if member[v] == nil && !slices.Contains(k.Inputs, v) {
				return fmt.Sprintf("%s reads %s, which the kernel neither reads nor has computed before it", lw.position(m), v.Name)
			}
		}
	}
	lk.Length = Length{Var: k.Inputs[0]}
	ch := &Chunk{}
	// The buffer is reused only if no value the chunk function returns
	// may refer to it (&chunk[i], chunk[i:j]): StreamRed's result, or the
	// elements StreamMap copies out of its result.
	kept := st.Chunk.Sig.Results().At(0).Type()
	if st.Kind == ir.StreamMap {
		kept = kept.Underlying().(*types.Slice).Elem()
	}
	switch {
	case lw.materialised(k, st.Input):
		ch.Buffer = Output
	case !HasRefs(kept):
		ch.Buffer = Reused
	default:
		ch.Buffer = Fresh
	}
	rangeOK := ch.Buffer != Output
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		mem := Member{SOAC: m, Role: Map, Kept: -1}
		if lw.materialised(k, m.Out) {
			mem.Store = Indexed
			rangeOK = false
		}
		if l := m.Op.(*ir.Screma).Map; !l.Purity.Pure || l.Purity.MayPanic {
			rangeOK = false
		}
		lk.Members = append(lk.Members, mem)
	}
	lk.Members = append(lk.Members, Member{SOAC: last, Role: Stream, Kept: -1})
	if rangeOK {
		ch.Range, ch.Lens = lw.chunkRange(st.Chunk)
		if ch.Range == nil {
			ch.Lens = nil
		}
	}
	lk.Chunk = ch
	lk.Form = Chunked
	return ""
}

// HasRefs reports whether values of t may refer to other memory.
func HasRefs(t types.Type) bool {
	switch t := t.Underlying().(type) {
	case *types.Basic:
		return t.Kind() == types.String || t.Kind() == types.UnsafePointer
	case *types.Array:
		return HasRefs(t.Elem())
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if HasRefs(t.Field(i).Type()) {
				return true
			}
		}
		return false
	}
	return true
}
