package opencl

// This file writes the Go side of an OpenCL kernel (translate.go and fold.go translate
// it): the package-level launch value holding the skeleton with its
// OpenCL C, and the code at the kernel's position that runs it, with the
// next backend's code when it does not run (the skeleton's run itself:
// emitrun.go). It does not translate anything.

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
	launch := ck.redomapLaunch(kv, form)
	// [][]T inputs a grid left on the device are downloaded first
	// (gridkept.go).
	c, rowsRelease := ck.rowsInputsHost()
	pl := ck.placeArrays(&c, outs)
	if f.auto {
		bytes, ops := ck.groupCost(pl.lastOf, pl.keep)
		launch = append(launch, ck.autoFields(bytes, ops, fbName == backend.Parallel, 1)...)
	}
	ck.declareLaunch(kv, form, launch)
	r := &kernelRun{ck: ck, kv: kv, pl: pl, local: map[*ir.Var]string{}}
	if pl.onSession() || ck.unwrittenCaptures() {
		r.session = ck.newSession()
	}
	r.n = ck.length(&c, pl.devIn)
	r.ok = f.Fresh("ok")
	c.Add(hostgo.Define(r.ok, jen.False()))
	cond := ck.launchCond(kv, r.n, pl.devIn)
	r.buffers()
	// The fallback reads the inputs left on the device from Go memory.
	// So do captured slices left there (captured.go).
	fallback, release := fallbackCode(f, k, ck.ins, pl.devIn, r.ok, fb)
	r.args = r.kernelArgs()
	r.devIns = r.runOnInputs()
	if ck.scan {
		r.scan(outs)
	} else {
		r.redomap(outs)
	}
	return append(append(append(c, jen.If(cond).Add(hostgo.Block(r.run)), fallback), release...), rowsRelease...)
}

// placement is where the arrays of a map-reduce, scan or filter kernel
// are (residency.go, unwritten.go).
type placement struct {
	devIn  map[*ir.Var]*deviceArray        // the inputs an earlier kernel left on the device
	keep   map[*ir.Var]string              // the handle of each output kept on the device
	share  map[*ir.Var]string              // the handle of each input later kernels read too
	unw    map[*ir.Var]bool                // the inputs uploaded once per call
	lastOf map[*ir.Var]*lowered.PlanKernel // the last reader of each kept or shared array
}

// placeArrays decides which of ck's arrays are kept on the device: the
// inputs an earlier kernel left there, the outputs that only later
// kernels read (a map's, a scan's, a filter's kept elements), the inputs
// later kernels read too (shared), and the inputs uploaded once per call
// (unwritten.go). It declares the handles of the kept and shared arrays
// in c and registers them with the spec. The map-reduce, scan and filter
// skeletons run on them (RunOn).
func (ck *clKernel) placeArrays(c *hostgo.Stmts, outs map[*ir.Var]string) *placement {
	f := ck.f
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	pl := &placement{devIn: deviceInputs(f, ck.ins), keep: map[*ir.Var]string{}, share: map[*ir.Var]string{},
		unw: map[*ir.Var]bool{}, lastOf: map[*ir.Var]*lowered.PlanKernel{}}
	kept := ck.outs
	if ck.scan {
		kept = []clParam{ck.reds[0].clParam}
	}
	for _, p := range kept {
		// A kernel without inputs runs over its Iota's length, off the
		// session (launch.Redomap.RunN): its outputs are downloaded.
		if n := outs[p.v]; ck.generated() || p.rows != nil || n == "" || n == "_" {
			continue
		}
		if last := ck.keepable(p.v); last != nil {
			pl.keep[p.v] = ck.declareKept(c, p.v, launchQ("Array").Types(f.Type(p.goElem)), last)
			pl.lastOf[p.v] = last
		}
	}
	for _, p := range ck.ins {
		if _, ok := pl.devIn[p.v]; ok || p.rows != nil {
			continue
		}
		if ck.unwritten(p.v) {
			pl.unw[p.v] = true
			continue
		}
		if last := ck.shareable(p.v); last != nil {
			h := f.Fresh("dev")
			pl.share[p.v] = h
			pl.lastOf[p.v] = last
			c.Add(hostgo.VarDecl(h, jen.Op("*").Add(launchQ("Array").Types(f.Type(p.goElem))), nil))
			f.setDeviceArray(p.v, &deviceArray{Handle: h, Release: hostgo.Stmts{jen.Id(h).Dot("Release").Call()}, Last: last})
		}
	}
	return pl
}

// onSession reports whether the kernel's arrays need the call's
// launch.Session: it reads, keeps, shares or uploads once per call one.
func (pl *placement) onSession() bool {
	return len(pl.devIn) > 0 || len(pl.keep) > 0 || len(pl.share) > 0 || len(pl.unw) > 0
}

// generated reports whether ck has no inputs: it runs over the length of
// the Iota that generates its space.
func (ck *clKernel) generated() bool { return len(ck.ins) == 0 }

// length returns the length of ck's space: of its first input (devIn
// holds the inputs on the device), or of the Iota that generates it,
// evaluated once here into a variable declared in c (the CPU code
// evaluates it again, as the spec does).
func (ck *clKernel) length(c *hostgo.Stmts, devIn map[*ir.Var]*deviceArray) *jen.Statement {
	f := ck.f
	if ck.generated() {
		cln := f.Fresh("cln")
		c.Add(hostgo.Define(cln, jen.Int().Call(f.LengthCode(ck.lk.Length))))
		return hostgo.Id(cln)
	}
	return inputLen(f, ck.ins[0].v, devIn)
}

// launchCond returns the condition under which ck's launch value kv runs
// over n elements: its kernel was built, the length is not negative (a
// generated space's: the CPU code's panic), every generated array of
// the kernel has that length, and, for backend=auto, the device is
// chosen: an input or captured slice an earlier kernel left on the
// device (devIn) ran there by the model's verdict on the two together
// (groupCost), so this one does too; else the model decides alone.
func (ck *clKernel) launchCond(kv string, n *jen.Statement, devIn map[*ir.Var]*deviceArray) *jen.Statement {
	f := ck.f
	cond := jen.Id(kv).Dot("Kernel").Call().Op("!=").Nil()
	if ck.generated() {
		cond = n.Clone().Op(">").Lit(0).Op("&&").Add(cond)
	}
	cond = withGeneratedLengths(f, ck.lk, n, cond)
	if f.auto {
		on := inputsOnDevice(ck.ins, devIn)
		on = append(on, capturedOnDevice(f, ck.lk.Src, func(v *ir.Var) bool { return devIn[v] != nil })...)
		cond = autoGuard(kv, n, on, cond)
	}
	return cond
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
func (ck *clKernel) declareLaunch(kv, form string, launch []jen.Code, notes ...string) {
	f := ck.f
	decls := []jen.Code{jen.Line(), jen.Commentf("%s runs a kernel of %s on OpenCL (generated from %s).", kv, f.Spec().Fuse.Name, f.Spec().Name)}
	for _, n := range notes {
		decls = append(decls, jen.Comment(n))
	}
	f.AddDecls(append(decls,
		jen.Var().Id(kv).Op("=").Op("&").Add(f.Qual(launchPath, "launch", form)).Custom(lines, launch...))...)
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
