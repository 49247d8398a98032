package lowered

// This file holds the two halves of a ChunkedThen kernel as kernels of
// their own (StreamPart, ThenPart): the maps and the stream form a
// Chunked kernel, the members after the stream a Loop over the stream's
// output, so that the code of each is the code of those forms.

import (
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// thenSrc is the plan kernel of the members of k from index then on,
// reading the stream's output out.
func thenSrc(k *PlanKernel, then int, out *ir.Var) *PlanKernel {
	part := *k
	part.SOACs = k.SOACs[then:]
	part.Inputs = []*ir.Var{out}
	part.Asserts = nil
	return &part
}

// StreamPart returns the maps and the stream of a ChunkedThen kernel as
// a Chunked kernel of their own (its Src a copy of the plan kernel with
// those members), or the stream alone with Chunk.Buffer Input.
func (k *Kernel) StreamPart() *Kernel {
	then := k.Chunk.Then
	src := *k.Src
	src.SOACs = k.Src.SOACs[:then]
	ch := *k.Chunk
	ch.Then = 0
	return &Kernel{Src: &src, Form: Chunked, Members: k.Members[:then], Spaces: []Space{{Parent: -1, Filter: -1}},
		Length: k.Length, Unroll: 1, Chunk: &ch}
}

// Stream returns the stream member of a ChunkedThen kernel.
func (k *Kernel) Stream() *ir.SOAC { return k.Members[k.Chunk.Then-1].SOAC }

// ThenPart returns the members after the stream of a ChunkedThen kernel
// as a Loop over the stream's output (its Src a copy of the plan kernel
// with those members, reading that output).
func (k *Kernel) ThenPart() *Kernel {
	then := k.Chunk.Then
	out := k.Stream().Out
	spaces := slices.Clone(k.Spaces)
	for i := range spaces[1:] {
		spaces[i+1].Filter -= then
	}
	return &Kernel{Src: thenSrc(k.Src, then, out), Form: Loop, Members: k.Members[then:], Spaces: spaces,
		Length: Length{Var: out}, Unroll: k.Unroll}
}
