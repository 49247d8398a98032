package opencl

// This file is the opencl backend's grid form (skel.Grid): a kernel that
// is one Map over the rows of a [][]T whose lambda returns a Map over a
// captured slice xs,
//
//	soac.Map(a, func(row []T) []R { return soac.Map(xs, func(x X) R { ... }) })
//
// runs one work-item per element (i, j) of the result, which computes
// the inner lambda for row a[i] and element xs[j]; the host cuts the
// flat result into rows (launch.Chop). When the inner lambda is a dot
// product, Reduce(Map2(row, x, f), ne, op) of scalar rows with a
// constant ne and lambdas that capture nothing, the kernel is the
// skeleton's Dot, which loads both matrices through local memory in
// tiles and folds each element left to right as the spec does. Rows of
// unequal lengths make the spec's Map2 panic: the host does not launch
// the Dot then (launch.RowLen), and the general form's work-items flag
// the panic; either way the CPU code raises it. Kernels of any other
// shape are left to the one-work-item-per-row form (rows.go). For
// backend=auto the call runs the kernel when launch.Grid.Use says so
// (the cost model with the result's size and the length of a row).

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"strings"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// The C names of the grid kernel's own arguments: the rows input, the
// captured slice of the inner Map and the result buffer. They contain a
// double underscore, which no translated Go name does.
const (
	gridIn  = "grid__a"
	gridXs  = "grid__x"
	gridOut = "grid__out"
)

// gridShape is a kernel of the grid form.
type gridShape struct {
	m     lowered.Member
	in    *ir.Var      // the [][]T input
	row   *types.Var   // the outer lambda's parameter
	xs    *types.Var   // the captured slice the inner Map runs over
	inner *ast.FuncLit // the inner Map's lambda
	rt    types.Type   // the element type of the result's rows
}

// soacCall returns the name of the runtime/soac function e calls, or "".
func soacCall(info *types.Info, e ast.Expr) (string, *ast.CallExpr) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return "", nil
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != hostgo.SOACPath {
		return "", nil
	}
	return fn.Name(), call
}

// singleReturn returns the one result of a function body that is one
// return statement, or nil.
func singleReturn(body *ast.BlockStmt) ast.Expr {
	if body == nil || len(body.List) != 1 {
		return nil
	}
	ret, ok := body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	return ret.Results[0]
}

// oneParam returns the object of the one named parameter of lit, or nil.
func oneParam(info *types.Info, lit *ast.FuncLit) *types.Var {
	ps := lit.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) != 1 {
		return nil
	}
	v, _ := info.Defs[ps[0].Names[0]].(*types.Var)
	return v
}

// gridOf returns lk's grid shape, or nil when it has none.
func gridOf(f *spec, lk *lowered.Kernel, outs map[*ir.Var]string) *gridShape {
	if len(lk.Members) != 1 || len(lk.Src.Inputs) != 1 {
		return nil
	}
	m := lk.Members[0]
	op, ok := m.SOAC.Op.(*ir.Screma)
	if !ok || m.Role != lowered.Map || m.Space != lowered.Root || m.Store != lowered.Indexed || !stored(m, outs) ||
		op.Map == nil || op.Map.Lit == nil || op.Scan != nil || op.Reduce != nil ||
		len(m.SOAC.Inputs()) != 1 || m.SOAC.Inputs()[0] != lk.Src.Inputs[0] {
		return nil
	}
	in := lk.Src.Inputs[0]
	if e := elemOf(in.Type); e == nil || elemOf(e) == nil {
		return nil
	}
	info, outer := f.Info(), op.Map.Lit
	row := oneParam(info, outer)
	name, ret := soacCall(info, singleReturn(outer.Body))
	if row == nil || name != "Map" || len(ret.Args) != 2 {
		return nil
	}
	id, ok := ast.Unparen(ret.Args[0]).(*ast.Ident)
	if !ok {
		return nil
	}
	xs, ok := info.Uses[id].(*types.Var)
	if !ok || xs == row || elemOf(xs.Type()) == nil || xs.Parent() == nil || xs.Pkg() != nil && xs.Parent() == xs.Pkg().Scope() {
		return nil
	}
	inner, ok := ast.Unparen(ret.Args[1]).(*ast.FuncLit)
	if !ok || oneParam(info, inner) == nil {
		return nil
	}
	rt := elemOf(elemOf(m.SOAC.Out.Type))
	if rt == nil {
		return nil
	}
	return &gridShape{m: m, in: in, row: row, xs: xs, inner: inner, rt: rt}
}

// grid translates the kernel of shape g, or says why it cannot: as a
// dot product when the inner lambda is one, else its general form.
func (ck *clKernel) grid(g *gridShape) (*gridKernel, string) {
	f, m := ck.f, g.m.SOAC
	if ck.f.LookupAt(g.xs.Name(), ck.lk.Src.At.Pos()) != types.Object(g.xs) {
		return nil, fmt.Sprintf("the lambda of %s maps %s, which another variable shadows where the kernel runs", soacPos(f, m), g.xs.Name())
	}
	views := func() (*clc.Type, *clc.Type, string) {
		rowT, err := ck.unit.Type(elemOf(g.in.Type))
		if err != nil || rowT.Kind != clc.Slice {
			return nil, nil, fmt.Sprintf("input %s has type %s: its rows are not translated", g.in.Name, g.in.Type)
		}
		xsT, err := ck.unit.Type(g.xs.Type())
		if err != nil || !xsT.IsView() {
			return nil, nil, fmt.Sprintf("%s has type %s: not translated as a slice", g.xs.Name(), g.xs.Type())
		}
		return rowT, xsT, ""
	}
	rowT, xsT, why := views()
	if why != "" {
		return nil, why
	}
	gk := &gridKernel{shape: g, rowT: rowT, xsT: xsT}
	if gk.dot = ck.dot(g, rowT, xsT); gk.dot != nil {
		fp, _ := ck.unit.NeedsFP64()
		ck.fp64 = fp || rowT.UsesFP64() || xsT.UsesFP64()
		return gk, ""
	}
	// The general form, in a unit without the dot's attempts.
	ck.unit = clc.NewUnit(f.Fset(), clc.PackageResolver(f.Files(), f.Info()))
	if gk.rowT, gk.xsT, why = views(); why != "" {
		return nil, why
	}
	fn, err := ck.unit.Lambda(g.inner, f.Info())
	if err != nil {
		return nil, ck.refused(m, err)
	}
	if fn.Result == nil || !(fn.Result.IsScalar() || fn.Result.Kind == clc.Struct) {
		return nil, fmt.Sprintf("the inner Map of %s returns %s: the grid writes scalar and struct elements", soacPos(f, m), g.rt)
	}
	gk.result = fn.Result
	rowView := fmt.Sprintf("%[1]s__mk(%[2]s__p + %[2]s__off[soac_i], %[2]s__off[soac_i + 1] - %[2]s__off[soac_i])", gk.rowT.C, gridIn)
	bound := map[*types.Var]string{}
	for _, c := range fn.Captures {
		if c.Var == g.row {
			bound[c.Var] = rowView
			continue
		}
		if why := ck.capture(m, c); why != "" {
			return nil, why
		}
	}
	var x string
	if gk.xsT.Kind == clc.Slice2 {
		x = fmt.Sprintf("%[1]s__mk(%[2]s__p + %[2]s__off[soac_j], %[2]s__off[soac_j + 1] - %[2]s__off[soac_j])", fn.Params[0].Type.C, gridXs)
	} else {
		x = fmt.Sprintf("%s__p[soac_j]", gridXs)
	}
	gk.body = fmt.Sprintf("soac_v = %s;", fn.CallWith([]string{x}, bound, "", "&soac_err"))
	fp, _ := ck.unit.NeedsFP64()
	ck.fp64 = fp || fn.Result.UsesFP64() || gk.rowT.UsesFP64() || gk.xsT.UsesFP64()
	return gk, ""
}

// gridKernel is a translated grid kernel.
type gridKernel struct {
	shape     *gridShape
	rowT, xsT *clc.Type // the rows input's row, the inner Map's slice
	result    *clc.Type // the element of the result's rows
	body      string    // the general element code
	dot       *dotForm  // the dot product, when the inner lambda is one
}

// dotForm is the inner lambda as a dot product for skel.Dot.
type dotForm struct {
	prod, op, neutral string    // C expressions
	aType, bType      string    // the scalar C element types of the rows
	result            *clc.Type // the fold's type
}

// dot returns the inner lambda of g as a dot product, or nil when it is
// not Reduce(Map2(row, x, f), ne, op) (or Map2(x, row, f)) over scalar
// rows of both matrices, with f and op capturing nothing and ne a
// constant of a scalar type.
func (ck *clKernel) dot(g *gridShape, rowT, xsT *clc.Type) *dotForm {
	info := ck.f.Info()
	if xsT.Kind != clc.Slice2 || !rowT.Elem.IsScalar() || !xsT.Elem.IsScalar() {
		return nil
	}
	name, red := soacCall(info, singleReturn(g.inner.Body))
	if name != "Reduce" || len(red.Args) != 3 {
		return nil
	}
	name, zip := soacCall(info, red.Args[0])
	if name != "Map2" || len(zip.Args) != 3 {
		return nil
	}
	col := oneParam(info, g.inner)
	var order []string
	switch a, b := identObj(info, zip.Args[0]), identObj(info, zip.Args[1]); {
	case a == types.Object(g.row) && b == types.Object(col):
		order = []string{"soac_x", "soac_y"}
	case a == types.Object(col) && b == types.Object(g.row):
		order = []string{"soac_y", "soac_x"}
	default:
		return nil
	}
	t := info.TypeOf(red)
	st := skelScalar(t)
	tv, ok := info.Types[red.Args[1]]
	if st == "" || !ok || tv.Value == nil {
		return nil
	}
	neutral := cLiteral(tv.Value, st)
	prod, op := ck.pureLambda(zip.Args[2]), ck.pureLambda(red.Args[2])
	if neutral == "" || prod == nil || op == nil || prod.Result.C != op.Result.C {
		return nil
	}
	return &dotForm{
		prod:    prod.Call(order, "", "&soac_err"),
		op:      op.Call([]string{"soac_s", "soac_t"}, "", "&soac_err"),
		neutral: neutral,
		aType:   rowT.Elem.C,
		bType:   xsT.Elem.C,
		result:  prod.Result,
	}
}

// identObj returns the object an identifier expression uses, or nil.
func identObj(info *types.Info, e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		return info.Uses[id]
	}
	return nil
}

// pureLambda translates e, a function literal or a named function that
// captures nothing, or returns nil.
func (ck *clKernel) pureLambda(e ast.Expr) *clc.Func {
	var fn *clc.Func
	var err error
	switch x := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		fn, err = ck.unit.Lambda(x, ck.f.Info())
	case *ast.Ident:
		obj, ok := ck.f.Info().Uses[x].(*types.Func)
		if !ok {
			return nil
		}
		fn, err = ck.unit.Declared(obj)
	default:
		return nil
	}
	if err != nil || len(fn.Captures) > 0 || fn.Result == nil || !fn.Result.IsScalar() {
		return nil
	}
	return fn
}

// refused is the reason for a lambda of m that clc refused with err.
func (ck *clKernel) refused(m *ir.SOAC, err error) string {
	if r, ok := err.(*clc.Refusal); ok {
		return fmt.Sprintf("the lambda of %s is not translated to OpenCL C: %s at %s:%d:%d: %s", soacPos(ck.f, m), r.Construct, filepath.Base(r.Pos.Filename), r.Pos.Line, r.Pos.Column, r.Reason)
	}
	return fmt.Sprintf("the lambda of %s is not translated to OpenCL C: %v", soacPos(ck.f, m), err)
}

// emitGrid returns the Go code that runs grid kernel gk, with the next
// backend's code as its fallback, and declares its launch value.
func (ck *clKernel) emitGrid(gk *gridKernel, outs map[*ir.Var]string) hostgo.Stmts {
	f, g := ck.f, gk.shape
	fb, fbName := ck.next()
	kv := f.PackageVar("soacgenCL" + f.Spec().Fuse.Name)
	// Operands an earlier kernel left on the device are read there
	// (launch.ViewDev, captured.go; launch.RowsDev, gridkept.go); the
	// fallback downloads them.
	in := gridOperand{goVar: hostgo.Id(f.Name(g.in)), dev: f.deviceArrayOf(g.in), rows: true}
	xs := gridOperand{goVar: f.ObjName(g.xs), dev: capturedDev(f, ck.lk.Src, g.xs), rows: gk.xsT.Kind == clc.Slice2}
	decls, goArgs := ck.gridArgs(gk, in, xs)
	ck.declareGrid(gk, kv, decls, fbName == backend.Parallel)
	// The result stays on the device when only later kernels read it
	// (gridkept.go).
	var c hostgo.Stmts
	keep := ck.keepGrid(g, outs, &c)
	ok, run := ck.gridRun(gk, outs, kv, keep, in, xs, goArgs)
	cond := ck.gridCond(kv, in, xs)
	// The fallback reads the operands left on the device from Go
	// memory: it downloads them first.
	host, release := capturedHost(f, ck.lk.Src, func(*ir.Var) bool { return false })
	if d := in.dev; d != nil {
		host = append(append(hostgo.Stmts{}, d.HostCode()...), host...)
		if d.Last == ck.lk.Src {
			release = append(append(hostgo.Stmts{}, d.Release...), release...)
		}
	}
	return append(append(c,
		hostgo.Define(ok, jen.False()),
		jen.If(cond).Add(hostgo.Block(run)),
		jen.If(jen.Op("!").Id(ok)).Add(hostgo.Block(append(host, fb...)))),
		release...)
}

// gridArgs returns the C declarations of grid kernel gk's arguments (the
// rows input in, the inner Map's slice xs, the captures, the result
// buffer) and the Go values of all but the result buffer's, which
// depends on where the result goes (gridRun).
func (ck *clKernel) gridArgs(gk *gridKernel, in, xs gridOperand) ([]string, []jen.Code) {
	f := ck.f
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	decls := []string{
		fmt.Sprintf("__global const %s *restrict %s__p", gk.rowT.Elem.C, gridIn),
		fmt.Sprintf("__global const long *restrict %s__off", gridIn),
		fmt.Sprintf("const long %s__n", gridIn),
	}
	if xs.rows {
		decls = append(decls, fmt.Sprintf("__global const %s *restrict %s__p", gk.xsT.Elem.C, gridXs), fmt.Sprintf("__global const long *restrict %s__off", gridXs))
	} else {
		decls = append(decls, fmt.Sprintf("__global const %s *restrict %s__p", gk.xsT.Elem.C, gridXs))
	}
	decls = append(decls, fmt.Sprintf("const long %s__n", gridXs))
	goArgs := []jen.Code{in.arg(launchQ), xs.arg(launchQ)}
	for _, a := range ck.args {
		decls = append(decls, a.params...)
		if a.kind == clc.Slice || a.kind == clc.Slice2 {
			goArgs = append(goArgs, gridOperand{goVar: f.ObjName(a.obj), dev: capturedDev(f, ck.lk.Src, a.obj), rows: a.kind == clc.Slice2}.arg(launchQ))
			continue
		}
		goArgs = append(goArgs, launchQ("Arg").Call(f.ObjName(a.obj)))
	}
	decls = append(decls, fmt.Sprintf("__global %s *restrict %s__p", gk.resultC(), gridOut))
	return decls, goArgs
}

// declareGrid adds the package-level launch value kv of grid kernel gk
// (a launch.Grid) with the kernel arguments decls; parallel reports that
// the fallback backend=auto compares the device with is the parallel
// backend.
func (ck *clKernel) declareGrid(gk *gridKernel, kv string, decls []string, parallel bool) {
	f := ck.f
	skelQ := func(name string) *jen.Statement { return f.Qual(skelPath, "skel", name) }
	var args []jen.Code
	for _, d := range decls {
		args = append(args, jen.Values(field("Name", jen.Lit(d[strings.LastIndexByte(d, ' ')+1:])), field("Decl", jen.Lit(d))))
	}
	spec := []jen.Code{
		field("Name", jen.Lit(strings.TrimPrefix(kv, "soacgen"))),
		field("Args", jen.Index().Add(skelQ("Arg")).Values(args...)),
		field("Result", jen.Lit(gk.resultC())),
		field("Out", jen.Lit(gridOut+"__p")),
	}
	if d := gk.dot; d != nil {
		spec = append(spec, field("Dot", jen.Op("&").Add(skelQ("Dot")).Custom(lines,
			field("A", jen.Lit(gridIn+"__p")), field("B", jen.Lit(gridXs+"__p")),
			field("AType", jen.Lit(d.aType)), field("BType", jen.Lit(d.bType)),
			field("Prod", jen.Lit(d.prod)), field("Op", jen.Lit(d.op)), field("Neutral", jen.Lit(d.neutral)))))
	} else {
		spec = append(spec, field("Body", goString(gk.body)))
	}
	launch := ck.launchFields(ck.lk.Src, "Grid", ck.preamble(spec))
	if f.auto {
		out, row, col, colRows, once, perStep := ck.gridCost(gk)
		cost := []jen.Code{field("Out", hostgo.Lit(out)), field("Row", hostgo.Lit(row)), field("Col", hostgo.Lit(col))}
		if colRows {
			cost = append(cost, field("ColRows", jen.True()))
		}
		cost = append(cost, field("Ops", hostgo.Lit(once)), field("OpsK", hostgo.Lit(perStep)), field("Parallel", jen.Lit(parallel)))
		launch = append(launch, field("Auto", jen.True()), field("Cost", f.Qual(launchPath, "launch", "GridCost").Values(cost...)))
	}
	f.AddDecls(jen.Line(),
		jen.Commentf("%s runs a kernel of %s on OpenCL, one work-item per element (generated from %s).", kv, f.Spec().Fuse.Name, f.Spec().Name),
		jen.Var().Id(kv).Op("=").Op("&").Add(f.Qual(launchPath, "launch", "Grid")).Custom(lines, launch...))
}

// gridRun returns the name of a variable ok, which the caller declares,
// and the run of grid kernel gk's launch value kv over rows input in and
// the inner Map's slice xs (goArgs the values of its arguments but the
// result buffer's), which sets ok: into the device buffer keep when the
// result stays there, else into a host buffer, which the result's rows
// are then cut from (launch.Chop).
func (ck *clKernel) gridRun(gk *gridKernel, outs map[*ir.Var]string, kv, keep string, in, xs gridOperand, goArgs []jen.Code) (string, hostgo.Stmts) {
	f, g := ck.f, gk.shape
	ok, flat := f.Fresh("ok"), f.Fresh("flat")
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	rows, cols := in.length(launchQ), xs.length(launchQ)
	inner := jen.Lit(0)
	if gk.dot != nil {
		inner = launchQ("RowLen").Call(hostgo.Id(f.Name(g.in)), f.ObjName(g.xs))
		if in.dev != nil || xs.dev != nil {
			inner = launchQ("RowLenDev").Call(in.devOrNil(), in.goVar, xs.devOrNil(), xs.goVar)
		}
	}
	if keep != "" {
		session := f.newSession()
		goArgs = append(goArgs, launchQ("KeepRows").Call(jen.Op("&").Id(keep), rows, cols))
		return ok, hostgo.Stmts{hostgo.AssignTo(ok, jen.Id(kv).Dot("RunOn").Call(jen.Op("&").Id(session), rows, cols, inner, jen.Index().Any().Values(goArgs...)))}
	}
	goArgs = append(goArgs, launchQ("Out").Call(hostgo.Id(flat)))
	return ok, hostgo.Stmts{
		hostgo.Define(flat, downloadDest(f, elemOf(elemOf(g.m.SOAC.Out.Type)), jen.Add(rows).Op("*").Add(cols))),
		jen.If(hostgo.AssignTo(ok, jen.Id(kv).Dot("Run").Call(rows, cols, inner, jen.Index().Any().Values(goArgs...))), hostgo.Id(ok)).Add(hostgo.Block(hostgo.Stmts{
			hostgo.AssignTo(outs[g.m.SOAC.Out], launchQ("Chop").Call(hostgo.Id(flat), rows, cols)),
		})),
	}
}

// gridCond returns the condition under which the grid's launch value kv
// runs over rows input in and the inner Map's slice xs: its kernel was
// built and, for backend=auto, the device is chosen (launch.Grid.Use,
// with the result's size and the length of a row).
func (ck *clKernel) gridCond(kv string, in, xs gridOperand) *jen.Statement {
	f := ck.f
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	cond := jen.Id(kv).Dot("Kernel").Call().Op("!=").Nil()
	if !f.auto {
		return cond
	}
	innerLen := launchQ("Inner").Call(in.goVar)
	if in.dev != nil {
		innerLen = launchQ("InnerDev").Call(in.devOrNil(), in.goVar)
	}
	// Operands an earlier kernel left on the device: it ran there by
	// the model's verdict, so this one does too.
	var on []jen.Code
	if in.dev != nil {
		on = append(on, jen.Id(in.dev.Handle).Op("!=").Nil())
	}
	on = append(on, capturedOnDevice(f, ck.lk.Src, func(*ir.Var) bool { return false })...)
	return either(on, jen.Id(kv).Dot("Use").Call(in.length(launchQ), xs.length(launchQ), innerLen)).Op("&&").Add(cond)
}

// resultC returns the C type of the result's elements.
func (gk *gridKernel) resultC() string {
	if gk.dot != nil {
		return gk.dot.result.C
	}
	return gk.result.C
}
