package lowered

// This file checks the invariants of lowered kernels. It does not check
// that a kernel computes what its members compute: the lowering is
// tested against the spec through the generated code.

import (
	"errors"
	"fmt"
	"slices"
)

// Verify checks the invariants of every kernel of fn and returns them
// joined, or nil.
func Verify(fn *Function) error {
	var errs []error
	for i, k := range fn.Kernels {
		if fn.Of[k.Src] != k {
			errs = append(errs, fmt.Errorf("kernel %d: not the lowered kernel of its plan kernel", k.Src.ID))
		}
		if p := k.Src.Parent; p != nil && !slices.ContainsFunc(fn.Kernels[:i], func(o *Kernel) bool { return o.Src == p }) {
			errs = append(errs, fmt.Errorf("kernel %d: after its nested kernel %d", p.ID, k.Src.ID))
		}
		if err := VerifyKernel(k); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// VerifyKernel checks the invariants of one lowered kernel: its members
// are the plan kernel's, in order; spaces nest (a parent before its
// child, a select directly under the root, a filter's kept space its
// own); stores agree with their spaces; only unstored maps of a loop are
// unread; only folds split, only loops
// without scans and stored kept elements unroll; a Sequence says why.
func VerifyKernel(k *Kernel) error {
	if len(k.Members) != len(k.Src.SOACs) {
		return k.bad("%d members, the plan's kernel has %d", len(k.Members), len(k.Src.SOACs))
	}
	for _, m := range k.Later {
		if m.Parent != k.Src.Block || m == k.Src.At || !slices.Contains(k.Src.SOACs, m) {
			return k.bad("%s, placed after the kernel, is not one of its members in its block after its position", m.Name)
		}
	}
	for i, m := range k.Members {
		if m.SOAC != k.Src.SOACs[i] {
			return k.bad("member %d is not the plan's member %d", i, i)
		}
		if m.Unread && k.Form != Loop {
			return k.bad("%s unread outside a loop", m.SOAC.Name)
		}
	}
	if len(k.Spaces) == 0 || k.Spaces[Root] != (Space{Parent: -1, Filter: -1}) {
		return k.bad("space 0 is not the root")
	}
	if k.Unroll < 1 {
		return k.bad("unroll %d", k.Unroll)
	}
	switch k.Form {
	case Sequence:
		if k.Reason == "" {
			return k.bad("a sequence without a reason")
		}
		if len(k.Spaces) != 1 || k.Unroll != 1 || k.Chunk != nil || len(k.Asserts) > 0 {
			return k.bad("a sequence with a loop's structure")
		}
		return nil
	case Call:
		if len(k.Members) != 1 || k.Members[0].Role != Stream {
			return k.bad("a call is one stream")
		}
		return nil
	case ChunkedThen:
		if k.Chunk == nil || k.Chunk.Then < 1 || k.Chunk.Then >= len(k.Members) || k.Members[k.Chunk.Then-1].Role != Stream {
			return k.bad("a chunk loop with members after its stream without them")
		}
		if err := VerifyKernel(k.StreamPart()); err != nil {
			return k.bad("its stream's half: %v", err)
		}
		if err := VerifyKernel(k.ThenPart()); err != nil {
			return k.bad("its members after the stream: %v", err)
		}
		return nil
	case Chunked:
		return verifyChunked(k)
	case Loop:
		return verifyLoop(k)
	}
	return k.bad("unknown form")
}

// bad is the error of kernel k that format and args describe.
func (k *Kernel) bad(format string, args ...any) error {
	return fmt.Errorf("kernel %d (%s): %s", k.Src.ID, k.Form, fmt.Sprintf(format, args...))
}

// verifyChunked checks a Chunked kernel: maps in the root space, stored
// at the index or not at all, feeding one stream over an input's length.
func verifyChunked(k *Kernel) error {
	if k.Chunk == nil || k.Chunk.Then != 0 || k.Chunk.Buffer == Input && len(k.Members) > 1 || k.Members[len(k.Members)-1].Role != Stream || k.Unroll != 1 || len(k.Spaces) != 1 {
		return k.bad("a chunk loop is maps in the root space feeding one stream")
	}
	if k.Length.Var == nil {
		return k.bad("a chunk loop without the length of an input")
	}
	for _, m := range k.Members[:len(k.Members)-1] {
		if m.Role != Map || m.Space != Root || m.Store == AtCount || m.Store == Appended {
			return k.bad("%s in a chunk loop is not a map stored at the index", m.SOAC.Name)
		}
		if k.Chunk.Range != nil && m.Store != NoStore {
			return k.bad("a range-fused chunk loop materialises %s", m.SOAC.Name)
		}
	}
	return nil
}

// verifyLoop checks a Loop kernel: its length, its spaces, each member's
// role, space and store, and what its unrolled copies carry.
func verifyLoop(k *Kernel) error {
	if (k.Length.Var == nil) == (k.Length.Gen == nil) {
		return k.bad("the loop's length is neither an input's nor a generator's")
	}
	for si, s := range k.Spaces[1:] {
		si++
		if s.Parent < 0 || s.Parent >= si {
			return k.bad("space %d has parent %d", si, s.Parent)
		}
		if s.Filter < 0 || s.Filter >= len(k.Members) || k.Members[s.Filter].Kept != si {
			return k.bad("space %d is not the kept space of member %d", si, s.Filter)
		}
		if s.Select && s.Parent != Root {
			return k.bad("space %d is a select below another filter", si)
		}
	}
	scans, keptStores := 0, 0
	for _, m := range k.Members {
		if err := verifyLoopMember(k, m); err != nil {
			return err
		}
		if m.Role == Scan {
			scans++ // a scan's order is carried between iterations
		}
		if m.Store == AtCount || m.Store == Appended {
			keptStores++
		}
	}
	// Unrolled copies carry nothing from one to the next but the
	// accumulators: no scan, no kept count or appended element. A filter
	// whose kept elements only folds read carries nothing (the parallel
	// backend's chunks: accum.go); lower unrolls no filter.
	if k.Unroll > 1 && (scans > 0 || keptStores > 0) {
		return k.bad("unrolled %d times with a scan or stored kept elements", k.Unroll)
	}
	return nil
}

// verifyLoopMember checks member m of Loop kernel k: its space exists,
// its role fits it, only a fold splits or selects its neutral element,
// and its store agrees with the space of its own elements.
func verifyLoopMember(k *Kernel, m Member) error {
	if m.Space < 0 || m.Space >= len(k.Spaces) {
		return k.bad("%s in space %d", m.SOAC.Name, m.Space)
	}
	own := m.Space
	switch m.Role {
	case Filter:
		if m.Kept <= m.Space || k.Spaces[m.Kept].Parent != m.Space {
			return k.bad("filter %s keeps into space %d", m.SOAC.Name, m.Kept)
		}
		own = m.Kept
	case Scan:
		if k.Spaces[m.Space].Select {
			return k.bad("scan %s of the elements a select keeps", m.SOAC.Name)
		}
	case Gen:
		if m.Space != Root {
			return k.bad("generator %s outside the root space", m.SOAC.Name)
		}
	case Stream:
		return k.bad("stream %s in a loop", m.SOAC.Name)
	}
	if m.Role != Filter && m.Kept != -1 {
		return k.bad("%s keeps elements", m.SOAC.Name)
	}
	if m.Split && (m.Role != Fold || k.Unroll == 1) {
		return k.bad("%s split over %d accumulators", m.SOAC.Name, k.Unroll)
	}
	if m.NeutralSelect && (m.Role != Fold || !k.Spaces[m.Space].Select) {
		return k.bad("%s selects its neutral element outside a select space", m.SOAC.Name)
	}
	if m.Unread && (m.Role != Map || m.Store != NoStore) {
		return k.bad("%s is unread but a %s stored %s", m.SOAC.Name, m.Role, m.Store)
	}
	if m.Role == Fold && m.Store != NoStore {
		return k.bad("fold %s stores an array", m.SOAC.Name)
	}
	want := Indexed
	switch {
	case k.Spaces[own].Select:
		want = AtCount
	case own != Root:
		want = Appended
	}
	if m.Store != NoStore && m.Store != want {
		return k.bad("%s stored %s in space %d, want %s", m.SOAC.Name, m.Store, own, want)
	}
	return nil
}
