package vector

// This file writes an accepted kernel: its vector function (every form,
// chosen by lanes.Width), its scalar stub, and the call that runs it
// before the kernel's scalar loop.

import (
	"fmt"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// lanesPath is the import path of the runtime's choice of width.
const lanesPath = "github.com/soacgen/soacgen/runtime/lanes"

// Call returns the statements that run the kernel's vector function
// before its scalar loop, which lp renders from start (a name the call
// declares; the loop's first index): the function's declarations go to
// the file's companions. lp's loop must have been rendered once (its
// inputs, outputs and accumulators are named).
func (k *Kernel) Call(lp *hostgo.LoopParts, start string) hostgo.Stmts {
	return k.call(lp, start, "", "")
}

// CallChunk is Call for a chunk [lo, hi) of the loop (the parallel
// backend's chunk function, where lp's inputs and outputs are cut at hi):
// the vector function runs on the chunk's first elements, and start is
// where the chunk's scalar loop goes on.
func (k *Kernel) CallChunk(lp *hostgo.LoopParts, start, lo, hi string) hostgo.Stmts {
	c := k.call(lp, start, lo, hi)
	name, _ := k.f.VectorFunc(k.lk)
	k.f.SetVectorFunc(chunkKey{k.lk}, name)
	return c
}

// chunkKey keys, in the generator's vector functions, a kernel whose
// chunks call its vector function (CallChunk).
type chunkKey struct{ lk *lowered.Kernel }

// InChunks reports whether the chunks of kernel lk, which f generated,
// call its vector function (the parallel backend's chunks of maps, folds
// and scans).
func InChunks(f *hostgo.Func, lk *lowered.Kernel) bool {
	_, ok := f.VectorFunc(chunkKey{lk})
	return ok
}

// call is Call over the whole loop (lo == "") or over chunk [lo, hi).
func (k *Kernel) call(lp *hostgo.LoopParts, start, lo, hi string) hostgo.Stmts {
	f := k.f
	name, ok := f.VectorFunc(k.lk)
	if !ok {
		// The kernels of a spec whose vector functions would be the
		// same (its directives' functions, the cpu loop and the parallel
		// chunks) share one, named after the spec.
		same := f.Spec().Name + " " + fmt.Sprintf("%#v", k.decl("soacgenVec", true))
		if name, ok = f.VectorFunc(same); !ok {
			name = f.PackageVar("soacgenVec_" + f.Spec().Name)
			f.SetVectorFunc(same, name)
			f.AddVector(k.decl(name, true), k.decl(name, false))
		}
		f.SetVectorFunc(k.lk, name)
	}
	// A chunk from 0 (a chunk function's reslices) is the whole loop
	// over its length.
	if lo == "0" {
		lo = ""
	}
	from := func(s string) jen.Code {
		if lo == "" {
			return jen.Id(s)
		}
		return jen.Id(s).Index(jen.Id(lo), jen.Empty())
	}
	args := []jen.Code{jen.Id(lp.N)}
	switch {
	case lo != "":
		args = []jen.Code{jen.Id(hi).Op("-").Id(lo)}
	case hi != "":
		args = []jen.Code{jen.Id(hi)}
	}
	if k.indexed {
		if lo != "" {
			args = append(args, jen.Id(lo))
		} else {
			args = append(args, jen.Lit(0))
		}
	}
	for _, v := range k.inputs {
		args = append(args, from(lp.InputOf[v]))
	}
	for _, s := range k.stores {
		args = append(args, from(storeLocal(lp, s.Out)))
	}
	var accs []jen.Code
	for _, s := range k.folds {
		a := accLocal(lp, s)
		args = append(args, jen.Id(a))
		accs = append(accs, jen.Id(a))
	}
	for _, sp := range k.counts {
		cnt := k.countLocal(lp, sp)
		args = append(args, jen.Id(cnt))
		accs = append(accs, jen.Id(cnt))
	}
	for _, p := range k.params {
		args = append(args, p.code)
	}
	var c hostgo.Stmts
	// The function is called only on as many elements as its narrowest
	// form's lanes (a shorter input costs no call), and start is made
	// provably non-negative (max), so that the loop's index needs no
	// bounds check.
	c.Add(hostgo.VarDecl(start, jen.Int(), nil))
	c.Add(jen.If(jen.Add(args[0]).Op(">=").Lit(k.minLanes())).Block(
		jen.List(append([]jen.Code{jen.Id(start)}, accs...)...).Op("=").Id(name).Call(args...)))
	first := jen.Max(jen.Id(start), jen.Lit(0))
	if lo != "" {
		first = jen.Id(lo).Op("+").Add(first)
	}
	c.Add(hostgo.AssignTo(start, first))
	return c
}

// minLanes is the lane count of the kernel's narrowest form.
func (k *Kernel) minLanes() int {
	w := 512
	if k.forms[256] != nil {
		w = 256
	}
	return w / k.bits
}

// storeLocal is the local lp stores v's elements in.
func storeLocal(lp *hostgo.LoopParts, v *ir.Var) string {
	for _, s := range lp.Stores {
		if s.V == v {
			return s.Local
		}
	}
	return "_"
}

// countLocal is the local of space sp's kept count in lp: the count of
// the outputs its members store.
func (k *Kernel) countLocal(lp *hostgo.LoopParts, sp int) string {
	for _, m := range k.lk.Members {
		space := m.Space
		if m.Role == lowered.Filter {
			space = m.Kept
		}
		if space != sp || m.Store != lowered.AtCount {
			continue
		}
		for _, s := range lp.Stores {
			if s.V == m.SOAC.Out {
				return s.Count
			}
		}
	}
	return "_"
}

// accLocal is the local of fold s's (first) accumulator in lp.
func accLocal(lp *hostgo.LoopParts, s *ir.SOAC) string {
	for _, a := range lp.Accs {
		if a.Member == s {
			return a.Name
		}
	}
	return "_"
}

// typeCode is type t as the companions write it: a basic type by name, a
// named type qualified by its package (the companion's own unqualified).
func typeCode(t types.Type) jen.Code {
	switch t := t.(type) {
	case *types.Basic:
		return jen.Id(t.Name())
	case *types.Named:
		obj := t.Obj()
		if obj.Pkg() == nil {
			return jen.Id(obj.Name())
		}
		return jen.Qual(obj.Pkg().Path(), obj.Name())
	case *types.Slice:
		return jen.Index().Add(typeCode(t.Elem()))
	}
	return jen.Id(t.String())
}

// signature is the vector function's parameters and results.
func (k *Kernel) signature() (params, results []jen.Code, zero []jen.Code) {
	params = []jen.Code{jen.Id("n").Int()}
	if k.indexed {
		params = append(params, jen.Id("off").Int())
	}
	for i, v := range k.inputs {
		params = append(params, jen.Id(fmt.Sprintf("in%d", i)).Index().Add(typeCode(elemType(v.Type))))
	}
	for i, s := range k.stores {
		params = append(params, jen.Id(fmt.Sprintf("out%d", i)).Index().Add(typeCode(elemType(s.Out.Type))))
	}
	results = []jen.Code{jen.Int()}
	zero = []jen.Code{jen.Lit(0)}
	for i, s := range k.folds {
		params = append(params, jen.Id(fmt.Sprintf("acc%d", i)).Add(typeCode(s.TypeArgs[0])))
		results = append(results, typeCode(s.TypeArgs[0]))
		zero = append(zero, jen.Id(fmt.Sprintf("acc%d", i)))
	}
	for i := range k.counts {
		params = append(params, jen.Id(fmt.Sprintf("cnt%d", i)).Int())
		results = append(results, jen.Int())
		zero = append(zero, jen.Id(fmt.Sprintf("cnt%d", i)))
	}
	for _, p := range k.params {
		params = append(params, jen.Id(p.name).Add(typeCode(p.t)))
	}
	return params, results, zero
}

// decl is the vector function name (vec) or its scalar stub (!vec).
func (k *Kernel) decl(name string, vec bool) []jen.Code {
	params, results, zero := k.signature()
	sig := jen.Func().Id(name).Params(params...).Params(results...)
	if !vec {
		return []jen.Code{jen.Commentf("%s runs no iteration of its kernel on vectors: this build has no vector forms.", name).Line().Add(sig.Block(jen.Return(zero...)))}
	}
	var body hostgo.Stmts
	if k.mayFuse {
		body.Add(jen.If(jen.Qual(lanesPath, "MayContract")).Block(jen.Return(zero...)))
	}
	sw := jen.Switch(jen.Qual(lanesPath, "Width"))
	var cases []jen.Code
	for _, w := range []int{512, 256} {
		fm := k.forms[w]
		if fm == nil {
			continue
		}
		lanesConst := "AVX512"
		if w == 256 {
			lanesConst = "AVX2"
		}
		cases = append(cases, jen.Case(jen.Qual(lanesPath, lanesConst)).Block(fm.code(zero)...))
	}
	body.Add(sw.Block(cases...))
	body.Add(jen.Return(zero...))
	return []jen.Code{jen.Commentf("%s runs the first iterations of its kernel on %s-bit vectors, as many as fill them, and returns where the scalar loop goes on, with the folds' accumulators.", name, widthsText(k)).Line().Add(sig.Block(body...))}
}

// widthsText lists the kernel's widths: "512- or 256".
func widthsText(k *Kernel) string {
	if k.forms[256] != nil && k.forms[512] != nil {
		return "512- or 256"
	}
	if k.forms[512] != nil {
		return "512"
	}
	return "256"
}

// code is the form's statements: views of the slices as lanes' basic
// types, broadcasts, the vector loop, the folds combined.
func (fm *form) code(zero []jen.Code) []jen.Code {
	k := fm.k
	var c hostgo.Stmts
	n := 0
	if k.bits != 0 {
		n = fm.width / k.bits
	}
	// Fewer elements than lanes: nothing to do on vectors, and no
	// register is touched (the call costs what a scalar call does).
	c.Add(jen.If(jen.Id("n").Op("<").Lit(n)).Block(jen.Return(zero...)))
	// Each slice is cut to n (so the loop needs no bounds check) and, when
	// its elements are not archsimd's type (int, a named type), viewed as
	// a slice of the lanes' basic type.
	view := func(name string, t types.Type) {
		l, _ := laneOf(t)
		if b, ok := t.(*types.Basic); ok && b.Name() == basicName(l) {
			c.Add(hostgo.Define(name+"v", jen.Id(name).Index(jen.Op(":").Id("n"))))
			return
		}
		c.Add(hostgo.Define(name+"v", jen.Qual("unsafe", "Slice").Call(
			jen.Parens(jen.Op("*").Id(basicName(l))).Call(jen.Qual("unsafe", "Pointer").Call(jen.Qual("unsafe", "SliceData").Call(jen.Id(name)))),
			jen.Id("n"))))
	}
	for _, list := range [][]*binding{fm.pre, fm.body} {
		for _, b := range list {
			if b.root {
				b.mark()
			}
		}
	}
	for i, v := range k.inputs {
		if fm.loads[v].live { // an input only unread parameters read is not loaded
			view(fmt.Sprintf("in%d", i), elemType(v.Type))
		}
	}
	for i, s := range k.stores {
		view(fmt.Sprintf("out%d", i), elemType(s.Out.Type))
	}
	c.Add(keep(fm.pre)...)
	c.Add(hostgo.Define("i", jen.Lit(0)))
	c.Add(jen.For(jen.Empty(), jen.Id("i").Op("<=").Id("n").Op("-").Lit(n), jen.Id("i").Op("+=").Lit(n)).Block(keep(fm.body)...))
	// The folds' lanes are stored, then the upper halves of the vector
	// registers cleared before any scalar code runs: scalar SSE code
	// after 512- or 256-bit code with dirty upper halves pays a state
	// transition on every instruction (hundreds of nanoseconds per call).
	var temps []string
	for _, fc := range fm.combine {
		t := fm.fresh("t")
		temps = append(temps, t)
		c.Add(jen.Var().Id(t).Index(jen.Lit(n)).Id(basicName(fc.l)))
		c.Add(jen.Id(fc.vec).Dot("Store").Call(jen.Op("&").Id(t)))
	}
	c.Add(simd("ClearAVXUpperBits").Call())
	for j, fc := range fm.combine {
		t := temps[j]
		e := jen.Id(t).Index(jen.Id("j"))
		conv := jen.Add(typeCode(fc.t)).Call(e)
		if fc.carry {
			c.Add(jen.Id(fc.acc).Op("=").Add(typeCode(fc.t)).Call(jen.Id(t).Index(jen.Lit(0))))
			continue
		}
		var step jen.Code
		switch fc.op {
		case "min", "max":
			step = jen.Id(fc.acc).Op("=").Id(fc.op).Call(jen.Id(fc.acc), conv)
		default:
			step = jen.Id(fc.acc).Op("=").Id(fc.acc).Op(fc.op).Add(conv)
		}
		c.Add(jen.For(jen.Id("j").Op(":=").Range().Id(t)).Block(step))
	}
	ret := append([]jen.Code{jen.Id("i")}, zero[1:]...)
	c.Add(jen.Return(ret...))
	return c
}
