package opencl

// This file is the opencl backend's part for the kept-element spaces of
// filters. Each space gets a keep flag in the element code (an int, set
// when its filter's predicate holds and its parent space's flag is set);
// the members reading a space's elements run only when its flag is set,
// so a lambda that would panic on a dropped element does not run on it.
// A kernel that materialises nothing of a space folds its kept elements
// as selects (the neutral element for a dropped one) in the map-reduce
// skeleton; one that materialises the kept elements of one space runs on
// the filter skeleton (skel.Filter), which writes them compacted, in
// order, with the kernel's captured values as its arguments. It does not
// render a filter kernel that materialises two spaces. A fold of every
// element beside compacted outputs is a reduction of skel.Filter that
// folds every element (skel.Reduction.All).

import (
	"fmt"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// compaction sets ck.compact: the one space whose kept elements the
// kernel materialises, or the root when it materialises none.
func (ck *clKernel) compaction(outs map[*ir.Var]string) string {
	var first *ir.SOAC
	for _, m := range ck.lk.Members {
		if !stored(m, outs) {
			continue
		}
		s := m.Space
		if m.Role == lowered.Filter {
			s = m.Kept
		}
		if s == lowered.Root {
			continue
		}
		if ck.compact != lowered.Root && ck.compact != s {
			return fmt.Sprintf("%s and %s store the kept elements of two filters: the filter skeleton compacts one", soacPos(ck.f, first), soacPos(ck.f, m.SOAC))
		}
		ck.compact, first = s, m.SOAC
	}
	return ""
}

// elements returns the C values of the elements member m reads, checking
// that each is of m's space.
func (ck *clKernel) elements(m lowered.Member) ([]string, string) {
	var args []string
	for _, v := range m.SOAC.Inputs() {
		c, ok := ck.cname[v]
		if !ok || ck.space[v] != m.Space {
			return nil, fmt.Sprintf("%s reads %s outside its own space of elements", soacPos(ck.f, m.SOAC), v.Name)
		}
		args = append(args, c)
	}
	// The elements of its index reads (lowered.PlanKernel.Gathers), in the
	// order of the lambda's Reads parameters (clKernel.lambda): another
	// member's elements, computed before in the root space.
	for _, g := range ck.lk.Src.Gathers {
		if g.SOAC != m.SOAC {
			continue
		}
		c, ok := ck.cname[g.Var]
		if !ok || ck.space[g.Var] != lowered.Root || m.Space != lowered.Root {
			return nil, fmt.Sprintf("%s reads %s at the iteration index, which the kernel does not compute before it in its space", soacPos(ck.f, m.SOAC), g.Var.Name)
		}
		args = append(args, c)
	}
	return args, ""
}

// filterMember sets the keep flag of the space filter m keeps, whose
// elements are its input's, and stores them when they are materialised.
func (ck *clKernel) filterMember(m lowered.Member, outs map[*ir.Var]string) string {
	op := m.SOAC.Op.(*ir.Filter)
	fn, why := ck.lambda(m.SOAC, op.Pred)
	if why != "" {
		return why
	}
	args, why := ck.elements(m)
	if why != "" {
		return why
	}
	k := fmt.Sprintf("k__k%d", m.Kept)
	call := fn.Call(args, "", "&k__e")
	if m.Space == lowered.Root {
		fmt.Fprintf(&ck.body, "const int %s = %s;\n", k, call)
	} else {
		fmt.Fprintf(&ck.body, "int %s = 0;\nif (%s) {\n%s = %s;\n}\n", k, ck.keep[m.Space], k, call)
	}
	ck.keep[m.Kept] = k
	ck.cname[m.SOAC.Out] = args[0]
	ck.space[m.SOAC.Out] = m.Kept
	if !stored(m, outs) {
		return ""
	}
	return ck.store(m, args[0], elemOf(op.Input.Type))
}

// foldElement assigns fold or scan m's element to its reduction: in a
// kept space, the neutral element for a dropped element (a select), or,
// in a filter kernel, the element of the compacted space, which the
// skeleton folds only when kept.
func (ck *clKernel) foldElement(m lowered.Member) string {
	r := ck.reds[ck.redIndex(m.SOAC)]
	args, why := ck.elements(m)
	if why != "" {
		return why
	}
	v := r.cast + args[0]
	switch {
	case m.Space == lowered.Root && ck.compact != lowered.Root:
		// Every element, beside the kept ones the kernel stores: the
		// filter skeleton's reduction folds them all (skel.Reduction.All).
		ck.reds[ck.redIndex(m.SOAC)].all = true
		fmt.Fprintf(&ck.body, "%s = %s;\n", r.c, v)
	case m.Space == lowered.Root || m.Space == ck.compact:
		fmt.Fprintf(&ck.body, "%s = %s;\n", r.c, v)
	case ck.compact != lowered.Root:
		return fmt.Sprintf("%s folds the kept elements of another filter than the one whose elements the kernel stores", soacPos(ck.f, m.SOAC))
	case r.neutral == "{0}":
		fmt.Fprintf(&ck.body, "if (%s) {\n%s = %s;\n} else {\nconst %s__t k__z = {0};\n%s = k__z;\n}\n", ck.keep[m.Space], r.c, v, r.c, r.c)
	default:
		fmt.Fprintf(&ck.body, "%s = %s ? %s : %s;\n", r.c, ck.keep[m.Space], v, r.neutral)
	}
	return ""
}

// filterShape ends the element code of a filter kernel: its keep is the
// compacted space's flag, or set when a panic site was reached, so that
// the skeleton folds the panic flag of that element too.
func (ck *clKernel) filterShape() string {
	fmt.Fprintf(&ck.body, "keep = %s || k__e != 0;\nk__err = k__e;\n", ck.keep[ck.compact])
	return ""
}
