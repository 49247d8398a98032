package lower

// This file lowers maps feeding one stream as a chunk loop (form
// Chunked): where each chunk lives (Buffer) and whether the chunk
// function's range loop computes the maps' elements where it reads them
// (chunk.go). A stream feeding more members is chunkthen.go's.

import (
	"fmt"
	"go/types"
	"slices"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// stream lowers k, maps feeding one stream, as a chunk loop into lk, or
// returns the reason it cannot be one.
func (lw *lowerer) stream(k *fusion.Kernel, lk *lowered.Kernel) string {
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
	lk.Length = lowered.Length{Var: k.Inputs[0]}
	ch := &lowered.Chunk{}
	// The buffer is reused only if no value the chunk function returns
	// may refer to it (&chunk[i], chunk[i:j]): StreamRed's result, or the
	// elements StreamMap copies out of its result.
	kept := st.Chunk.Sig.Results().At(0).Type()
	if st.Kind == ir.StreamMap {
		kept = kept.Underlying().(*types.Slice).Elem()
	}
	switch {
	case lw.materialised(k, st.Input):
		ch.Buffer = lowered.Output
	case !HasRefs(kept):
		ch.Buffer = lowered.Reused
	default:
		ch.Buffer = lowered.Fresh
	}
	rangeOK := ch.Buffer != lowered.Output
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		mem := lowered.Member{SOAC: m, Role: lowered.Map, Kept: -1}
		if lw.materialised(k, m.Out) {
			mem.Store = lowered.Indexed
			rangeOK = false
		}
		if l := m.Op.(*ir.Screma).Map; !l.Purity.Pure || l.Purity.MayPanic {
			rangeOK = false
		}
		lk.Members = append(lk.Members, mem)
	}
	lk.Members = append(lk.Members, lowered.Member{SOAC: last, Role: lowered.Stream, Kept: -1})
	if rangeOK {
		ch.Range, ch.Lens = lw.chunkRange(st.Chunk)
		if ch.Range == nil {
			ch.Lens = nil
		}
	}
	lk.Chunk = ch
	lk.Form = lowered.Chunked
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
