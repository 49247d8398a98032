package lower

// This file lowers a kernel without a stream as one loop (form Loop): the
// loop's length and the asserts before it, and each member's role, space
// and store; filters open the spaces of their kept elements (a select or
// a branch, select.go), folds split over accumulators (algebra.go).

import (
	"fmt"
	"slices"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// lengthOf returns the length of v when it is known before the loop: an
// input's len, a generator's length operand, or the length of a map's
// first input; ok is false for a filter's kept elements and a fold.
func lengthOf(member map[*ir.Var]*ir.SOAC, v *ir.Var) (lowered.Length, bool) {
	m := member[v]
	if m == nil {
		return lowered.Length{Var: v}, true
	}
	switch op := m.Op.(type) {
	case *ir.Iota, *ir.Replicate:
		return lowered.Length{Gen: m}, true
	case *ir.Screma:
		if op.Reduce == nil {
			return lengthOf(member, op.Inputs[0])
		}
	}
	return lowered.Length{}, false
}

// loop lowers k as one loop into lk, or returns the reason it cannot be
// one.
func (lw *lowerer) loop(k *fusion.Kernel, lk *lowered.Kernel) string {
	member := map[*ir.Var]*ir.SOAC{}
	for _, m := range k.SOACs {
		if m.Out != nil {
			member[m.Out] = m
		}
	}
	n, ok := loopLength(k, member)
	if !ok {
		return "the length of its iteration space is not known before the loop"
	}
	lk.Length = n
	asserts, why := lw.asserts(k, member)
	if why != "" {
		return why
	}
	lk.Asserts = asserts
	lk.Unroll = lw.unrollFactor(k)
	ls := &loopSpaces{lw: lw, k: k, lk: lk, producer: member, space: map[*ir.Var]int{}}
	for mi, m := range k.SOACs {
		mem, why := ls.member(mi, m)
		if why != "" {
			return why
		}
		lk.Members = append(lk.Members, mem)
	}
	if why := ls.gathers(); why != "" {
		return why
	}
	lk.Form = lowered.Loop
	return ""
}

// loopLength returns the length of k's iteration space: its first
// input's, or its first generator's; ok is false when neither is known
// before the loop. member maps each output of k to its member.
func loopLength(k *fusion.Kernel, member map[*ir.Var]*ir.SOAC) (lowered.Length, bool) {
	n, ok := lowered.Length{}, false
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
	return n, ok
}

// asserts returns the length asserts of k's loop, or the reason the loop
// cannot check one of them before it runs. Every Map2 and Map3 compares
// its inputs' lengths before the loop runs (the plan's asserts name them
// only for kernels of several members); inputs whose length is known
// only inside the loop (kept elements of a filter) lie in one space by
// the engine's rules.
func (lw *lowerer) asserts(k *fusion.Kernel, member map[*ir.Var]*ir.SOAC) ([]lowered.Assert, string) {
	asserts := slices.Clone(k.Asserts)
	for _, m := range k.SOACs {
		if len(m.Inputs()) > 1 && !slices.Contains(asserts, m) {
			asserts = append(asserts, m)
		}
	}
	var out []lowered.Assert
	for _, a := range asserts {
		ins := a.Inputs()
		l0, ok := lengthOf(member, ins[0])
		if !ok {
			if slices.Contains(k.Asserts, a) {
				return nil, fmt.Sprintf("the lengths %s asserts equal are known only inside the loop", lw.position(a))
			}
			continue
		}
		as := lowered.Assert{SOAC: a, Lengths: []lowered.Length{l0}}
		for _, v := range ins[1:] {
			l, ok := lengthOf(member, v)
			if !ok {
				return nil, fmt.Sprintf("the length of input %s of %s is known only inside the loop", v.Name, lw.position(a))
			}
			as.Lengths = append(as.Lengths, l)
		}
		out = append(out, as)
	}
	return out, ""
}

// loopSpaces lowers the members of one Loop kernel in order, recording
// the space of each member's elements; a filter adds the space of its
// kept elements to the kernel.
type loopSpaces struct {
	lw       *lowerer
	k        *fusion.Kernel
	lk       *lowered.Kernel
	producer map[*ir.Var]*ir.SOAC // the member computing each output of k
	space    map[*ir.Var]int      // the space of each member's elements
}

// inputs returns the space of m's inputs, or the reason they do not lie
// in one space the kernel has computed: an input of the kernel lies in
// the root.
func (ls *loopSpaces) inputs(m *ir.SOAC) (int, string) {
	sp := -1
	for i, v := range m.Inputs() {
		s, ok := ls.space[v]
		if !ok {
			if ls.producer[v] != nil || !slices.Contains(ls.k.Inputs, v) {
				return 0, fmt.Sprintf("%s reads %s, which the kernel neither reads nor has computed before it", ls.lw.position(m), v.Name)
			}
			s = lowered.Root
		}
		if i > 0 && s != sp {
			return 0, fmt.Sprintf("%s zips elements of different spaces", ls.lw.position(m))
		}
		sp = s
	}
	return sp, ""
}

// store returns how m's output, whose elements lie in space sp, is
// stored: not at all unless materialised; at the kept count in a select
// space, appended in a branch's, at the index in the root.
func (ls *loopSpaces) store(m *ir.SOAC, sp int) lowered.Store {
	switch {
	case !ls.lw.materialised(ls.k, m.Out):
		return lowered.NoStore
	case ls.lk.Spaces[sp].Select:
		return lowered.AtCount
	case sp != lowered.Root:
		return lowered.Appended
	}
	return lowered.Indexed
}

// member lowers m, the kernel's member mi, and records the space of its
// elements, or returns the reason the loop cannot run it.
func (ls *loopSpaces) member(mi int, m *ir.SOAC) (lowered.Member, string) {
	lw, k, lk := ls.lw, ls.k, ls.lk
	mem := lowered.Member{SOAC: m, Role: roleOf(m), Kept: -1}
	switch op := m.Op.(type) {
	case *ir.Iota, *ir.Replicate:
		ls.space[m.Out] = lowered.Root
		mem.Store = ls.store(m, lowered.Root)
	case *ir.Filter:
		sp, why := ls.inputs(m)
		if why != "" {
			return mem, why
		}
		mem.Space = sp
		mem.Kept = len(lk.Spaces)
		lk.Spaces = append(lk.Spaces, lowered.Space{Parent: sp, Filter: mi, Select: sp == lowered.Root && lw.selectable(k, mi)})
		ls.space[m.Out] = mem.Kept
		mem.Store = ls.store(m, mem.Kept)
	case *ir.Screma:
		sp, why := ls.inputs(m)
		if why != "" {
			return mem, why
		}
		mem.Space = sp
		switch {
		case op.Reduce != nil:
			mem.StartNotNeutral, mem.StartOp = lw.startNotNeutral(op.Reduce.Op, op.Reduce.Neutral, m.TypeArgs[0])
			mem.IdemStart = lw.idemStart(op.Reduce.Op, op.Reduce.Neutral, m.TypeArgs[0])
			mem.Commutative = lw.commutative(op.Reduce.Op, m.TypeArgs[0])
			mem.Operator = lw.operator(op.Reduce.Op, m.TypeArgs[0])
			mem.Split = lk.Unroll > 1 && lw.splittable(m)
			if lk.Spaces[sp].Select {
				xop, neutral := lw.exactReduce(op.Reduce.Op, op.Reduce.Neutral, m.TypeArgs[0])
				mem.NeutralSelect = xop != nil && neutral
			}
		case op.Scan != nil:
			mem.StartNotNeutral, mem.StartOp = lw.startNotNeutral(op.Scan.Op, op.Scan.Neutral, m.TypeArgs[0])
			mem.IdemStart = lw.idemStart(op.Scan.Op, op.Scan.Neutral, m.TypeArgs[0])
			mem.Operator = lw.operator(op.Scan.Op, m.TypeArgs[0])
			if lk.Spaces[sp].Select {
				return mem, fmt.Sprintf("%s scans the kept elements of %s, which a select does not carry", lw.position(m), lw.position(k.SOACs[lk.Spaces[sp].Filter]))
			}
			// In a kept space (filter->scanomap) the scan folds and
			// appends only the kept elements: a branch (selectable
			// refuses a select for a filter a scan reads).
			ls.space[m.Out] = sp
			mem.Store = ls.store(m, sp)
		default:
			ls.space[m.Out] = sp
			mem.Store = ls.store(m, sp)
		}
	default:
		return mem, fmt.Sprintf("%s is not a member a loop runs", lw.position(m))
	}
	return mem, ""
}

// gathers returns the reason an index read (fusion.Gather) of the kernel
// cannot be the producer's element where the consumer reads it, or "":
// both must lie in the root space, one element per iteration.
func (ls *loopSpaces) gathers() string {
	for _, g := range ls.k.Gathers {
		sp, ok := ls.space[g.Var]
		cons := slices.IndexFunc(ls.lk.Members, func(m lowered.Member) bool { return m.SOAC == g.SOAC })
		if !ok || sp != lowered.Root || cons < 0 || ls.lk.Members[cons].Space != lowered.Root {
			return fmt.Sprintf("%s reads %s at the iteration index outside the root space", ls.lw.position(g.SOAC), g.Var.Name)
		}
	}
	return ""
}
