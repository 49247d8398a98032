package vector

// This file translates each kind of member into a form.

import (
	"fmt"
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// inputName is the vector function's name of input v.
func (k *Kernel) inputName(v *ir.Var) string {
	for i, in := range k.inputs {
		if in == v {
			return fmt.Sprintf("in%d", i)
		}
	}
	return "in?"
}

// storeName is the vector function's name of the array member s stores.
func (k *Kernel) storeName(s *ir.SOAC) string {
	for i, st := range k.stores {
		if st == s {
			return fmt.Sprintf("out%d", i)
		}
	}
	return "out?"
}

// countName is the vector function's name of space sp's kept count.
func (k *Kernel) countName(sp int) string {
	for i, c := range k.counts {
		if c == sp {
			return fmt.Sprintf("cnt%d", i)
		}
	}
	k.counts = append(k.counts, sp)
	return fmt.Sprintf("cnt%d", len(k.counts)-1)
}

// accName is the vector function's name of fold s's accumulator.
func (k *Kernel) accName(s *ir.SOAC) string {
	for i, fo := range k.folds {
		if fo == s {
			return fmt.Sprintf("acc%d", i)
		}
	}
	return "acc?"
}

// iota is the lane indices i, i+1, ...: a broadcast of i plus the
// constant 0, 1, ... (64-bit lanes: Iota's elements are ints).
func (fm *form) iota(m lowered.Member, elems map[*ir.Var]*val) string {
	l, _ := laneOf(types.Typ[types.Int])
	if why := fm.lanesOK(l2v(l), m.SOAC.Pos()); why != "" {
		return why
	}
	steps := make([]int, l.count(fm.width))
	for j := range steps {
		steps[j] = j
	}
	sv := fm.constant(l, steps, "")
	// off is the index of the function's first element in the loop (a
	// parallel chunk's lo).
	fm.k.indexed = true
	v := fm.bind(val{c: simd("Broadcast" + l.vec(fm.width)).Call(jen.Int64().Call(jen.Id("off").Op("+").Id("i"))).Dot("Add").Call(sv.c), l: l, refs: sv.refs})
	elems[m.SOAC.Out] = &v
	fm.use(binaryRules[token.ADD], l, "+")
	return fm.store(m, v, m.Space, nil)
}

// l2v is a value of lane l, for checks of its width.
func l2v(l lane) val { return val{l: l} }

// replicate is its value broadcast, evaluated where the kernel runs.
func (fm *form) replicate(m lowered.Member, op *ir.Replicate, elems map[*ir.Var]*val) string {
	k := fm.k
	t := m.SOAC.Out.Type
	l, why := laneOf(elemType(t))
	if why != "" {
		return fmt.Sprintf("%s: %s", k.at(m.SOAC), why)
	}
	if why := fm.lanesOK(l2v(l), m.SOAC.Pos()); why != "" {
		return why
	}
	name := ""
	for _, p := range k.params {
		if p.key == m.SOAC {
			name = p.name
		}
	}
	if name == "" {
		name = k.addParam(elemType(t), k.f.OperandCode(m.SOAC, op.Value), m.SOAC)
	}
	v := fm.broadcast(l, jen.Id(basicName(l)).Call(jen.Id(name)), "replicate "+name)
	elems[m.SOAC.Out] = &v
	return fm.store(m, v, m.Space, nil)
}

// filter is a mask of its predicate; its kept elements are its input's,
// which only selects read (a branch space was refused).
func (fm *form) filter(m lowered.Member, op *ir.Filter, elem func(*ir.Var) (*val, string), elems map[*ir.Var]*val, masks map[int]val) string {
	k := fm.k
	in, why := elem(op.Input)
	if why != "" {
		return why
	}
	if in == nil {
		return fmt.Sprintf("%s filters the elements of a map left out of the loop", k.at(m.SOAC))
	}
	p, why := fm.apply(op.Pred, []*val{in})
	if why != "" {
		return why
	}
	if !p.mask {
		return fmt.Sprintf("%s: its predicate is not a comparison", k.at(m.SOAC))
	}
	if parent, ok := masks[m.Space]; ok {
		p = val{c: jen.Add(p.c).Dot("And").Call(parent.c), l: p.l, mask: true, refs: from(p, parent)}
	}
	mask := fm.bind(p)
	masks[m.Kept] = mask
	elems[m.SOAC.Out] = in
	return fm.store(m, *in, m.Kept, &mask)
}

// mapMember is its lambda applied to the lanes of its inputs.
func (fm *form) mapMember(m lowered.Member, op *ir.Screma, args []*val, elems map[*ir.Var]*val, masks map[int]val) string {
	k := fm.k
	for i, a := range args {
		if a != nil {
			if why := fm.lanesOK(*a, m.SOAC.Pos()); why != "" {
				return why
			}
		} else if !unusedParam(op.Map, i, k.info) {
			return fmt.Sprintf("%s reads the elements of a map left out of the loop", k.at(m.SOAC))
		}
	}
	v, why := fm.apply(op.Map, args)
	if why != "" {
		return why
	}
	if v.mask {
		return fmt.Sprintf("%s: its elements are booleans", k.at(m.SOAC))
	}
	rl, why := laneOf(op.Map.Sig.Results().At(0).Type())
	if why != "" {
		return fmt.Sprintf("%s: %s", k.at(m.SOAC), why)
	}
	if rl.bits != v.l.bits || rl.class != v.l.class {
		return fmt.Sprintf("%s: its result is %s, its lanes %s", k.at(m.SOAC), rl.t, v.l.t)
	}
	v.l = rl
	if why := fm.lanesOK(v, m.SOAC.Pos()); why != "" {
		return why
	}
	v = fm.bind(v)
	elems[m.SOAC.Out] = &v
	var mask *val
	if mk, ok := masks[m.Space]; ok {
		mask = &mk
	}
	return fm.store(m, v, m.Space, mask)
}

// unusedParam reports whether parameter i of l's literal is unnamed or
// blank or unused.
func unusedParam(l *ir.Lambda, i int, info *types.Info) bool {
	if l.Lit == nil {
		return false
	}
	j := 0
	for _, field := range l.Lit.Type.Params.List {
		if len(field.Names) == 0 {
			if j == i {
				return true
			}
			j++
			continue
		}
		for _, id := range field.Names {
			if j == i {
				return id.Name == "_" || !usesObj(l, info.Defs[id], info)
			}
			j++
		}
	}
	return false
}

// foldRules are the integer folds computed in lanes: the method that
// folds two vectors and the operator's identity, with which a lane
// starts and which a dropped element (a select) contributes.
var foldRules = map[string]foldRule{
	"+":   {rule{method: "Add", on: integers}, func(lane) jen.Code { return jen.Lit(0) }},
	"*":   {rule{method: "Mul", on: integers, wide64: true}, func(lane) jen.Code { return jen.Lit(1) }},
	"^":   {rule{method: "Xor", on: integers}, func(lane) jen.Code { return jen.Lit(0) }},
	"|":   {rule{method: "Or", on: integers}, func(lane) jen.Code { return jen.Lit(0) }},
	"&":   {rule{method: "And", on: integers}, allOnes},
	"min": {rule{method: "Min", on: integers, wide64: true}, largest},
	"max": {rule{method: "Max", on: integers, wide64: true}, smallest},
}

func allOnes(l lane) jen.Code {
	if l.class == signed {
		return jen.Lit(-1)
	}
	return jen.Qual("math", fmt.Sprintf("MaxUint%d", l.bits))
}

func largest(l lane) jen.Code {
	if l.class == signed {
		return jen.Qual("math", fmt.Sprintf("MaxInt%d", l.bits))
	}
	return jen.Qual("math", fmt.Sprintf("MaxUint%d", l.bits))
}

func smallest(l lane) jen.Code {
	if l.class == signed {
		return jen.Qual("math", fmt.Sprintf("MinInt%d", l.bits))
	}
	return jen.Lit(0)
}

// fold folds its element into a vector accumulator: exact in any order
// for the integer operators of foldRules. In a select space a dropped
// lane contributes the identity.
func (fm *form) fold(m lowered.Member, args []*val, masks map[int]val) string {
	k := fm.k
	x, fr, why := fm.accumulated(m, args, "fold", "folds")
	if why != "" {
		return why
	}
	id := fm.broadcast(x.l, jen.Id(basicName(x.l)).Call(fr.identity(x.l)), "identity "+m.Operator)
	if mk, ok := masks[m.Space]; ok {
		x = fm.bind(val{c: jen.Add(x.c).Dot("Merge").Call(id.c, mk.c), l: x.l, refs: from(x, id, mk)})
	}
	if fm.width == 512 {
		k.folds = append(k.folds, m.SOAC)
	}
	va := "v" + k.accName(m.SOAC)
	vb := &binding{stmt: jen.Id(va).Op(":=").Add(id.c), deps: id.refs, root: true}
	fm.pre = append(fm.pre, vb)
	if fr.method == "And" || fr.method == "Or" || fr.method == "Xor" {
		fm.chainedBits("a fold with "+m.Operator, x)
	}
	fm.root(&fm.body, jen.Id(va).Op("=").Id(va).Dot(fr.method).Call(x.c), append([]*binding{vb}, x.refs...))
	fm.combine = append(fm.combine, foldCombine{acc: k.accName(m.SOAC), vec: va, op: m.Operator, l: x.l, t: m.SOAC.TypeArgs[0]})
	return ""
}

// foldRule is an operator folded or scanned in lanes.
type foldRule = struct {
	rule
	identity func(l lane) jen.Code
}

// accumulated checks the element of fold or scan member m (kind "fold"
// or "scan", verb "folds" or "scans"): one integer input whose operator
// foldRules knows and this form's width computes; it returns the element
// and the operator's rule, or why the member stays scalar.
func (fm *form) accumulated(m lowered.Member, args []*val, kind, verb string) (val, foldRule, string) {
	k := fm.k
	if len(args) != 1 || args[0] == nil {
		return val{}, foldRule{}, fmt.Sprintf("%s %s the elements of a map left out of the loop", k.at(m.SOAC), verb)
	}
	x := *args[0]
	if x.l.class == floating {
		return val{}, foldRule{}, fmt.Sprintf("%s is a float %s, which keeps its left-to-right order on the cpu backend", k.at(m.SOAC), kind)
	}
	fr, ok := foldRules[m.Operator]
	if !ok {
		return val{}, foldRule{}, fmt.Sprintf("%s %s with an operator the vector forms do not know (integer + * ^ | & min max)", k.at(m.SOAC), verb)
	}
	if why := fm.lanesOK(x, m.SOAC.Pos()); why != "" {
		return val{}, foldRule{}, why
	}
	if why := fm.use(fr.rule, x.l, m.Operator); why != "" {
		return val{}, foldRule{}, fmt.Sprintf("%s: %s", k.at(m.SOAC), why)
	}
	return x, fr, ""
}

// foldCombine is a fold's vector accumulator, combined into its scalar
// accumulator after the loop.
type foldCombine struct {
	acc, vec, op string
	l            lane
	t            types.Type
	// carry: a scan's carry, the accumulator in every lane, which the
	// scalar accumulator becomes.
	carry bool
}
