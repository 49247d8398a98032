package rewrite

// This file writes the Go side of an OpenCL kernel (opencl.go translates
// it): the package-level launch value holding the skeleton with its
// OpenCL C, and the code at the kernel's position that runs it, with the
// next backend's code when it does not run. It does not translate
// anything.

import (
	"fmt"
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

// PackageVar returns a package-level name starting with base, taken for
// every function of the file.
func (g *File) PackageVar(base string) string {
	n := g.Fresh(base)
	g.base[n] = true
	return n
}

// field returns the key-value element "name: value" of a struct literal.
func field(name string, value jen.Code) *jen.Statement { return jen.Id(name).Op(":").Add(value) }

// lines are the options of a composite literal's elements written one a
// line (a trailing comma after each).
var lines = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

// emit returns the Go code that runs the kernel, with the next backend's
// code as its fallback, and declares the kernel's launch value.
func (ck *clKernel) emit(outs map[*ir.Var]string) Stmts {
	f, k := ck.f, ck.lk.Src
	// The fallback first: backend=auto's cost model compares the device
	// with the backend that runs when the device does not.
	fb, fbName := f.fallback(ck.lk, outs)
	pos := f.fset.Position(k.At.Pos())
	kv := f.PackageVar("soacgenCL" + f.fn.Fuse.Name)
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
	if f.backend == Auto {
		launch = append(launch, field("Auto", jen.True()), field("Cost", launchQ("Cost").Values(field("Bytes", Lit(ck.bytes())), field("Ops", Lit(ck.ops())), field("Parallel", jen.Lit(fbName == Parallel)))))
	}
	f.decls = append(f.decls, jen.Line(),
		jen.Commentf("%s runs a kernel of %s on OpenCL (generated from %s).", kv, f.fn.Fuse.Name, f.fn.Name),
		jen.Var().Id(kv).Op("=").Op("&").Add(launchType).Custom(lines, launch...))

	ok := f.Fresh("ok")
	c := Stmts{Define(ok, jen.False())}
	cond := jen.Id(kv).Dot("Kernel").Call().Op("!=").Nil()
	if f.backend == Auto {
		cond = jen.Id(kv).Dot("Use").Call(jen.Len(Id(f.Name(ck.ins[0].v)))).Op("&&").Add(cond)
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
	var run Stmts // inside "if the kernel was built"
	local := map[*ir.Var]string{}
	spans, data, room, flat := ck.rowsHost(&run, local)
	n := jen.Len(Id(f.Name(ck.ins[0].v)))
	for _, p := range ck.outs {
		if p.rows != nil {
			continue
		}
		local[p.v] = f.Fresh("clo")
		run.Add(Define(local[p.v], MakeSlice(f.Type(p.v.Type), n)))
	}
	fallback := jen.If(jen.Op("!").Id(ok)).Add(Block(fb))
	input := func(p clParam) *jen.Statement {
		if p.rows != nil {
			return Id(spans[p.v])
		}
		return Id(f.Name(p.v))
	}
	if ck.scan {
		r := ck.reds[0]
		l := f.Fresh("clo")
		run.Add(Define(l, MakeSlice(f.Type(r.v.Type), n)))
		ins := slices(ck.ins, input)
		call := jen.Id(kv).Dot("Run").Call(ins, skelQ("Slice").Call(Id(l)))
		run.Add(jen.If(AssignTo(ok, call), Id(ok)).Add(Block(Stmts{AssignTo(outs[r.v], Id(l))})))
		return append(c, jen.If(cond).Add(Block(run)), fallback)
	}
	for _, r := range ck.reds {
		local[r.v] = f.Fresh("clr")
		run.Add(VarDecl(local[r.v], jen.Index(Lit(1)).Add(f.Type(r.goElem)), nil))
	}
	kept := ""
	var args []jen.Code
	lhs := Id(ok)
	switch {
	case ck.compact != lower.Root:
		kept = f.Fresh("kept")
		run.Add(VarDecl(kept, jen.Int(), nil))
		lhs = jen.List(Id(kept), Id(ok))
	case len(ck.args) == 0:
		args = append(args, jen.Nil())
	default:
		var list []jen.Code
		for _, a := range ck.args {
			switch {
			case a.rowsIn != nil:
				list = append(list, launchQ("View").Call(Id(data[a.rowsIn])))
				continue
			case a.rowsOut != nil:
				list = append(list, launchQ("Out").Call(Id(flat[a.rowsOut])))
				continue
			case a.rowCap != nil:
				list = append(list, launchQ("Arg").Call(jen.Int64().Call(Id(room[a.rowCap]))))
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
		slices(ck.outs, func(p clParam) *jen.Statement { return Id(local[p.v]) }),
		slices(reds, func(p clParam) *jen.Statement { return jen.Id(local[p.v]).Index(jen.Empty(), jen.Empty()) }))
	var done Stmts
	for _, p := range ck.outs {
		if p.rows != nil {
			done.Add(AssignTo(outs[p.v], launchQ("Split").Call(Id(flat[p.v]), Id(local[p.v]), Id(room[p.v]))))
			continue
		}
		if kept != "" {
			done.Add(AssignTo(outs[p.v], jen.Id(local[p.v]).Index(jen.Empty(), Id(kept))))
			continue
		}
		done.Add(AssignTo(outs[p.v], Id(local[p.v])))
	}
	for _, r := range ck.reds {
		if n := outs[r.v]; n != "" && n != "_" {
			done.Add(AssignTo(n, jen.Id(local[r.v]).Index(Lit(0))))
		}
	}
	run.Add(jen.If(jen.Add(lhs).Op("=").Id(kv).Dot("Run").Call(args...), Id(ok)).Add(Block(done)))
	return append(c, jen.If(cond).Add(Block(run)), fallback)
}

// fallback returns the code of the first backend after opencl in the
// spec's chain that renders lk, else the reference calls, and the
// backend's name ("" for the reference calls).
func (f *Func) fallback(lk *lower.Kernel, outs map[*ir.Var]string) (Stmts, string) {
	for _, name := range Chain(f.backend) {
		if b := backends[name]; b != nil && name != OpenCL {
			if c, why := b.render(f, lk, outs); why == "" {
				return c, name
			}
		}
	}
	return Stmts{f.Unfused(lk.Src, outs)}, ""
}
