package fusion

// This file defines the Partitioner interface, the greedy implementation
// that runs the driver, and the assembly of a Plan from the driver's
// kernels (inputs, outputs, internal arrays, forms, nesting).
//
// It does NOT decide anything about legality or rules.

import (
	"sort"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// Partitioner chooses the kernels of one function: a partition of its
// SOACs into sets that each run as one pass.
//
// Greedy, the bottom-up T2 driver of Henriksen & Oancea, "A T2 Graph-Reduction Approach to Fusion" (2013) [T2-fusion], is one implementation. An
// optimal clustering is another: Robinson et al., "Clustering for Array-Backed Streams" (2014) [Robinson-ILP] §1.4 formulates fusion as an
// integer linear program (a variable x_ij per pair of combinators, fused or
// not, with fusion-preventing edges and the concestor constraints of
// Fig. 1.8 as linear constraints, minimising passes over memory), and
// Kristensen et al., "Fusion of Array Operations at Runtime" (2016) [Bohrium-WSP] as a weighted subroutine partitioning (WSP) problem solved by branch
// and bound. Either would reuse NewGraph, conflict, the spaces and the rule
// table to enumerate legal pairs, and build its Plan with the same
// assembly.
type Partitioner interface {
	// Name identifies the algorithm in Plan.Partitioner.
	Name() string
	// Partition decides the kernels of fn.
	Partition(fn *ir.Function, opts Options) *Plan
}

// Greedy is the bottom-up T2 driver (driver.go): vertical fusion of each
// producer into its consumers' kernel, last statement first, then a greedy
// horizontal pass per block.
type Greedy struct{}

// Name implements Partitioner.
func (Greedy) Name() string { return "greedy" }

// Partition implements Partitioner.
func (Greedy) Partition(fn *ir.Function, opts Options) *Plan {
	st := newState(fn, opts)
	st.run()
	p := st.plan("greedy")
	pr := newPricing(fn, opts, st.g, st.sp)
	p.Cost = pr.cost(pr.labelsOf(p))
	return p
}

// plan assembles the Plan from the live kernels.
func (st *state) plan(name string) *Plan {
	p := &Plan{Func: st.fn, Fset: st.opts.Fset, Partitioner: name, GasExhausted: st.gasOut,
		Notes: st.notes, Diagnostics: st.diags}
	var live []*kstate
	for _, k := range st.kernels {
		if !k.dead {
			live = append(live, k)
		}
	}
	kernels := map[*kstate]*Kernel{}
	for _, k := range live {
		K := &Kernel{
			SOACs: append([]*ir.SOAC(nil), k.list...), Block: k.block, At: st.at(k),
			Depth: ir.Depth(k.block), Rules: append([]string(nil), k.rules...), Form: kernelForm(k.list),
		}
		if len(k.list) > 1 { // a lone Map2/Map3 checks its own lengths
			K.Asserts, _ = st.sp.compat(k.list)
		}
		members := k.members
		seen := map[*ir.Var]bool{}
		for _, m := range k.list {
			if m.Parent != k.block {
				K.Moved = append(K.Moved, m)
			}
			for _, v := range st.copies[m] {
				K.Copies = append(K.Copies, Copy{SOAC: m, Var: v})
			}
			for _, gt := range st.g.Gathers[m] {
				if d, ok := gt.Var.Def.(*ir.SOAC); ok && members[d] {
					K.Gathers = append(K.Gathers, gt)
				}
			}
			for _, v := range m.Inputs() {
				if d, ok := v.Def.(*ir.SOAC); ok && members[d] {
					continue
				}
				if !seen[v] {
					seen[v] = true
					K.Inputs = append(K.Inputs, v)
				}
			}
			if m.Out == nil {
				continue
			}
			// Internal: every use is an input of a member of this kernel or,
			// for a producer copied into disjoint branches, of a kernel that
			// holds its own copy.
			uses := st.g.Uses[m.Out]
			internal := len(uses) > 0
			for _, u := range uses {
				c, ok := u.Stmt.(*ir.SOAC)
				if !ok || u.Kind != ArrayFlow || !(members[c] || st.sameKernel(m, c)) {
					internal = false
				}
			}
			if internal {
				K.Internal = append(K.Internal, m.Out)
			} else {
				K.Outputs = append(K.Outputs, m.Out)
			}
		}
		kernels[k] = K
	}
	// Parent: the kernel holding the SOAC whose lambda holds the block.
	for k, K := range kernels {
		for b := k.block; b != nil && b.Parent != nil; b = b.Parent.Block() {
			if soac, ok := b.Parent.(*ir.SOAC); ok {
				if pk := st.kernelOf(soac); pk != nil {
					K.Parent = kernels[pk]
				}
				break
			}
		}
	}
	// Order: by position, each kernel followed by the kernels nested in it.
	children := map[*Kernel][]*Kernel{}
	var roots []*Kernel
	for _, K := range kernels {
		if K.Parent == nil {
			roots = append(roots, K)
		} else {
			children[K.Parent] = append(children[K.Parent], K)
		}
	}
	byPos := func(ks []*Kernel) {
		sort.Slice(ks, func(i, j int) bool { return st.g.Order(ks[i].At) < st.g.Order(ks[j].At) })
	}
	var visit func(ks []*Kernel)
	visit = func(ks []*Kernel) {
		byPos(ks)
		for _, K := range ks {
			K.ID = len(p.Kernels) + 1
			p.Kernels = append(p.Kernels, K)
			visit(children[K])
		}
	}
	visit(roots)
	sort.SliceStable(p.Notes, func(i, j int) bool { return p.Notes[i].Pos < p.Notes[j].Pos })
	sort.SliceStable(p.Diagnostics, func(i, j int) bool { return p.Diagnostics[i].Pos < p.Diagnostics[j].Pos })
	p.Stats = computeStats(st, p)
	return p
}

// sameKernel reports whether some live kernel holds both a and b.
func (st *state) sameKernel(a, b *ir.SOAC) bool {
	for _, k := range st.of[b] {
		if !k.dead && k.members[a] {
			return true
		}
	}
	return false
}
