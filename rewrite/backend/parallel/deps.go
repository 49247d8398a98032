package parallel

// This file holds what the parallel backend reads of the dependencies
// between a lowered kernel's members: the arrays a member reads an
// element of (elementReads), the members some members depend on (deps),
// the kernel cut to them (cutKernel: pass 1 of a carried loop), the
// space whose elements a member stores (storeSpace) and the member of a
// SOAC (memberOf).

import (
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// elementReads returns the arrays member s of lk reads an element of at
// each iteration: its inputs, then the arrays its literals read at the
// iteration index (lowered.PlanKernel.Gathers), whose elements the loop takes
// from their producers, members of lk. Whatever follows a member's
// dependencies through the kernel follows both: a member cut out of a
// pass leaves an index read of its array naming no element.
func elementReads(lk *lowered.Kernel, s *ir.SOAC) []*ir.Var {
	vs := slices.Clip(s.Inputs()) // appending leaves the SOAC's own slice alone
	for _, g := range lk.Src.Gathers {
		if g.SOAC == s {
			vs = append(vs, g.Var)
		}
	}
	return vs
}

// deps reports, by member index, the members that the members targets
// depend on in lk (themselves, their inputs' producers and the filters
// of their spaces, transitively).
func deps(lk *lowered.Kernel, targets []int) []bool {
	prod := map[*ir.Var]int{}
	for i, m := range lk.Members {
		if m.SOAC.Out != nil {
			prod[m.SOAC.Out] = i
		}
	}
	need := make([]bool, len(lk.Members))
	var visit func(i int)
	visit = func(i int) {
		if i < 0 || need[i] {
			return
		}
		need[i] = true
		m := lk.Members[i]
		for _, v := range elementReads(lk, m.SOAC) {
			if j, ok := prod[v]; ok {
				visit(j)
			}
		}
		if m.Space != lowered.Root {
			visit(lk.Spaces[m.Space].Filter)
		}
	}
	for _, i := range targets {
		visit(i)
	}
	return need
}

// cutKernel returns lk cut to the members that the members targets
// depend on (deps), storing nothing, with the spaces renumbered (the
// returned map: lk's space to the cut kernel's).
func cutKernel(lk *lowered.Kernel, targets []int) (*lowered.Kernel, map[int]int) {
	need := deps(lk, targets)
	cut := &lowered.Kernel{Src: lk.Src, Form: lowered.Loop, Length: lk.Length, Unroll: 1, Spaces: []lowered.Space{lk.Spaces[lowered.Root]}}
	renum := map[int]int{lowered.Root: lowered.Root}
	for i, m := range lk.Members {
		if !need[i] {
			continue
		}
		m.Store, m.Split = lowered.NoStore, false
		m.Space = renum[m.Space]
		if m.Role == lowered.Filter {
			sp := lk.Spaces[m.Kept]
			sp.Parent, sp.Filter = renum[sp.Parent], len(cut.Members)
			renum[m.Kept] = len(cut.Spaces)
			m.Kept = renum[m.Kept]
			cut.Spaces = append(cut.Spaces, sp)
		}
		cut.Members = append(cut.Members, m)
	}
	return cut, renum
}

// storeSpace is the space whose elements member m stores: a filter's kept
// elements, else its own space.
func storeSpace(m lowered.Member) int {
	if m.Role == lowered.Filter {
		return m.Kept
	}
	return m.Space
}

// memberOf returns lk's member of SOAC s.
func memberOf(lk *lowered.Kernel, s *ir.SOAC) lowered.Member {
	for _, m := range lk.Members {
		if m.SOAC == s {
			return m
		}
	}
	return lowered.Member{SOAC: s, Kept: -1}
}
