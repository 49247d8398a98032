package opencl

// This file writes the Go side of an OpenCL kernel (opencl.go translates
// it): the package-level launch value holding the skeleton with its
// OpenCL C, and the code at the kernel's position that runs it, with the
// next backend's code when it does not run. It does not translate
// anything.

import (
	"fmt"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"path/filepath"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// goString returns s as a Go string literal token: raw when it can be,
// so that the OpenCL C reads as written in the generated file (jen.Lit
// would quote it).
func goString(s string) *jen.Statement {
	if !strings.Contains(s, "`") && !strings.Contains(s, "\r") {
		return jen.Op("`" + s + "`")
	}
	return jen.Lit(s)
}

// field returns the key-value element "name: value" of a struct literal.
func field(name string, value jen.Code) *jen.Statement { return jen.Id(name).Op(":").Add(value) }

// lines are the options of a composite literal's elements written one a
// line (a trailing comma after each).
var lines = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

// emit returns the Go code that runs the kernel, with the next backend's
// code as its fallback, and declares the kernel's launch value.
func (ck *clKernel) emit(outs map[*ir.Var]string) hostgo.Stmts {
	f, k := ck.f, ck.lk.Src
	// The fallback first: backend=auto's cost model compares the device
	// with the backend that runs when the device does not.
	fb, fbName := ck.next()
	pos := f.Fset().Position(k.At.Pos())
	kv := f.PackageVar("soacgenCL" + f.Spec().Fuse.Name)
	form := "Redomap"
	switch {
	case ck.scan:
		form = "Scan"
	case ck.compact != lower.Root:
		form = "Filter"
	}
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	skelQ := func(name string) *jen.Statement { return f.Qual(skelPath, "skel", name) }
	launchType := launchQ(form)
	skelForm := skelQ(form)
	spec := []jen.Code{field("Name", jen.Lit(strings.TrimPrefix(kv, "soacgen")))}
	skelType := func(p clParam) *jen.Statement {
		if p.skel != "" {
			return skelQ(p.skel)
		}
		args := []jen.Code{jen.Lit(p.c + "__t")}
		for _, st := range p.fields {
			args = append(args, skelQ(st))
		}
		return launchQ("Struct").Call(args...)
	}
	params := func(name string, ps []clParam) {
		if len(ps) == 0 {
			return
		}
		var list []jen.Code
		param := skelQ("Param")
		for _, p := range ps {
			list = append(list, jen.Values(field("Name", jen.Lit(p.c)), field("Type", skelType(p))))
		}
		spec = append(spec, field(name, jen.Index().Add(param).Values(list...)))
	}
	params("Inputs", ck.ins)
	params("Outputs", ck.outs)
	red := func(r clRed) *jen.Statement {
		fields := []jen.Code{field("Name", jen.Lit(r.c)), field("Type", skelType(r.clParam)), field("Op", goString(r.op)), field("Neutral", jen.Lit(r.neutral))}
		if r.commutative {
			fields = append(fields, field("Commutative", jen.True()))
		}
		return jen.Values(fields...)
	}
	if ck.scan {
		spec = append(spec, field("Op", skelQ("Reduction").Add(red(ck.reds[0]))))
	} else {
		reduction := skelQ("Reduction")
		var list []jen.Code
		for _, r := range ck.reds {
			list = append(list, red(r))
		}
		list = append(list, launchQ("ErrFlagReduction").Call())
		spec = append(spec, field("Reductions", jen.Index().Add(reduction).Values(list...)))
	}
	if len(ck.args) > 0 {
		arg := skelQ("Arg")
		var list []jen.Code
		for _, a := range ck.args {
			for _, decl := range a.params {
				list = append(list, jen.Values(field("Name", jen.Lit(decl[strings.LastIndexByte(decl, ' ')+1:])), field("Decl", jen.Lit(decl))))
			}
		}
		spec = append(spec, field("Args", jen.Index().Add(arg).Values(list...)))
	}
	spec = append(spec, field("Body", goString(ck.body.String())), field("Preamble", goString(ck.unit.Source())))
	if o := ck.unit.BuildOptions(); o != "" {
		spec = append(spec, field("Options", jen.Lit(o)))
	}
	launch := []jen.Code{
		field("At", jen.Lit(fmt.Sprintf("%s:%d:%d", filepath.Base(pos.Filename), pos.Line, pos.Column))),
		field("FP64", jen.Lit(ck.fp64)),
		field("Spec", skelForm.Custom(lines, spec...)),
	}
	if f.Backend() == backend.Auto {
		launch = append(launch, field("Auto", jen.True()), field("Cost", launchQ("Cost").Values(field("Bytes", hostgo.Lit(ck.bytes())), field("Ops", hostgo.Lit(ck.ops())), field("Parallel", jen.Lit(fbName == backend.Parallel)))))
	}
	f.AddDecls(jen.Line(),
		jen.Commentf("%s runs a kernel of %s on OpenCL (generated from %s).", kv, f.Spec().Fuse.Name, f.Spec().Name),
		jen.Var().Id(kv).Op("=").Op("&").Add(launchType).Custom(lines, launch...))

	ok := f.Fresh("ok")
	c := hostgo.Stmts{hostgo.Define(ok, jen.False())}
	cond := jen.Id(kv).Dot("Kernel").Call().Op("!=").Nil()
	if f.Backend() == backend.Auto {
		cond = jen.Id(kv).Dot("Use").Call(jen.Len(hostgo.Id(f.Name(ck.ins[0].v)))).Op("&&").Add(cond)
	}
	slices := func(ps []clParam, name func(clParam) *jen.Statement) *jen.Statement {
		if len(ps) == 0 {
			return jen.Nil()
		}
		hostSlice := skelQ("HostSlice")
		var list []jen.Code
		for _, p := range ps {
			list = append(list, skelQ("Slice").Call(name(p)))
		}
		return jen.Index().Add(hostSlice).Values(list...)
	}
	var run hostgo.Stmts // inside "if the kernel was built"
	local := map[*ir.Var]string{}
	spans, data, room, flat := ck.rowsHost(&run, local)
	n := jen.Len(hostgo.Id(f.Name(ck.ins[0].v)))
	for _, p := range ck.outs {
		if p.rows != nil {
			continue
		}
		local[p.v] = f.Fresh("clo")
		run.Add(hostgo.Define(local[p.v], hostgo.MakeSlice(f.Type(p.v.Type), n)))
	}
	fallback := jen.If(jen.Op("!").Id(ok)).Add(hostgo.Block(fb))
	input := func(p clParam) *jen.Statement {
		if p.rows != nil {
			return hostgo.Id(spans[p.v])
		}
		return hostgo.Id(f.Name(p.v))
	}
	if ck.scan {
		r := ck.reds[0]
		l := f.Fresh("clo")
		run.Add(hostgo.Define(l, hostgo.MakeSlice(f.Type(r.v.Type), n)))
		ins := slices(ck.ins, input)
		call := jen.Id(kv).Dot("Run").Call(ins, skelQ("Slice").Call(hostgo.Id(l)))
		run.Add(jen.If(hostgo.AssignTo(ok, call), hostgo.Id(ok)).Add(hostgo.Block(hostgo.Stmts{hostgo.AssignTo(outs[r.v], hostgo.Id(l))})))
		return append(c, jen.If(cond).Add(hostgo.Block(run)), fallback)
	}
	for _, r := range ck.reds {
		local[r.v] = f.Fresh("clr")
		run.Add(hostgo.VarDecl(local[r.v], jen.Index(hostgo.Lit(1)).Add(f.Type(r.goElem)), nil))
	}
	kept := ""
	var args []jen.Code
	lhs := hostgo.Id(ok)
	switch {
	case ck.compact != lower.Root:
		kept = f.Fresh("kept")
		run.Add(hostgo.VarDecl(kept, jen.Int(), nil))
		lhs = jen.List(hostgo.Id(kept), hostgo.Id(ok))
	case len(ck.args) == 0:
		args = append(args, jen.Nil())
	default:
		var list []jen.Code
		for _, a := range ck.args {
			switch {
			case a.rowsIn != nil:
				list = append(list, launchQ("View").Call(hostgo.Id(data[a.rowsIn])))
				continue
			case a.rowsOut != nil:
				list = append(list, launchQ("Out").Call(hostgo.Id(flat[a.rowsOut])))
				continue
			case a.rowCap != nil:
				list = append(list, launchQ("Arg").Call(jen.Int64().Call(hostgo.Id(room[a.rowCap]))))
				continue
			}
			pass := "Arg"
			switch a.kind {
			case clc.Slice:
				pass = "View"
			case clc.Slice2:
				pass = "Rows"
			}
			list = append(list, launchQ(pass).Call(f.ObjName(a.obj)))
		}
		args = append(args, jen.Index().Any().Values(list...))
	}
	var reds []clParam
	for _, r := range ck.reds {
		reds = append(reds, r.clParam)
	}
	args = append(args,
		slices(ck.ins, input),
		slices(ck.outs, func(p clParam) *jen.Statement { return hostgo.Id(local[p.v]) }),
		slices(reds, func(p clParam) *jen.Statement { return jen.Id(local[p.v]).Index(jen.Empty(), jen.Empty()) }))
	var done hostgo.Stmts
	for _, p := range ck.outs {
		if p.rows != nil {
			done.Add(hostgo.AssignTo(outs[p.v], launchQ("Split").Call(hostgo.Id(flat[p.v]), hostgo.Id(local[p.v]), hostgo.Id(room[p.v]))))
			continue
		}
		if kept != "" {
			done.Add(hostgo.AssignTo(outs[p.v], jen.Id(local[p.v]).Index(jen.Empty(), hostgo.Id(kept))))
			continue
		}
		done.Add(hostgo.AssignTo(outs[p.v], hostgo.Id(local[p.v])))
	}
	for _, r := range ck.reds {
		if n := outs[r.v]; n != "" && n != "_" {
			done.Add(hostgo.AssignTo(n, jen.Id(local[r.v]).Index(hostgo.Lit(0))))
		}
	}
	run.Add(jen.If(jen.Add(lhs).Op("=").Id(kv).Dot("Run").Call(args...), hostgo.Id(ok)).Add(hostgo.Block(done)))
	return append(c, jen.If(cond).Add(hostgo.Block(run)), fallback)
}
