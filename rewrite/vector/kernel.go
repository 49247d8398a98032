package vector

// This file checks a kernel's members and translates them into one form
// per width: maps computed on lanes (stored when the kernel
// materialises them), Iota as lane indices, Replicate as a broadcast,
// filters whose kept elements only selects read as masks, and integer
// folds into vector accumulators, combined with the scalar accumulator
// after the loop.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// Outcome is what the translator did with one kernel, for the report:
// the widths of the forms it wrote (512, 256), or why it wrote none.
// Notes say why a width is missing or what a build must be to run them.
type Outcome struct {
	Widths []int
	Reason string
	Notes  []string
}

// Kernel is a loop kernel with vector forms: what its call passes and
// receives, and the forms by width.
type Kernel struct {
	f    *hostgo.Func
	lk   *lowered.Kernel
	info *types.Info
	// inputs are the kernel's inputs the forms load, in the kernel's
	// order; stores the members whose elements they store; folds the
	// folds they accumulate; params the scalars they broadcast (captured
	// variables, Replicate values) with their code where the kernel runs.
	inputs []*ir.Var
	stores []*ir.SOAC
	folds  []*ir.SOAC
	params []param
	// counts are the spaces whose kept counts the forms advance.
	counts []int
	// indexed reports that the forms read the loop's index (Iota): the
	// function takes the index of its first element.
	indexed bool
	// mayFuse: a lambda whose products the compiler may fuse (the forms
	// run only in builds that cannot).
	mayFuse bool
	// bits is the lanes' width in bits, the same for every value.
	bits  int
	forms map[int]*form
	// missing says why a width has no form.
	missing map[int]string
}

// param is a scalar the forms broadcast: its name in the vector
// function, its type, and its code where the kernel runs.
type param struct {
	name string
	t    types.Type
	code *jen.Statement
	key  any
}

// pos renders a position of the spec as the report's reasons do:
// file:line:col, the file's base name.
func (k *Kernel) pos(p token.Pos) string {
	fs := k.f.Fset()
	if fs == nil {
		return "?"
	}
	ps := fs.Position(p)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(ps.Filename), ps.Line, ps.Column)
}

// at names member s: "the Reduce at x.go:12:9".
func (k *Kernel) at(s *ir.SOAC) string { return "the " + s.Name + " at " + k.pos(s.Pos()) }

// callee returns the function or builtin call e calls, or nil.
func (k *Kernel) callee(e *ast.CallExpr) types.Object {
	switch fun := ast.Unparen(e.Fun).(type) {
	case *ast.Ident:
		return k.info.Uses[fun]
	case *ast.SelectorExpr:
		return k.info.Uses[fun.Sel]
	}
	return nil
}

// capture returns the name in the vector function of variable obj,
// which lambda l reads at id: a parameter the call passes. Two reads
// share a parameter when their code where the kernel runs is the same: a
// variable the kernel copies for one member (reassigned before a later
// member reads it) is two parameters, the copy and the variable.
func (k *Kernel) capture(l *ir.Lambda, id *ast.Ident, obj types.Object) (string, string) {
	code, ok := k.f.Captured(l, id, k.lk.Src.At.Pos())
	if !ok {
		return "", fmt.Sprintf("%s: captured %s means another variable where the kernel runs", k.pos(id.Pos()), id.Name)
	}
	key := fmt.Sprintf("%#v", code)
	for _, p := range k.params {
		if p.key == key {
			return p.name, ""
		}
	}
	return k.addParam(obj.Type(), code, key), ""
}

// addParam adds a scalar parameter.
func (k *Kernel) addParam(t types.Type, code *jen.Statement, key any) string {
	name := fmt.Sprintf("p%d", len(k.params))
	k.params = append(k.params, param{name: name, t: t, code: code, key: key})
	return name
}

// Build translates loop kernel lk of the spec f generates into vector
// forms, or returns why it does not (Outcome.Reason). It is called where
// the kernel's code is generated, before its loop is rendered.
func Build(f *hostgo.Func, lk *lowered.Kernel) (*Kernel, Outcome) {
	if lk.Form != lowered.Loop {
		return nil, Outcome{Reason: "it is not one loop (form " + lk.Form.String() + ")"}
	}
	if len(lk.Src.Gathers) > 0 {
		return nil, Outcome{Reason: "a member reads an array at another index"}
	}
	if lk.Rerun {
		return nil, Outcome{Reason: "its members may panic"}
	}
	for i, sp := range lk.Spaces {
		if i != lowered.Root && (sp.Parent != lowered.Root || !sp.Select) {
			return nil, Outcome{Reason: "a filter's kept elements are read in a branch, not a select"}
		}
	}
	k := &Kernel{f: f, lk: lk, info: f.Info(), forms: map[int]*form{}, missing: map[int]string{}}
	for _, m := range lk.Members {
		for _, l := range m.SOAC.Lambdas() {
			if l.Lit != nil && f.MayFuse(l) {
				k.mayFuse = true
			}
		}
	}
	for _, w := range []int{512, 256} {
		fm := &form{k: k, width: w, consts: map[string]val{}, loads: map[*ir.Var]*binding{}, keptSpaces: map[int]val{}}
		if why := fm.members(); why != "" {
			return nil, Outcome{Reason: why}
		}
		if !fm.hasRoot() || k.bits == 0 {
			return nil, Outcome{Reason: "it stores nothing and folds nothing"}
		}
		if w == 256 && fm.avx512 {
			k.missing[w] = fm.why512 + " has no AVX2 instruction"
			continue
		}
		if fm.miscompiled != "" {
			k.missing[w] = fm.miscompiled
			continue
		}
		k.forms[w] = fm
	}
	if len(k.forms) == 0 {
		return nil, Outcome{Reason: "no width has a form: " + k.missing[512] + "; " + k.missing[256]}
	}
	return k, k.outcome()
}

// outcome is the report of an accepted kernel.
func (k *Kernel) outcome() Outcome {
	var o Outcome
	for _, w := range []int{512, 256} {
		if k.forms[w] != nil {
			o.Widths = append(o.Widths, w)
		} else {
			o.Notes = append(o.Notes, fmt.Sprintf("no %d-bit form: %s", w, k.missing[w]))
		}
	}
	if k.mayFuse {
		o.Notes = append(o.Notes, "a lambda's product may be fused with an addition (FMA): the forms run only in builds that never fuse (GOAMD64 below v3)")
	}
	return o
}

// members translates every member into fm, or says why one cannot be.
func (fm *form) members() string {
	k := fm.k
	elems := map[*ir.Var]*val{}
	masks := map[int]val{}
	loaded := map[*ir.Var]bool{}
	elem := func(v *ir.Var) (*val, string) {
		if e, ok := elems[v]; ok {
			return e, ""
		}
		l, why := laneOf(elemType(v.Type))
		if why != "" {
			return nil, "input " + v.Name + ": " + why
		}
		if why := fm.lanesOK(l2v(l), k.lk.Src.At.Pos()); why != "" {
			return nil, why
		}
		if !loaded[v] {
			loaded[v] = true
			if fm.width == 512 {
				k.inputs = append(k.inputs, v)
			}
		}
		e := fm.bind(val{c: simd("Load" + l.vec(fm.width) + "Slice").Call(jen.Id(k.inputName(v) + "v").Index(jen.Id("i").Op(":").Id("i").Op("+").Lit(l.count(fm.width)))), l: l})
		fm.loads[v] = e.refs[0]
		elems[v] = &e
		return &e, ""
	}
	for _, m := range k.lk.Members {
		if m.Unread {
			elems[m.SOAC.Out] = nil
			continue
		}
		why := ""
		switch op := m.SOAC.Op.(type) {
		case *ir.Iota:
			why = fm.iota(m, elems)
		case *ir.Replicate:
			why = fm.replicate(m, op, elems)
		case *ir.Filter:
			why = fm.filter(m, op, elem, elems, masks)
		case *ir.Screma:
			args := []*val{}
			for _, v := range m.SOAC.Inputs() {
				a, why := elem(v)
				if why != "" {
					return why
				}
				args = append(args, a)
			}
			switch {
			case m.Role == lowered.Fold && op.Map == nil && op.Reduce != nil:
				why = fm.fold(m, args, masks)
			case m.Role == lowered.Map && op.Map != nil && op.Reduce == nil && op.Scan == nil:
				why = fm.mapMember(m, op, args, elems, masks)
			case m.Role == lowered.Scan && op.Map == nil && op.Scan != nil:
				why = fm.scan(m, args, elems)
			default:
				why = fmt.Sprintf("%s: a member of role %s", k.at(m.SOAC), m.Role)
			}
		default:
			why = fmt.Sprintf("%s: a %s member", k.at(m.SOAC), m.SOAC.Name)
		}
		if why != "" {
			return why
		}
	}
	fm.countKept()
	return ""
}

// elemType is the element type of slice type t.
func elemType(t types.Type) types.Type {
	if s, ok := t.Underlying().(*types.Slice); ok {
		return s.Elem()
	}
	return t
}

// lanesOK checks that v's lanes have the kernel's width in bits.
func (fm *form) lanesOK(v val, at token.Pos) string {
	k := fm.k
	if k.bits == 0 {
		k.bits = v.l.bits
	}
	if v.l.bits != k.bits {
		return fmt.Sprintf("%s: it mixes %d- and %d-bit elements, whose vectors have different lane counts", k.pos(at), k.bits, v.l.bits)
	}
	return ""
}

// store stores v, the elements of m, when the kernel materialises them:
// at the index, or, for a select's kept elements (AtCount, the space sp
// whose mask is given), compressed to the front of a vector stored at
// the space's count; the count advances by the lanes kept once all the
// space's stores are done (countKept).
func (fm *form) store(m lowered.Member, v val, sp int, mask *val) string {
	k := fm.k
	switch m.Store {
	case lowered.NoStore:
		return ""
	case lowered.Indexed:
	case lowered.AtCount:
		if mask == nil {
			return fmt.Sprintf("%s stores kept elements outside a select", k.at(m.SOAC))
		}
	default:
		return fmt.Sprintf("%s appends kept elements (a branch)", k.at(m.SOAC))
	}
	if fm.width == 512 {
		k.stores = append(k.stores, m.SOAC)
	}
	name := k.storeName(m.SOAC)
	at := jen.Id("i")
	deps := v.refs
	if m.Store == lowered.AtCount {
		// Compress is AVX-512's (VCOMPRESSPD and kin), at both widths.
		fm.use(rule{on: numbers, wideAll: true}, v.l, "a compressed store")
		cnt := k.countName(sp)
		at = jen.Id(cnt)
		v = val{c: jen.Add(v.c).Dot("Compress").Call(mask.c), l: v.l, refs: from(v, *mask)}
		deps = v.refs
		fm.keptSpaces[sp] = *mask
	}
	// Stores at the count write at most the lanes past it, all within
	// the array: the count never passes i.
	fm.root(&fm.body, jen.Add(v.c).Dot("StoreSlice").Call(jen.Id(name+"v").Index(jen.Add(at).Op(":").Add(at).Op("+").Lit(v.l.count(fm.width)))), deps)
	return ""
}

// countKept advances the count of each space whose kept elements the
// form stores by the lanes its mask keeps.
func (fm *form) countKept() {
	k := fm.k
	for sp := range len(k.lk.Spaces) {
		mask, ok := fm.keptSpaces[sp]
		if !ok {
			continue
		}
		cnt := k.countName(sp)
		bits := fmt.Sprintf("OnesCount%d", max(8, mask.l.count(fm.width)))
		fm.root(&fm.body, jen.Id(cnt).Op("+=").Qual("math/bits", bits).Call(jen.Add(mask.c).Dot("ToBits").Call()), mask.refs)
	}
}
