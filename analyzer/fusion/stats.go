package fusion

// This file computes the fusion statistics of a plan (Henriksen & Oancea, "A T2 Graph-Reduction Approach to Fusion" (2013) [T2-fusion] Fig. 18).
//
// It does NOT decide anything; it counts what the driver did.

import (
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
)

func computeStats(st *state, p *Plan) Stats {
	s := Stats{Rules: map[string]int{}}
	for n, c := range st.fired {
		s.Rules[n] = c
	}
	for _, soac := range st.g.SOACs {
		if !soac.IsGenerator() {
			s.PassesBefore++
		}
	}
	// A kernel of generators alone (a Replicate whose array is only a
	// fold's neutral element, say) is a pass in the generated code, and
	// so is the generator in the unfused program; PassesBefore excepts
	// generators, so PassesAfter excepts such kernels: the two compare.
	for _, k := range p.Kernels {
		if !slices.ContainsFunc(k.SOACs, func(m *ir.SOAC) bool { return !m.IsGenerator() }) {
			continue
		}
		s.PassesAfter++
	}
	removed := map[*ir.Var]bool{}
	for _, k := range p.Kernels {
		for _, v := range k.Internal {
			removed[v] = true
		}
	}
	s.IntermediatesRemoved = len(removed)
	return s
}
