package opencl

// This file writes the Go side of an OpenCL kernel (translate.go and fold.go translate
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
	"github.com/soacgen/soacgen/rewrite/lowered"
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
	kv := f.PackageVar("soacgenCL" + f.Spec().Fuse.Name)
	form := ck.form()
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	skelQ := func(name string) *jen.Statement { return f.Qual(skelPath, "skel", name) }
	launch := ck.redomapLaunch(kv, form)

	// Arrays kept on the device (residency.go): the inputs an
	// earlier kernel left there, the outputs that only later kernels
	// read (a map's, a scan's, a filter's kept elements). The
	// map-reduce, scan and filter skeletons run on them (RunOn).
	// [][]T inputs a grid left there are downloaded first
	// (gridkept.go).
	c, rowsRelease := ck.rowsInputsHost()
	devIn := map[*ir.Var]*deviceArray{}
	for _, p := range ck.ins {
		if d := f.deviceArrayOf(p.v); d != nil && p.rows == nil {
			devIn[p.v] = d
		}
	}
	lastOf := map[*ir.Var]*lowered.PlanKernel{} // the last reader of each kept or shared array
	keep := map[*ir.Var]string{}                // the handle of each output kept on the device
	kept := ck.outs
	if ck.scan {
		kept = []clParam{ck.reds[0].clParam}
	}
	// A kernel without inputs runs over its Iota's length, off the
	// session (launch.Redomap.RunN): its outputs are downloaded.
	generated := len(ck.ins) == 0
	for _, p := range kept {
		if n := outs[p.v]; generated || p.rows != nil || n == "" || n == "_" {
			continue
		}
		if last := ck.keepable(p.v); last != nil {
			keep[p.v] = ck.declareKept(&c, p.v, launchQ("Array").Types(f.Type(p.goElem)), last)
			lastOf[p.v] = last
		}
	}
	share := map[*ir.Var]string{} // the handle of each input later kernels read too
	unw := map[*ir.Var]bool{}     // inputs uploaded once per call (unwritten.go)
	for _, p := range ck.ins {
		if _, ok := devIn[p.v]; ok || p.rows != nil {
			continue
		}
		if ck.unwritten(p.v) {
			unw[p.v] = true
			continue
		}
		if last := ck.shareable(p.v); last != nil {
			h := f.Fresh("dev")
			share[p.v] = h
			lastOf[p.v] = last
			c.Add(hostgo.VarDecl(h, jen.Op("*").Add(launchQ("Array").Types(f.Type(p.goElem))), nil))
			f.setDeviceArray(p.v, &deviceArray{Handle: h, Release: hostgo.Stmts{jen.Id(h).Dot("Release").Call()}, Last: last})
		}
	}
	if f.auto {
		bytes, ops := ck.groupCost(lastOf, keep)
		launch = append(launch, ck.autoFields(bytes, ops, fbName == backend.Parallel, 1)...)
	}
	ck.declareLaunch(kv, form, launch)
	session := ""
	if len(devIn) > 0 || len(keep) > 0 || len(share) > 0 || len(unw) > 0 || ck.unwrittenCaptures() {
		session = ck.newSession()
	}
	// n is the length of the kernel's first input, or of the Iota that
	// generates its space (evaluated once here: the CPU code evaluates it
	// again, as the spec does).
	var n *jen.Statement
	switch {
	case generated:
		cln := f.Fresh("cln")
		c.Add(hostgo.Define(cln, jen.Int().Call(f.LengthCode(ck.lk.Length))))
		n = hostgo.Id(cln)
	case devIn[ck.ins[0].v] != nil:
		n = launchQ("Len").Call(jen.Id(devIn[ck.ins[0].v].Handle), hostgo.Id(f.Name(ck.ins[0].v)))
	default:
		n = jen.Len(hostgo.Id(f.Name(ck.ins[0].v)))
	}
	ok := f.Fresh("ok")
	c.Add(hostgo.Define(ok, jen.False()))
	cond := jen.Id(kv).Dot("Kernel").Call().Op("!=").Nil()
	if generated {
		// A negative length is the CPU code's panic.
		cond = n.Clone().Op(">").Lit(0).Op("&&").Add(cond)
	}
	cond = withGeneratedLengths(f, ck.lk, n, cond)
	if f.auto {
		// Inputs an earlier kernel left on the device: it ran there by
		// the model's verdict on the two together (groupCost), so this
		// one does too; else it decides alone.
		use := jen.Id(kv).Dot("Use").Call(n)
		var on []jen.Code
		for _, p := range ck.ins {
			if d := devIn[p.v]; d != nil {
				on = append(on, jen.Id(d.Handle).Op("!=").Nil())
			}
		}
		on = append(on, capturedOnDevice(f, k, func(v *ir.Var) bool { return devIn[v] != nil })...)
		if len(on) > 0 {
			either := jen.Add(on[0])
			for _, x := range on[1:] {
				either = either.Op("||").Add(x)
			}
			use = jen.Parens(either.Op("||").Add(use))
		}
		cond = jen.Add(use).Op("&&").Add(cond)
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
	spans, data, room, flat := ck.rowsHost(&run, local, n)
	for _, p := range ck.outs {
		if p.rows != nil || keep[p.v] != "" {
			continue
		}
		local[p.v] = f.Fresh("clo")
		run.Add(hostgo.Define(local[p.v], downloadDest(f, elemOf(p.v.Type), n)))
	}
	// The fallback reads the inputs left on the device from Go memory.
	// So do captured slices left there (captured.go).
	host, release := fallbackHost(f, k, ck.ins, devIn)
	fallback := jen.If(jen.Op("!").Id(ok)).Add(hostgo.Block(append(host, fb...)))
	input := func(p clParam) *jen.Statement {
		if p.rows != nil {
			return hostgo.Id(spans[p.v])
		}
		return hostgo.Id(f.Name(p.v))
	}
	// The values of the kernel's arguments, in the order of the Args
	// declared above: every skeleton takes them first.
	args := []jen.Code{ck.argValues(session, func(a clArg) jen.Code {
		switch {
		case a.rowsIn != nil:
			return launchQ("View").Call(hostgo.Id(data[a.rowsIn]))
		case a.rowsOut != nil:
			return launchQ("Out").Call(hostgo.Id(flat[a.rowsOut]))
		}
		return launchQ("Arg").Call(jen.Int64().Call(hostgo.Id(room[a.rowCap])))
	})}
	list := func(name string, l []jen.Code) jen.Code {
		if len(l) == 0 {
			return jen.Nil()
		}
		return jen.Index().Add(launchQ(name)).Values(l...)
	}
	// The inputs of RunOn: on the device, shared, uploaded once per
	// call, or uploaded for the run.
	var devIns []jen.Code
	for _, p := range ck.ins {
		switch d := devIn[p.v]; {
		case d != nil:
			devIns = append(devIns, launchQ("Dev").Call(jen.Id(d.Handle), hostgo.Id(f.Name(p.v))))
		case share[p.v] != "":
			devIns = append(devIns, launchQ("Share").Call(jen.Op("&").Id(share[p.v]), hostgo.Id(f.Name(p.v))))
		case unw[p.v]:
			devIns = append(devIns, launchQ("Unwritten").Call(jen.Op("&").Id(session), hostgo.Id(f.Name(p.v))))
		default:
			devIns = append(devIns, launchQ("Host").Call(input(p)))
		}
	}
	if ck.scan {
		r := ck.reds[0]
		var call *jen.Statement
		var done hostgo.Stmts
		if session != "" {
			out := launchQ("Keep").Call(jen.Op("&").Id(keep[r.v]))
			if keep[r.v] == "" {
				l := f.Fresh("clo")
				run.Add(hostgo.Define(l, downloadDest(f, elemOf(r.v.Type), n)))
				out = launchQ("Download").Call(hostgo.Id(l))
				done.Add(hostgo.AssignTo(outs[r.v], hostgo.Id(l)))
			}
			call = jen.Id(kv).Dot("RunOn").Call(append([]jen.Code{jen.Op("&").Id(session)}, append(args, list("Input", devIns), out)...)...)
		} else {
			l := f.Fresh("clo")
			run.Add(hostgo.Define(l, downloadDest(f, elemOf(r.v.Type), n)))
			ins := slices(ck.ins, input)
			call = jen.Id(kv).Dot("Run").Call(append(args, ins, skelQ("Slice").Call(hostgo.Id(l)))...)
			done.Add(hostgo.AssignTo(outs[r.v], hostgo.Id(l)))
		}
		run.Add(jen.If(hostgo.AssignTo(ok, call), hostgo.Id(ok)).Add(hostgo.Block(done)))
		return append(append(append(c, jen.If(cond).Add(hostgo.Block(run)), fallback), release...), rowsRelease...)
	}
	for _, r := range ck.reds {
		local[r.v] = f.Fresh("clr")
		run.Add(hostgo.VarDecl(local[r.v], jen.Index(hostgo.Lit(1)).Add(f.Type(r.goElem)), nil))
	}
	nkept := ""
	lhs := hostgo.Id(ok)
	if ck.compact != lowered.Root {
		// The number kept, unless every output stays on the device.
		lhs = jen.List(jen.Id("_"), hostgo.Id(ok))
		for _, p := range ck.outs {
			if keep[p.v] == "" {
				nkept = f.Fresh("kept")
				run.Add(hostgo.VarDecl(nkept, jen.Int(), nil))
				lhs = jen.List(hostgo.Id(nkept), hostgo.Id(ok))
				break
			}
		}
	}
	var reds []clParam
	for _, r := range ck.reds {
		reds = append(reds, r.clParam)
	}
	results := slices(reds, func(p clParam) *jen.Statement { return jen.Id(local[p.v]).Index(jen.Empty(), jen.Empty()) })
	runFn := jen.Id(kv).Dot("Run")
	if generated {
		runFn = jen.Id(kv).Dot("RunN")
		args = append([]jen.Code{n}, append(args,
			slices(ck.outs, func(p clParam) *jen.Statement { return hostgo.Id(local[p.v]) }),
			results)...)
	} else if session != "" {
		runFn = jen.Id(kv).Dot("RunOn")
		args = append([]jen.Code{jen.Op("&").Id(session)}, args...)
		var os []jen.Code
		for _, p := range ck.outs {
			if h := keep[p.v]; h != "" {
				os = append(os, launchQ("Keep").Call(jen.Op("&").Id(h)))
				continue
			}
			os = append(os, launchQ("Download").Call(hostgo.Id(local[p.v])))
		}
		args = append(args, list("Input", devIns), list("Output", os), results)
	} else {
		args = append(args,
			slices(ck.ins, input),
			slices(ck.outs, func(p clParam) *jen.Statement { return hostgo.Id(local[p.v]) }),
			results)
	}
	var done hostgo.Stmts
	for _, p := range ck.outs {
		if keep[p.v] != "" {
			continue
		}
		if p.rows != nil {
			done.Add(hostgo.AssignTo(outs[p.v], launchQ("Split").Call(hostgo.Id(flat[p.v]), hostgo.Id(local[p.v]), hostgo.Id(room[p.v]))))
			continue
		}
		if nkept != "" {
			// Cut to the kept count and capacity: the elements past it
			// were never written (downloadDest).
			done.Add(hostgo.AssignTo(outs[p.v], jen.Id(local[p.v]).Index(jen.Empty(), hostgo.Id(nkept), hostgo.Id(nkept))))
			continue
		}
		done.Add(hostgo.AssignTo(outs[p.v], hostgo.Id(local[p.v])))
	}
	for _, r := range ck.reds {
		if n := outs[r.v]; n != "" && n != "_" {
			v := jen.Id(local[r.v]).Index(hostgo.Lit(0))
			// The start, combined once (clRed.start).
			done.Add(hostgo.AssignTo(n, startCombined(f, r, v)))
		}
	}
	run.Add(jen.If(jen.Add(lhs).Op("=").Add(runFn).Call(args...), hostgo.Id(ok)).Add(hostgo.Block(done)))
	return append(append(append(c, jen.If(cond).Add(hostgo.Block(run)), fallback), release...), rowsRelease...)
}

// skelType returns p's skeleton type: its skel type, or a launch.Struct
// of its fields' skel types.
func (ck *clKernel) skelType(p clParam) *jen.Statement {
	if p.skel != "" {
		return ck.f.Qual(skelPath, "skel", p.skel)
	}
	args := []jen.Code{jen.Lit(p.c + "__t")}
	for _, st := range p.fields {
		args = append(args, ck.f.Qual(skelPath, "skel", st))
	}
	return ck.f.Qual(launchPath, "launch", "Struct").Call(args...)
}

// paramList returns the []skel.Param literal of ps.
func (ck *clKernel) paramList(ps []clParam) *jen.Statement {
	var list []jen.Code
	for _, p := range ps {
		list = append(list, jen.Values(field("Name", jen.Lit(p.c)), field("Type", ck.skelType(p))))
	}
	return jen.Index().Add(ck.f.Qual(skelPath, "skel", "Param")).Values(list...)
}

// argDecls returns spec with the field declaring ck's kernel arguments
// (their C parameters, as []skel.Arg) appended, when it has any.
func (ck *clKernel) argDecls(spec []jen.Code) []jen.Code {
	if len(ck.args) == 0 {
		return spec
	}
	var list []jen.Code
	for _, a := range ck.args {
		for _, decl := range a.params {
			list = append(list, jen.Values(field("Name", jen.Lit(decl[strings.LastIndexByte(decl, ' ')+1:])), field("Decl", jen.Lit(decl))))
		}
	}
	return append(spec, field("Args", jen.Index().Add(ck.f.Qual(skelPath, "skel", "Arg")).Values(list...)))
}

// preamble returns spec with the fields of ck's OpenCL C preamble and
// build options (when any) appended.
func (ck *clKernel) preamble(spec []jen.Code) []jen.Code {
	spec = append(spec, field("Preamble", goString(ck.unit.Source())))
	if o := ck.unit.BuildOptions(); o != "" {
		spec = append(spec, field("Options", jen.Lit(o)))
	}
	return spec
}

// launchFields returns the fields of a launch value of skeleton form
// (a skel type name) with fields spec, for kernel k: its position, FP64
// and skeleton.
func (ck *clKernel) launchFields(k *lowered.PlanKernel, form string, spec []jen.Code) []jen.Code {
	pos := ck.f.Fset().Position(k.At.Pos())
	return []jen.Code{
		field("At", jen.Lit(fmt.Sprintf("%s:%d:%d", filepath.Base(pos.Filename), pos.Line, pos.Column))),
		field("FP64", jen.Lit(ck.fp64)),
		field("Spec", ck.f.Qual(skelPath, "skel", form).Custom(lines, spec...)),
	}
}

// autoFields returns backend=auto's fields of a launch value: its cost
// per element, whether the fallback it is compared with is the parallel
// backend, and how many skeletons one call launches (Cost.Launches).
func (ck *clKernel) autoFields(bytes, ops int, parallel bool, launches int) []jen.Code {
	cost := []jen.Code{field("Bytes", hostgo.Lit(bytes)), field("Ops", hostgo.Lit(ops)), field("Parallel", jen.Lit(parallel))}
	if launches > 1 {
		cost = append(cost, field("Launches", hostgo.Lit(launches)))
	}
	return []jen.Code{field("Auto", jen.True()), field("Cost", ck.f.Qual(launchPath, "launch", "Cost").Values(cost...))}
}

// declareLaunch adds the package-level launch value kv, a launch type
// form, with fields launch.
func (ck *clKernel) declareLaunch(kv, form string, launch []jen.Code) {
	f := ck.f
	f.AddDecls(jen.Line(),
		jen.Commentf("%s runs a kernel of %s on OpenCL (generated from %s).", kv, f.Spec().Fuse.Name, f.Spec().Name),
		jen.Var().Id(kv).Op("=").Op("&").Add(f.Qual(launchPath, "launch", form)).Custom(lines, launch...))
}

// form returns the skeleton ck runs on: Scan, Filter (a filter's kept
// elements) or Redomap.
func (ck *clKernel) form() string {
	switch {
	case ck.scan:
		return "Scan"
	case ck.compact != lowered.Root:
		return "Filter"
	}
	return "Redomap"
}

// redomapLaunch returns the fields of the launch value kv of ck's
// skeleton, of form Redomap, Scan or Filter (without backend=auto's).
func (ck *clKernel) redomapLaunch(kv, form string) []jen.Code {
	f := ck.f
	skelQ := func(name string) *jen.Statement { return f.Qual(skelPath, "skel", name) }
	spec := []jen.Code{field("Name", jen.Lit(strings.TrimPrefix(kv, "soacgen")))}
	if len(ck.ins) > 0 {
		spec = append(spec, field("Inputs", ck.paramList(ck.ins)))
	}
	if len(ck.outs) > 0 {
		spec = append(spec, field("Outputs", ck.paramList(ck.outs)))
	}
	red := func(r clRed) *jen.Statement {
		fields := []jen.Code{field("Name", jen.Lit(r.c)), field("Type", ck.skelType(r.clParam)), field("Op", goString(r.op)), field("Neutral", jen.Lit(r.neutral))}
		if r.commutative {
			fields = append(fields, field("Commutative", jen.True()))
		}
		if r.all {
			fields = append(fields, field("All", jen.True()))
		}
		if r.neutralArg {
			fields = append(fields, field("NeutralArg", jen.True()))
		}
		return jen.Values(fields...)
	}
	if form == "Scan" {
		spec = append(spec, field("Op", skelQ("Reduction").Add(red(ck.reds[0]))))
	} else {
		var list []jen.Code
		for _, r := range ck.reds {
			list = append(list, red(r))
		}
		list = append(list, f.Qual(launchPath, "launch", "ErrFlagReduction").Call())
		spec = append(spec, field("Reductions", jen.Index().Add(skelQ("Reduction")).Values(list...)))
	}
	spec = ck.argDecls(spec)
	spec = ck.preamble(append(spec, field("Body", goString(ck.body.String()))))
	return ck.launchFields(ck.lk.Src, form, spec)
}

// newSession returns the name of the call's launch.Session (spec.newSession).
func (ck *clKernel) newSession() string { return ck.f.newSession() }

// argValues returns the values of ck's kernel arguments, in the order
// of its Args (argDecls), as every skeleton takes them first: nil for
// none, else a []any. session is the call's launch.Session ("" for
// none); rows returns the value of an argument of a [][]T input or a
// map's slice results (rowsIn, rowsOut, rowCap set), which only the
// map-reduce kernels have (nil elsewhere).
func (ck *clKernel) argValues(session string, rows func(clArg) jen.Code) jen.Code {
	f, k := ck.f, ck.lk.Src
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	if len(ck.args) == 0 {
		return jen.Nil()
	}
	var list []jen.Code
	for _, a := range ck.args {
		switch {
		case a.rowsIn != nil || a.rowsOut != nil || a.rowCap != nil:
			list = append(list, rows(a))
			continue
		case a.rep != nil:
			list = append(list, launchQ("Arg").Call(f.OperandCode(a.rep, a.rep.Op.(*ir.Replicate).Value)))
			continue
		case a.copyOf != nil:
			// The copy its member reads (a number or struct).
			list = append(list, launchQ("Arg").Call(hostgo.Id(f.Name(a.copyOf))))
			continue
		case a.start != nil:
			// A float fold's start (clRed.first).
			list = append(list, launchQ("Arg").Call(f.Type(a.startOf.TypeArgs[0]).Call(f.OperandCode(a.startOf, a.start))))
			continue
		case a.deref:
			// A method value's receiver, through its pointer.
			list = append(list, launchQ("Arg").Call(jen.Op("*").Add(f.ObjName(a.obj))))
			continue
		}
		pass := "Arg"
		switch a.kind {
		case clc.Slice:
			pass = "View"
			if d := capturedDev(f, k, a.obj); d != nil {
				list = append(list, viewDev(launchQ, d, f.ObjName(a.obj)))
				continue
			}
			if session != "" && ck.unwrittenCapture(a.obj) {
				list = append(list, launchQ("ViewUnwritten").Call(jen.Op("&").Id(session), f.ObjName(a.obj)))
				continue
			}
		case clc.Slice2:
			pass = "Rows"
			if d := capturedDev(f, k, a.obj); d != nil {
				list = append(list, launchQ("RowsDev").Call(jen.Id(d.Handle), f.ObjName(a.obj)))
				continue
			}
		}
		list = append(list, launchQ(pass).Call(f.ObjName(a.obj)))
	}
	return jen.Index().Any().Values(list...)
}

// withGeneratedLengths returns cond preceded by the conditions that
// every generator (Iota, Replicate) of kernel lk that a zip of the
// kernel asserts of one length with other arrays (lowered.Kernel.Asserts)
// has the launch's length n. A launch checks that its inputs have length
// n, not a generator, which the work-items compute from the index: a
// zip of a generated array with an input of another length would run
// over n elements where the spec's zip panics. The CPU code, which runs
// when they differ, raises that panic.
func withGeneratedLengths(f *spec, lk *lowered.Kernel, n, cond *jen.Statement) *jen.Statement {
	seen := map[*ir.SOAC]bool{lk.Length.Gen: true}
	var conds []jen.Code
	for _, a := range lk.Asserts {
		for _, l := range a.Lengths {
			if l.Gen == nil || seen[l.Gen] {
				continue
			}
			seen[l.Gen] = true
			conds = append(conds, f.LengthCode(l).Op("==").Add(n.Clone()))
		}
	}
	for i := len(conds) - 1; i >= 0; i-- {
		cond = jen.Add(conds[i]).Op("&&").Add(cond)
	}
	return cond
}
