package fusion

// This file validates a Plan (run in every test, and available to callers
// as a debugging switch like the Go compiler's ssa/check).
//
// It does NOT re-decide legality of the fusions; it checks the plan's
// structural invariants.

import (
	"errors"
	"fmt"
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// Check validates the structure of plan: every SOAC of the function is in
// exactly one kernel, except producers copied into kernels of disjoint
// branches (or of a branch that returns and of the statements after it);
// members share the kernel's block (or are generators and
// branch copies moved in from an enclosing block); producers precede their
// consumers; an impure SOAC is alone in its kernel (or an impure map with
// the pure reduction it fused into, effects.go); At is one of the kernel's
// members in its block (its last, unless the kernel was placed earlier,
// place.go); Depth and Parent agree with the IR; and running every SOAC
// at its kernel's position keeps every dependency in program order
// (order.go); and an array a kernel reads that a SOAC computes is
// written out by a kernel of that SOAC on the kernel's paths.
func Check(plan *Plan) error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	p := posFmt{plan.Fset}
	index := map[ir.Stmt]int{}
	var all []*ir.SOAC
	ir.Walk(plan.Func.Body, func(s ir.Stmt) bool {
		if soac, ok := s.(*ir.SOAC); ok {
			all = append(all, soac)
		}
		return true
	})
	var number func(b *ir.Block)
	number = func(b *ir.Block) {
		for i, s := range b.Stmts {
			index[s] = i
			for _, nb := range ir.Children(s) {
				number(nb)
			}
		}
	}
	number(plan.Func.Body)
	in := map[*ir.SOAC][]*Kernel{}
	for i, k := range plan.Kernels {
		if k.ID != i+1 {
			bad("kernel %d has ID %d", i+1, k.ID)
		}
		if len(k.SOACs) == 0 {
			bad("kernel %d is empty", k.ID)
			continue
		}
		if d := ir.Depth(k.Block); d != k.Depth {
			bad("kernel %d has depth %d, its block depth %d", k.ID, k.Depth, d)
		}
		if k.Depth > 0 && k.Parent == nil {
			bad("kernel %d at depth %d has no parent", k.ID, k.Depth)
		}
		pos := map[*ir.SOAC]int{}
		var last *ir.SOAC
		for i, m := range k.SOACs {
			if _, dup := pos[m]; dup {
				bad("kernel %d lists %s twice", k.ID, p.soac(m))
			}
			pos[m] = i
			in[m] = append(in[m], k)
			if m.Parent == k.Block {
				if last == nil || index[m] > index[last] {
					last = m
				}
				continue
			}
			if !encloses(m.Parent, k.Block) {
				bad("kernel %d: member %s is not in its block or an enclosing one", k.ID, p.soac(m))
			} else if !m.IsGenerator() && !onlyBranches(m.Parent, k.Block) {
				bad("kernel %d: member %s from an enclosing block crosses a loop or lambda", k.ID, p.soac(m))
			}
		}
		if at, ok := k.At.(*ir.SOAC); last == nil || !ok || at.Parent != k.Block || !slices.Contains(k.SOACs, at) {
			bad("kernel %d: At is not one of its members in its block", k.ID)
		}
		for _, m := range k.SOACs {
			for _, v := range m.Inputs() {
				if d, ok := v.Def.(*ir.SOAC); ok {
					if j, ok := pos[d]; ok && j > pos[m] {
						bad("kernel %d: producer %s listed after its consumer %s", k.ID, p.soac(d), p.soac(m))
					}
				}
			}
			if len(k.SOACs) > 1 && soacImpure(m) != nil && !effectsKernel(plan.Func, k.SOACs) {
				bad("kernel %d: impure %s shares the kernel", k.ID, p.soac(m))
			}
		}
	}
	for _, s := range all {
		ks := in[s]
		switch {
		case len(ks) == 0:
			bad("%s is in no kernel", p.soac(s))
		case len(ks) > 1:
			for i := range ks {
				for j := i + 1; j < len(ks); j++ {
					if !disjoint(ks[i].Block, ks[j].Block) && !apartChains(parentChain(ks[i].At), parentChain(ks[j].At)) {
						bad("%s is in kernels %d and %d, which are not on disjoint branches", p.soac(s), ks[i].ID, ks[j].ID)
					}
				}
			}
		}
	}
	for _, k := range plan.Kernels {
		for _, v := range k.Inputs {
			if d, ok := v.Def.(*ir.SOAC); ok && d.Out == v && !computedFor(in[d], v, k) {
				bad("kernel %d reads %s, which no kernel of %s writes out on its path", k.ID, v.Name, p.soac(d))
			}
		}
	}
	if r := kernelOrder(plan, NewGraph(plan.Func, plan.Fset)); r != nil {
		bad("kernels out of dependency order: %s", r.Reason)
	}
	return errors.Join(errs...)
}

// computedFor reports whether one of kernels ks (those holding v's
// producer) writes v out and runs on the paths of kernel k: not in
// another branch of an if or switch, nor apart from it by a branch that
// returns (a producer copied into a kernel per path computes its output
// on that path only).
func computedFor(ks []*Kernel, v *ir.Var, k *Kernel) bool {
	for _, kd := range ks {
		if slices.Contains(kd.Outputs, v) && !disjoint(kd.Block, k.Block) && !apartChains(parentChain(kd.At), parentChain(k.At)) {
			return true
		}
	}
	return false
}

// encloses reports whether block outer is inner or holds it.
func encloses(outer, inner *ir.Block) bool {
	for b := inner; b != nil; {
		if b == outer {
			return true
		}
		if b.Parent == nil {
			return false
		}
		b = b.Parent.Block()
	}
	return false
}

// onlyBranches reports whether every statement holding inner up to outer
// is an if or switch.
func onlyBranches(outer, inner *ir.Block) bool {
	for b := inner; b != outer && b != nil && b.Parent != nil; b = b.Parent.Block() {
		switch b.Parent.(type) {
		case *ir.If, *ir.Switch:
		default:
			return false
		}
	}
	return true
}

// disjoint reports whether blocks a and b lie in different branches of one
// if or switch (so that no execution runs both).
func disjoint(a, b *ir.Block) bool {
	// child[blk] = the block under blk on the way down to a.
	child := map[*ir.Block]*ir.Block{}
	var prev *ir.Block
	for blk := a; blk != nil; {
		child[blk] = prev
		prev = blk
		if blk.Parent == nil {
			break
		}
		blk = blk.Parent.Block()
	}
	prev = nil
	for blk := b; blk != nil; {
		if ca, ok := child[blk]; ok {
			if ca == nil || prev == nil || ca == prev {
				return false
			}
			// ca and prev are nested blocks of statements in blk: disjoint
			// only when they are two branches of the same if or switch.
			if ca.Parent != prev.Parent {
				return false
			}
			switch ca.Parent.(type) {
			case *ir.If, *ir.Switch:
				return true
			}
			return false
		}
		prev = blk
		if blk.Parent == nil {
			break
		}
		blk = blk.Parent.Block()
	}
	return false
}
