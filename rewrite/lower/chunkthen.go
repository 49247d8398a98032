package lower

// This file lowers a StreamMap that feeds more members of its kernel
// (form ChunkedThen; the rules stream->scanomap, stream->filter and
// stream->stream with a Map or Reduce consumer): the maps feeding the
// stream and the stream itself form a chunk loop as in form Chunked, and
// the members after the stream form a loop over the stream's output
// (its root space), run on each chunk the chunk function returned, right
// after its length is checked. The two halves are views of the kernel
// (StreamPart, ThenPart), so that the code of each is the code of a
// Chunked kernel and of a Loop. Every chunking gives the spec's result:
// the members after the stream read each element of the stream's output
// once, in order, whatever chunk it came in, and the spec's own chunks
// (ChunkSize, which the length panic names) are the ones the chunk loop
// uses.
//
// It does not decide whether the members may share a kernel (the fusion
// engine's shapeCheck does) nor render the loops (rewrite/hostgo does).

import (
	"fmt"
	"slices"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// streamThen lowers k, whose stream is member si and not its last, into
// lk, or returns the reason it cannot be a chunk loop.
func (lw *lowerer) streamThen(k *fusion.Kernel, lk *lowered.Kernel, si int) string {
	s := k.SOACs[si]
	st := s.Op.(*ir.Stream)
	if st.Kind != ir.StreamMap {
		return fmt.Sprintf("%s follows the stream %s in the kernel: only a StreamMap's chunk loop runs members after its stream", lw.position(k.SOACs[si+1]), lw.position(s))
	}
	if len(k.Asserts) > 0 {
		return fmt.Sprintf("a chunk loop does not check the lengths %s zips", lw.position(k.Asserts[0]))
	}
	// The members after the stream read only its output and each
	// other's: a loop over the stream's output.
	after := map[*ir.Var]bool{s.Out: true}
	for _, m := range k.SOACs[si+1:] {
		if m.IsStream() {
			return fmt.Sprintf("%s and %s are two streams: a chunk loop runs one", lw.position(s), lw.position(m))
		}
		for _, v := range m.Inputs() {
			if !after[v] {
				return fmt.Sprintf("%s reads %s beside the output of %s: the loop after the stream runs over its chunks only", lw.position(m), v.Name, lw.position(s))
			}
		}
		if m.Out != nil {
			after[m.Out] = true
		}
	}
	// The stream's half: maps feeding it, or the stream reading an input.
	head := &lowered.Kernel{Src: lw.planKernel(k), Unroll: 1, Spaces: []lowered.Space{{Parent: -1, Filter: -1}}}
	if si > 0 {
		part := *k
		part.SOACs = k.SOACs[:si+1]
		if why := lw.stream(&part, head); why != "" {
			return why
		}
	} else {
		if !slices.Contains(k.Inputs, st.Input) {
			return fmt.Sprintf("the stream %s reads neither an input nor a map of the kernel", lw.position(s))
		}
		head.Members = []lowered.Member{{SOAC: s, Role: lowered.Stream, Kept: -1}}
		head.Length = lowered.Length{Var: st.Input}
		head.Chunk = &lowered.Chunk{Buffer: lowered.Input}
	}
	// The members' half: a loop over the stream's output.
	tail := &lowered.Kernel{Src: lw.planKernel(k), Unroll: 1, Spaces: []lowered.Space{{Parent: -1, Filter: -1}}}
	if why := lw.loop(thenMembers(k, si+1, s.Out), tail); why != "" {
		return why
	}
	if tail.Length != (lowered.Length{Var: s.Out}) {
		return fmt.Sprintf("the loop after the stream %s does not run over its output", lw.position(s))
	}
	for _, a := range tail.Asserts {
		for _, l := range a.Lengths {
			if l != tail.Length {
				return fmt.Sprintf("the lengths %s asserts equal are not all the stream's", lw.position(a.SOAC))
			}
		}
	}
	lk.Form = lowered.ChunkedThen
	lk.Length = head.Length
	lk.Chunk = head.Chunk
	lk.Chunk.Then = si + 1
	lk.Members = append(head.Members, tail.Members...)
	lk.Unroll = tail.Unroll
	lk.Spaces = slices.Clone(tail.Spaces)
	for i := range lk.Spaces[1:] {
		lk.Spaces[i+1].Filter += si + 1
	}
	return ""
}

// thenMembers is the plan kernel of the members of k from index then
// on, reading the stream's output out (lowered.Kernel.ThenPart's plan
// kernel).
func thenMembers(k *fusion.Kernel, then int, out *ir.Var) *fusion.Kernel {
	part := *k
	part.SOACs = k.SOACs[then:]
	part.Inputs = []*ir.Var{out}
	part.Asserts = nil
	return &part
}
