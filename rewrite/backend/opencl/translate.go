package opencl

// This file translates a lowered kernel's members into a clKernel: its
// inputs (numbers, structs of numbers flattened where that keeps the
// layout), the lambdas through rewrite/clc with their captures as kernel
// arguments, the maps, generators and stores of each member, and the
// shape of a final scan.

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// skelScalar returns the name of skel's type for the element type t, or
// "" when skel has none.
func skelScalar(t types.Type) string {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return ""
	}
	switch b.Kind() {
	case types.Float32:
		return "Float32"
	case types.Float64:
		return "Float64"
	case types.Int32:
		return "Int32"
	case types.Int64, types.Int:
		return "Int64"
	case types.Uint32:
		return "Uint32"
	case types.Uint64, types.Uint:
		return "Uint64"
	case types.Int8:
		return "Int8"
	case types.Uint8:
		return "Uint8"
	case types.Int16:
		return "Int16"
	case types.Uint16:
		return "Uint16"
	case types.Bool:
		return "Bool"
	}
	return ""
}

// elemOf returns the element type of a slice type.
func elemOf(t types.Type) types.Type {
	if s, ok := t.Underlying().(*types.Slice); ok {
		return s.Elem()
	}
	return nil
}

// translate fills ck from the kernel's members, or returns why it cannot.
func (ck *clKernel) translate(outs map[*ir.Var]string) string {
	f, lk := ck.f, ck.lk
	for i, v := range lk.Src.Inputs {
		e := elemOf(v.Type)
		p := clParam{c: fmt.Sprintf("in__%d", i), v: v, goElem: e}
		if e != nil {
			p.skel = skelScalar(e)
		}
		ck.cname[v] = p.c
		if p.skel == "" && ck.rowsInput(&p) {
			ck.ins = append(ck.ins, p)
			continue
		}
		if p.skel == "" {
			ct := ck.structInput(e)
			if ct == nil {
				return fmt.Sprintf("input %s has type %s: the skeletons take slices of bool, sized integers, int, uint, float32 and float64, of structs of those, and of slices of those: hold the elements in a slice of one of those", v.Name, v.Type)
			}
			p.fields = ck.fieldTypes(e)
			ck.fp64 = ck.fp64 || slices.Contains(p.fields, "Float64")
			// The skeleton's struct has the translated struct's layout:
			// the element code reads it as that type.
			ck.cname[v] = fmt.Sprintf("(*(const %s *)&%s)", ct.C, p.c)
		}
		ck.ins = append(ck.ins, p)
		ck.fp64 = ck.fp64 || p.skel == "Float64"
	}
	if why := ck.compaction(outs); why != "" {
		return why
	}
	// The operators first: they run without a panic flag, so none may
	// reach a panic site (a helper translated for a map lambda before
	// would not show its sites again).
	for i, m := range lk.Members {
		if m.Role == lowered.Scan {
			if why := ck.scanShape(i, outs); why != "" {
				return why
			}
		} else if m.Role != lowered.Fold {
			continue
		}
		if why := ck.fold(m.SOAC, outs); why != "" {
			return why
		}
	}
	if len(ck.unit.Sites()) > 0 {
		s := ck.unit.Sites()[0]
		return fmt.Sprintf("a reduction operator may panic (%s at %s:%d:%d): the skeletons' combine has no panic flag; write the operator so that it cannot panic", s.What, filepath.Base(s.Pos.Filename), s.Pos.Line, s.Pos.Column)
	}
	ck.body.WriteString("int k__e = 0;\n")
	for _, m := range lk.Members {
		var why string
		switch m.Role {
		case lowered.Map:
			why = ck.mapMember(m, outs)
		case lowered.Gen:
			why = ck.gen(m, outs)
		case lowered.Filter:
			why = ck.filterMember(m, outs)
		case lowered.Fold, lowered.Scan:
			why = ck.foldElement(m)
		default:
			why = fmt.Sprintf("%s: %ss are not rendered by the opencl backend yet", soacPos(f, m.SOAC), m.Role)
		}
		if why != "" {
			return why
		}
	}
	if fp, _ := ck.unit.NeedsFP64(); fp {
		ck.fp64 = true
	}
	if ck.compact != lowered.Root {
		return ck.filterShape()
	}
	for _, r := range ck.reds {
		if r.first != "" {
			// The operators cannot panic (checked above).
			fmt.Fprintf(&ck.body, "if (soac_index == 0) {\nint e = 0;\n%s = %s;\n}\n", r.c, r.firstCall)
		}
	}
	if !ck.scan {
		fmt.Fprintf(&ck.body, "k__err = k__e;\n")
		return ""
	}
	// The scan skeleton has no panic flag.
	if len(ck.unit.Sites()) > 0 {
		s := ck.unit.Sites()[0]
		return fmt.Sprintf("a lambda of the scan's kernel may panic (%s at %s:%d:%d): the scan skeleton has no panic flag; write the lambdas so that they cannot panic", s.What, filepath.Base(s.Pos.Filename), s.Pos.Line, s.Pos.Column)
	}
	if len(ck.outs) > 0 {
		return fmt.Sprintf("it materialises %s beside the scan: the scan skeleton writes the scan only", ck.outs[0].v.Name)
	}
	return ""
}

// scanShape checks that scan member i is the kernel's last member, its
// only fold or scan, and materialised: what the scan skeleton computes.
func (ck *clKernel) scanShape(i int, outs map[*ir.Var]string) string {
	lk := ck.lk
	m := lk.Members[i].SOAC
	if len(lk.Spaces) > 1 {
		return fmt.Sprintf("%s shares its kernel with a filter: the scan skeleton scans every element", soacPos(ck.f, m))
	}
	if i != len(lk.Members)-1 {
		return fmt.Sprintf("%s is not the last member of its kernel: the scan skeleton ends with the scan", soacPos(ck.f, m))
	}
	for _, o := range lk.Members[:i] {
		if o.Role == lowered.Fold || o.Role == lowered.Scan {
			return fmt.Sprintf("%s shares its kernel with %s: the scan skeleton computes one scan", soacPos(ck.f, m), soacPos(ck.f, o.SOAC))
		}
	}
	if n := outs[m.Out]; n == "" || n == "_" || lk.Members[i].Store != lowered.Indexed {
		return fmt.Sprintf("%s: its result is not stored at the index", soacPos(ck.f, m))
	}
	ck.scan = true
	return ""
}

// structInput returns the translated type of struct element type e when
// its fields, or those of the structs among them, flattened, have
// skeleton types and e's layout (flatFields), else nil.
func (ck *clKernel) structInput(e types.Type) *clc.Type {
	if e == nil {
		return nil
	}
	if _, ok := e.Underlying().(*types.Struct); !ok {
		return nil
	}
	if flatFields(e) == nil {
		return nil
	}
	ct, err := ck.unit.Type(e)
	if err != nil || ct.Kind != clc.Struct {
		return nil
	}
	return ct
}

// goSizes is the layout of Go's structs on 64-bit targets, which the
// translated types (rewrite/clc) and the skeletons' structs share.
var goSizes = types.SizesFor("gc", "amd64")

// flatFields returns the skeleton types of the scalar fields of struct
// type t in order, the fields of a struct field flattened into its
// place, when a struct of those fields alone has t's layout (the same
// offsets and size: the skeleton's struct then holds t's bytes, which
// the element code reads as t); else nil.
func flatFields(t types.Type) []string {
	var fs []string
	var vars []*types.Var
	var offs []int64
	var walk func(t types.Type, base int64) bool
	walk = func(t types.Type, base int64) bool {
		st, ok := t.Underlying().(*types.Struct)
		if !ok || st.NumFields() == 0 {
			return false
		}
		var fields []*types.Var
		for i := range st.NumFields() {
			fields = append(fields, st.Field(i))
		}
		at := goSizes.Offsetsof(fields)
		for i, f := range fields {
			if s := skelScalar(f.Type()); s != "" {
				fs = append(fs, s)
				vars = append(vars, types.NewField(token.NoPos, nil, fmt.Sprintf("f%d", len(vars)), f.Type(), false))
				offs = append(offs, base+at[i])
				continue
			}
			if !walk(f.Type(), base+at[i]) {
				return false
			}
		}
		return true
	}
	if !walk(t, 0) {
		return nil
	}
	if !slices.Equal(goSizes.Offsetsof(vars), offs) || goSizes.Sizeof(types.NewStruct(vars, nil)) != goSizes.Sizeof(t) {
		return nil
	}
	return fs
}

// redIndex returns the index of fold m among ck.reds.
func (ck *clKernel) redIndex(m *ir.SOAC) int {
	for i, r := range ck.reds {
		if r.v == m.Out {
			return i
		}
	}
	panic("internal error: fold without a reduction")
}

// lambda translates l, refusing captures and lambdas written other than
// as a function literal or a named function.
func (ck *clKernel) lambda(m *ir.SOAC, l *ir.Lambda) (*clc.Func, string) {
	var fn *clc.Func
	var err error
	var reads [][]*ast.IndexExpr // index reads (lowered.PlanKernel.Gathers): elements the kernel computes
	for _, g := range ck.lk.Src.Gathers {
		if g.SOAC == m && g.Lambda == l {
			reads = append(reads, g.Reads)
		}
	}
	switch {
	case l.Lit != nil && reads != nil:
		fn, err = ck.unit.LambdaReads(l.Lit, ck.f.Info(), reads)
	case l.Lit != nil:
		fn, err = ck.unit.Lambda(l.Lit, ck.f.Info())
	case l.Kind == ir.NamedFunc && l.Func != nil:
		fn, err = ck.unit.Declared(l.Func)
	case l.Kind == ir.MethodValue && l.Func != nil && l.Recv != nil:
		// The receiver is a capture, passed by value.
		id, _ := ast.Unparen(l.Recv.Expr).(*ast.Ident)
		recv, _ := ck.f.Info().Uses[id].(*types.Var)
		if id == nil || recv == nil {
			return nil, fmt.Sprintf("the lambda of %s is a method value whose receiver %s is not a variable: assign the receiver to a variable first", soacPos(ck.f, m), types.ExprString(l.Recv.Expr))
		}
		fn, err = ck.unit.MethodValue(l.Func, recv, l.Expr.Pos())
	default:
		return nil, fmt.Sprintf("the lambda of %s is a function value, not a literal or a named function: pass the literal or the function itself", soacPos(ck.f, m))
	}
	if err != nil {
		var r *clc.Refusal
		if errors.As(err, &r) {
			// Positions as base names: reasons are the same on every
			// machine.
			return nil, fmt.Sprintf("the lambda of %s is not translated to OpenCL C: %s at %s:%d:%d: %s", soacPos(ck.f, m), r.Construct, filepath.Base(r.Pos.Filename), r.Pos.Line, r.Pos.Column, r.Reason)
		}
		return nil, fmt.Sprintf("the lambda of %s is not translated to OpenCL C: %v", soacPos(ck.f, m), err)
	}
	renamed := false
	caps := fn.Captures
	for i, c := range fn.Captures {
		name, why := ck.captureAs(m, c)
		if why != "" {
			return nil, why
		}
		if name != c.C {
			if !renamed {
				caps, renamed = slices.Clone(caps), true
			}
			caps[i].C = name
		}
	}
	if renamed {
		// The call passes the copy's kernel argument where the
		// function takes the capture (its parameter keeps its name).
		cp := *fn
		cp.Captures = caps
		fn = &cp
	}
	return fn, ""
}

// capture makes c a kernel argument, once per variable (captureAs,
// for a caller passing c.C).
func (ck *clKernel) capture(m *ir.SOAC, c clc.Capture) string {
	_, why := ck.captureAs(m, c)
	return why
}

// captureAs makes c a kernel argument, once per variable, and returns
// the name of the argument the lambda's call passes for it: c.C, or,
// where m reads a copy of c taken where m is written (lowered.PlanKernel.
// Copies: the variable is reassigned before the kernel runs) and
// ck.copies, an argument of its own holding the copy (clArg.copyOf).
func (ck *clKernel) captureAs(m *ir.SOAC, c clc.Capture) (string, string) {
	at := fmt.Sprintf("%s:%d:%d", filepath.Base(c.Pos.Filename), c.Pos.Line, c.Pos.Column)
	// A pointer is captured only as the receiver of a method value
	// (clc.Unit.MethodValue): the value it points at is passed.
	_, deref := c.Var.Type().(*types.Pointer)
	if deref && !ck.copies {
		return "", fmt.Sprintf("the lambda of %s is a method value of the pointer %s: only a map-reduce, scan or filter kernel passes the value it points at", soacPos(ck.f, m), c.Var.Name())
	}
	for _, cp := range ck.lk.Src.Copies {
		if cp.SOAC != m || cp.Var.Obj != types.Object(c.Var) {
			continue
		}
		if !ck.copies || c.Type.IsView() || deref {
			return "", fmt.Sprintf("the lambda of %s reads a copy of %s taken where it is written (%s is reassigned before the kernel runs): kernel arguments are the values of variables where the kernel runs, and a copy is passed only for a number or struct of a map-reduce, scan or filter kernel", soacPos(ck.f, m), c.Var.Name(), c.Var.Name())
		}
		for _, a := range ck.args {
			if a.copyOf == cp.Var {
				return a.name, ""
			}
		}
		name := fmt.Sprintf("%s__cp%d", c.C, len(ck.args))
		r := c
		r.C = name
		ck.args = append(ck.args, clArg{obj: c.Var, name: name, params: r.KernelParams(), kind: c.Type.Kind, copyOf: cp.Var})
		return name, ""
	}
	for _, a := range ck.args {
		if a.name == c.C {
			if a.obj != c.Var {
				return "", fmt.Sprintf("the lambda of %s captures %s (at %s), a different variable of the name of another capture: rename one of them", soacPos(ck.f, m), c.Var.Name(), at)
			}
			return c.C, ""
		}
	}
	if ck.f.LookupAt(c.Var.Name(), ck.lk.Src.At.Pos()) != types.Object(c.Var) {
		return "", fmt.Sprintf("the lambda of %s captures %s (at %s), which another variable shadows where the kernel runs: rename one of them", soacPos(ck.f, m), c.Var.Name(), at)
	}
	ck.args = append(ck.args, clArg{obj: c.Var, name: c.C, params: c.KernelParams(), kind: c.Type.Kind, deref: deref})
	return c.C, ""
}

// fieldTypes returns the skeleton types of the fields of struct type t,
// flattened (structInput has checked that flatFields has them).
func (ck *clKernel) fieldTypes(t types.Type) []string {
	return flatFields(t)
}

// mapMember computes the element of map m from its inputs' elements.
func (ck *clKernel) mapMember(m lowered.Member, outs map[*ir.Var]string) string {
	op := m.SOAC.Op.(*ir.Screma)
	if op.Map == nil || op.Scan != nil || op.Reduce != nil {
		return fmt.Sprintf("%s is not a plain map", soacPos(ck.f, m.SOAC))
	}
	fn, why := ck.lambda(m.SOAC, op.Map)
	if why != "" {
		return why
	}
	e := elemOf(m.SOAC.Out.Type)
	if fn.Result != nil && fn.Result.Kind == clc.Slice && e != nil {
		return ck.rowsOutput(m, op.Map, fn, outs)
	}
	if fn.Result == nil || !(fn.Result.IsScalar() || fn.Result.Kind == clc.Struct) || e == nil {
		return fmt.Sprintf("%s returns %s: only scalar and struct elements are rendered", soacPos(ck.f, m.SOAC), m.SOAC.Out.Type)
	}
	args, why := ck.elements(m)
	if why != "" {
		return why
	}
	return ck.define(m, fn.Result.C, fn.Call(args, "", "&k__e"), e, outs)
}

// gen computes the element of generator m: the index of an Iota, the
// value of a Replicate (a kernel argument, evaluated where the kernel
// runs and again by its CPU code, so an expression without effects).
func (ck *clKernel) gen(m lowered.Member, outs map[*ir.Var]string) string {
	r, ok := m.SOAC.Op.(*ir.Replicate)
	if !ok {
		return ck.define(m, "long", "soac_index", elemOf(m.SOAC.Out.Type), outs)
	}
	e := elemOf(m.SOAC.Out.Type)
	ct, err := ck.unit.Type(e)
	if err != nil || ct.IsView() || !ct.IsScalar() && ct.Kind != clc.Struct {
		return fmt.Sprintf("%s replicates %s: only numbers, booleans and structs of them are kernel arguments", soacPos(ck.f, m.SOAC), e)
	}
	if r.Value == nil || !pureExpr(ck.f.Info(), r.Value.Expr) {
		return fmt.Sprintf("%s: its value is not a constant, a variable or arithmetic of those: the host passes it to the kernel and to the CPU code; assign it to a variable first", soacPos(ck.f, m.SOAC))
	}
	name := fmt.Sprintf("rep__%d", len(ck.args))
	ck.args = append(ck.args, clArg{name: name, params: []string{fmt.Sprintf("const %s %s", ct.C, name)}, rep: m.SOAC})
	ck.fp64 = ck.fp64 || ct.UsesFP64()
	return ck.define(m, ct.C, name, e, outs)
}

// define declares the C value of member m's element and, when its output
// is materialised, stores it.
func (ck *clKernel) define(m lowered.Member, ctype, value string, e types.Type, outs map[*ir.Var]string) string {
	c := fmt.Sprintf("k__v%d", len(ck.cname))
	ck.cname[m.SOAC.Out] = c
	ck.space[m.SOAC.Out] = m.Space
	if m.Space == lowered.Root {
		fmt.Fprintf(&ck.body, "const %s %s = %s;\n", ctype, c, value)
	} else {
		// Only a kept element computes its value (the lambda may panic
		// on the others); a dropped one holds zero, which nothing keeps.
		fmt.Fprintf(&ck.body, "%s %s = {0};\nif (%s) {\n%s = %s;\n}\n", ctype, c, ck.keep[m.Space], c, value)
	}
	if !stored(m, outs) {
		return ""
	}
	return ck.store(m, c, e)
}

// stored reports whether member m's output is materialised.
func stored(m lowered.Member, outs map[*ir.Var]string) bool {
	n, ok := outs[m.SOAC.Out]
	return ok && n != "_" && m.Store != lowered.NoStore
}

// store writes the C value c of member m's element, of Go type e, to a
// new output: at the index in the root space of a map-reduce kernel, or
// among the kept elements of the compacted space of a filter kernel.
func (ck *clKernel) store(m lowered.Member, c string, e types.Type) string {
	space := ck.space[m.SOAC.Out]
	switch {
	case space == lowered.Root && m.Store == lowered.Indexed && ck.compact == lowered.Root:
	case space == ck.compact && space != lowered.Root && (m.Store == lowered.AtCount || m.Store == lowered.Appended):
	case space == lowered.Root && m.Store == lowered.Indexed:
		return fmt.Sprintf("%s: its output is stored at the index beside the kept elements the kernel stores: the filter skeleton compacts every output", soacPos(ck.f, m.SOAC))
	default:
		return fmt.Sprintf("%s: its output is stored %s in space %d, which the opencl backend does not render", soacPos(ck.f, m.SOAC), m.Store, space)
	}
	p := clParam{c: fmt.Sprintf("out__%d", len(ck.outs)), skel: skelScalar(e), v: m.SOAC.Out, goElem: e}
	cast := ""
	if p.skel == "" {
		if ck.structInput(e) == nil {
			return fmt.Sprintf("%s produces %s: the skeletons write slices of float32, float64, int32, int64, int, uint32, uint64, uint, and of structs of those", soacPos(ck.f, m.SOAC), m.SOAC.Out.Type)
		}
		p.fields = ck.fieldTypes(e)
		ck.fp64 = ck.fp64 || slices.Contains(p.fields, "Float64")
		// The skeleton's struct has the translated struct's layout.
		cast = "*(const " + p.c + "__t *)&"
	}
	ck.outs = append(ck.outs, p)
	ck.fp64 = ck.fp64 || p.skel == "Float64"
	fmt.Fprintf(&ck.body, "%s = %s%s;\n", p.c, cast, c)
	return ""
}
