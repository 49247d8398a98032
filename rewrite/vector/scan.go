package vector

// This file translates an integer scan into lanes: each vector's
// inclusive prefix by in-register steps, then the running accumulator
// (the carry) folded into every lane.
//
// For lanes x0..x(L-1) the prefix takes log2(L) steps: step s (1, 2, 4,
// ...) folds into each lane j ≥ s the lane j-s of the previous step
// (lanes below s fold in the operator's identity). After the steps lane
// j holds x0 op ... op xj, grouped differently from the scalar loop's
// left-to-right order: exact for the integer operators of foldRules,
// which are associative bit for bit (wraparound included). The scan's
// elements are then carry op prefix, and the next carry is carry op the
// prefix's last lane broadcast, a chain of one operation per vector.
//
// The lane moves are permutations by constant indices. At 512 bits one
// instruction takes the identity's lanes in where lanes shift out
// (ConcatPermute: VPERMI2D/Q, AVX-512). At 256 bits AVX2's permutation
// of 32-bit lanes (VPERMD) moves the lanes, 64-bit lanes as pairs of
// 32-bit ones, and a blend with a constant mask puts the identity in.

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// scan computes scan member m's elements on lanes (see the file
// comment), stores them where the kernel materialises them and gives
// them to the members that read them.
func (fm *form) scan(m lowered.Member, args []*val, elems map[*ir.Var]*val) string {
	k := fm.k
	if m.Space != lowered.Root {
		return fmt.Sprintf("%s scans a filter's kept elements, whose prefix skips the dropped lanes", k.at(m.SOAC))
	}
	x, fr, why := fm.accumulated(m, args, "scan", "scans")
	if why != "" {
		return why
	}
	if fr.method == "And" || fr.method == "Or" || fr.method == "Xor" {
		// The prefix steps chain the operator on its own results.
		fm.chainedBits("a scan with "+m.Operator, val{bits: true})
	}
	id := fm.broadcast(x.l, jen.Id(basicName(x.l)).Call(fr.identity(x.l)), "identity "+m.Operator)
	if fm.width == 512 {
		k.folds = append(k.folds, m.SOAC)
	}
	lanes := x.l.count(fm.width)
	p := x
	for s := 1; s < lanes; s *= 2 {
		sh := fm.shiftUp(p, id, s)
		p = fm.bind(val{c: jen.Add(p.c).Dot(fr.method).Call(sh.c), l: x.l, refs: from(p, sh)})
	}
	acc := k.accName(m.SOAC)
	carry := "v" + acc
	cb := &binding{stmt: jen.Id(carry).Op(":=").Add(simd("Broadcast" + x.l.vec(fm.width)).Call(jen.Id(basicName(x.l)).Call(jen.Id(acc)))), root: true}
	fm.pre = append(fm.pre, cb)
	cv := val{c: jen.Id(carry), l: x.l, refs: []*binding{cb}}
	y := fm.bind(val{c: jen.Id(carry).Dot(fr.method).Call(p.c), l: x.l, refs: from(cv, p)})
	last := fm.lastLane(p)
	fm.root(&fm.body, jen.Id(carry).Op("=").Id(carry).Dot(fr.method).Call(last.c), from(cv, last))
	fm.combine = append(fm.combine, foldCombine{acc: acc, vec: carry, op: m.Operator, l: x.l, t: m.SOAC.TypeArgs[0], carry: true})
	elems[m.SOAC.Out] = &y
	return fm.store(m, y, m.Space, nil)
}

// shiftUp returns v's lanes moved s lanes up, lane j taking lane j-s
// and lanes below s the identity id's.
func (fm *form) shiftUp(v, id val, s int) val {
	lanes := v.l.count(fm.width)
	idx := make([]int, lanes)
	for j := range idx {
		if j >= s {
			idx[j] = j - s
		} else {
			idx[j] = lanes // id's first lane, at 512 bits
		}
	}
	if fm.width == 512 {
		ix := fm.indices(v.l, idx)
		return fm.bind(val{c: jen.Add(v.c).Dot("ConcatPermute").Call(id.c, ix.c), l: v.l, refs: from(v, id, ix)})
	}
	moved := fm.permute256(v, idx)
	keep := make([]int, lanes)
	for j := range keep {
		if j >= s {
			keep[j] = -1
		}
	}
	mask := fm.constant(v.l.ints(), keep, "ToMask")
	return fm.bind(val{c: jen.Add(moved.c).Dot("Merge").Call(id.c, mask.c), l: v.l, refs: from(moved, id, mask)})
}

// lastLane returns v's last lane in every lane.
func (fm *form) lastLane(v val) val {
	lanes := v.l.count(fm.width)
	idx := make([]int, lanes)
	for j := range idx {
		idx[j] = lanes - 1
	}
	if fm.width == 512 {
		ix := fm.indices(v.l, idx)
		return fm.bind(val{c: jen.Add(v.c).Dot("Permute").Call(ix.c), l: v.l, refs: from(v, ix)})
	}
	return fm.permute256(v, idx)
}

// permute256 returns v's lanes permuted by idx (lane j takes lane
// idx[j]; an index ≥ the lane count takes lane 0) at 256 bits with
// AVX2's VPERMD: 64-bit lanes move as pairs of 32-bit lanes.
func (fm *form) permute256(v val, idx []int) val {
	lanes := len(idx)
	if v.l.bits == 32 {
		ix := fm.indices(v.l, clampIdx(idx, lanes))
		return fm.bind(val{c: jen.Add(v.c).Dot("Permute").Call(ix.c), l: v.l, refs: from(v, ix)})
	}
	pairs := make([]int, 0, 2*lanes)
	for _, j := range clampIdx(idx, lanes) {
		pairs = append(pairs, 2*j, 2*j+1)
	}
	half := lane{t: v.l.t, class: v.l.class, bits: 32}
	ix := fm.indices(half, pairs)
	as32, as64 := "As"+half.vec(256), "As"+v.l.vec(256)
	return fm.bind(val{c: jen.Add(v.c).Dot(as32).Call().Dot("Permute").Call(ix.c).Dot(as64).Call(), l: v.l, refs: from(v, ix)})
}

// clampIdx maps the indices past the lanes to lane 0.
func clampIdx(idx []int, lanes int) []int {
	out := make([]int, len(idx))
	for j, i := range idx {
		if i < lanes {
			out[j] = i
		}
	}
	return out
}

// indices is a constant vector of permutation indices for lanes like
// l's (unsigned lanes of l's width), loaded once before the loop.
func (fm *form) indices(l lane, idx []int) val {
	return fm.constant(l.uints(), idx, "")
}

// constant is a vector of lane l's type holding vals, loaded before the
// loop (then converted by method conv, when not ""); equal constants
// share one load.
func (fm *form) constant(l lane, vals []int, conv string) val {
	key := fmt.Sprintf("const %s %v %s", l.vec(fm.width), vals, conv)
	if v, ok := fm.consts[key]; ok {
		return v
	}
	var lits []jen.Code
	for _, x := range vals {
		lits = append(lits, jen.Lit(x))
	}
	c := simd("Load" + l.vec(fm.width)).Call(jen.Op("&").Index(jen.Lit(len(vals))).Id(basicName(l)).Values(lits...))
	if conv != "" {
		c = c.Dot(conv).Call()
	}
	n := fm.fresh("k")
	b := fm.define(&fm.pre, n, c, nil)
	v := val{c: jen.Id(n), l: l, refs: []*binding{b}}
	fm.consts[key] = v
	return v
}
