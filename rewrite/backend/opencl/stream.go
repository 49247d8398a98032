package opencl

// This file is the opencl backend's part for stream reductions (k-means'
// counts per centre, a histogram's bins): a StreamRed, alone (form
// lowered.Call) or with the maps that feed it (form lowered.Chunked), whose
// chunk function makes a row of a length the host can compute before the
// launch (row := make([]E, n), n from captures and constants; package
// rewrite/clc's Unit.Chunk) and returns it, or that returns a number or
// a struct of numbers (a row of one element). It runs on the stream-reduce
// skeleton (skel.StreamRed): one work-item per chunk runs the chunk
// function into its row of a scratch buffer (the fused maps first, into
// a scratch buffer of the stream's input), and the rows are combined by
// the operator, translated as the work-item's loops, in chunk order.
// The spec promises that the result does not depend on the chunking
// (docs/contract.md); for integer rows every chunking gives the same bits,
// for float rows the device's chunking rounds as that of any other
// backend may. Anything else is refused with a reason (a StreamMap
// is streammap.go's): a chunk function of unknown result length,
// an operator that captures, maps whose outputs are materialised. For
// backend=auto the call runs the kernel when launch.StreamRed.Use says
// so (cost: streamOps).

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"path/filepath"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// rowOverflow is the panic flag a work-item sets when the chunk function
// or the operator returns a row shorter or longer than the room: not a
// panic of Go, but a result the skeleton cannot combine, which the CPU
// code then computes.
const rowOverflow = 1 << 30

// clStream is a stream reduction being translated.
type clStream struct {
	*clKernel
	m       *ir.SOAC
	st      *ir.Stream
	room    ast.Expr   // the row's length, evaluated on the host
	rowGo   types.Type // the row's element type
	rowSkel clParam    // the row element as a skeleton type (skel or fields)
	scratch *clParam   // the stream's input computed by fused maps, or nil
	chunk   strings.Builder
	combine string
	// scalarRow: the chunk function returns a number or struct (the
	// stream's result), each chunk's a row of one element.
	scalarRow bool
	// bins is the launch value's Bins field (bins.go), or nil and
	// binsWhy says why not.
	bins    jen.Code
	binsWhy string
}

// renderStream renders a stream reduction, or says why it does not.
func renderStream(f *spec, lk *lowered.Kernel, outs map[*ir.Var]string, next backend.Next) (hostgo.Stmts, string) {
	m := lk.Members[len(lk.Members)-1].SOAC
	st, ok := m.Op.(*ir.Stream)
	if !ok || st.Kind != ir.StreamRed {
		return nil, fmt.Sprintf("%s: only StreamRed becomes an OpenCL kernel among the streams", soacPos(f, m))
	}
	if why := nestedIn(lk.Src.At); why != "" {
		return nil, why
	}
	ck := &clKernel{f: f, next: next, lk: lk, unit: clc.NewUnit(f.Fset(), clc.PackageResolver(f.Files(), f.Info())),
		cname: map[*ir.Var]string{}, space: map[*ir.Var]int{}, keep: make([]string, len(lk.Spaces))}
	s := &clStream{clKernel: ck, m: m, st: st}
	if why := s.translate(outs); why != "" {
		return nil, why
	}
	return s.emit(outs), ""
}

// translate fills s, or returns why the stream does not translate.
func (s *clStream) translate(outs map[*ir.Var]string) string {
	f := s.f
	if why := s.translateInputs(); why != "" {
		return why
	}
	// The operator first: the combine kernel passes it no captures.
	opFn, why := s.lambda(s.m, s.st.Op)
	if why != "" {
		return why
	}
	if len(opFn.Captures) > 0 {
		return fmt.Sprintf("the operator of %s captures %s: the combine kernel takes no arguments; fold without it and apply it to the result, or make it a constant", soacPos(f, s.m), opFn.Captures[0].Var.Name())
	}
	if why := s.translateMaps(outs, "the stream skeleton writes only the reduced row"); why != "" {
		return why
	}
	lit := s.st.Chunk.Lit
	if row, _ := s.m.TypeArgs[1].Underlying().(*types.Slice); row == nil {
		return s.scalar(opFn) // the chunk function returns a number or struct
	}
	if lit == nil {
		return fmt.Sprintf("the chunk function of %s is not a function literal: the row it makes must be visible", soacPos(f, s.m))
	}
	chunkFn, room, err := s.unit.Chunk(lit, f.Info())
	if err != nil {
		var r *clc.Refusal
		if errors.As(err, &r) {
			return fmt.Sprintf("the chunk function of %s is not translated to OpenCL C: %s at %s:%d:%d: %s", soacPos(f, s.m), r.Construct, filepath.Base(r.Pos.Filename), r.Pos.Line, r.Pos.Column, r.Reason)
		}
		return fmt.Sprintf("the chunk function of %s is not translated to OpenCL C: %v", soacPos(f, s.m), err)
	}
	for _, c := range chunkFn.Captures {
		if why := s.capture(s.m, c); why != "" {
			return why
		}
	}
	s.room = room
	row := chunkFn.Result
	if len(opFn.Params) != 2 || opFn.Result == nil || opFn.Result.C != row.C || opFn.Params[0].Type.C != row.C || opFn.Params[1].Type.C != row.C {
		return fmt.Sprintf("the operator of %s does not combine two rows into a row", soacPos(f, s.m))
	}
	s.rowGo = elemOf(s.m.Out.Type)
	s.rowSkel = clParam{c: "row__0", skel: skelScalar(s.rowGo), goElem: s.rowGo}
	if s.rowSkel.skel == "" {
		if s.structInput(s.rowGo) == nil {
			return fmt.Sprintf("%s makes rows of %s: the stream skeleton's rows hold numbers and structs of numbers", soacPos(f, s.m), s.rowGo)
		}
		s.rowSkel.fields = s.fieldTypes(s.rowGo)
	}
	if fp, _ := s.unit.NeedsFP64(); fp {
		s.fp64 = true
	}
	s.fp64 = s.fp64 || row.Elem.UsesFP64()
	for _, p := range s.ins {
		s.fp64 = s.fp64 || p.skel == "Float64" || strings.Contains(strings.Join(p.fields, ","), "Float64")
	}
	view := chunkFn.Params[0].Type // the chunk's view type
	out := clc.OutView(row.Elem)
	rowPtr := fmt.Sprintf("%s__mk((__global %s *)soac_row, soac_room)", out, row.Elem.C)
	chunkView, why := s.chunkView(view)
	if why != "" {
		return why
	}
	fmt.Fprintf(&s.chunk, "if (k__e == 0) {\nconst %s soac__r = %s;\n", out, chunkFn.Call([]string{chunkView}, rowPtr, "&k__e"))
	fmt.Fprintf(&s.chunk, "if (k__e == 0 && soac__r.n != soac_room) k__e = %d;\n}\nsoac_err = k__e;\n", rowOverflow)
	rowView := func(p string) string {
		return fmt.Sprintf("%s__mk((__global const %s *)%s, soac_room)", opFn.Params[0].Type.C, row.Elem.C, p)
	}
	s.combine = fmt.Sprintf("int k__e = 0;\nconst %s soac__r = %s;\nif (k__e == 0 && soac__r.n != soac_room) k__e = %d;\nsoac_err = k__e;",
		out, opFn.Call([]string{rowView("soac_a"), rowView("soac_b")}, fmt.Sprintf("%s__mk((__global %s *)soac_out, soac_room)", out, row.Elem.C), "&k__e"), rowOverflow)
	s.bins, s.binsWhy = s.binsFields()
	return ""
}

// unwrittenInputs reports whether an input of the stream is uploaded
// once per call (clKernel.unwritten).
func (s *clStream) unwrittenInputs() bool {
	for _, p := range s.ins {
		if s.unwritten(p.v) {
			return true
		}
	}
	return false
}

// chunkView starts the chunk code (its panic flag, and the fused maps
// computing the chunk's elements into the scratch buffer) and returns
// the C view of the chunk, of view type view, or why it cannot.
func (s *clStream) chunkView(view *clc.Type) (string, string) {
	f := s.f
	s.chunk.WriteString("int k__e = 0;\n")
	if s.isInput(s.st.Input) {
		if s.body.Len() > 0 {
			return "", fmt.Sprintf("%s reads an input of its kernel beside fused maps: not rendered", soacPos(f, s.m))
		}
		return fmt.Sprintf("%s__mk((__global const %s *)(in_%s + soac_lo), soac_hi - soac_lo)", view.C, view.Elem.C, s.ins[s.inIndex(s.st.Input)].c), ""
	}
	c, ok := s.cname[s.st.Input]
	if !ok {
		return "", fmt.Sprintf("%s: its input %s is not computed in its kernel", soacPos(f, s.m), s.st.Input.Name)
	}
	e := elemOf(s.st.Input.Type)
	p := clParam{c: "s__0", skel: skelScalar(e), goElem: e}
	cast := ""
	if p.skel == "" {
		if s.structInput(e) == nil {
			return "", fmt.Sprintf("%s reads %s: the stream skeleton's scratch holds numbers and structs of numbers", soacPos(f, s.m), s.st.Input.Type)
		}
		p.fields = s.fieldTypes(e)
		cast = "*(const s__0__t *)&"
	}
	s.scratch = &p
	s.chunk.WriteString("for (long soac_index = soac_lo; soac_index < soac_hi && k__e == 0; soac_index++) {\n")
	for _, in := range s.ins {
		fmt.Fprintf(&s.chunk, "const %s %s = in_%s[soac_index];\n", skelTypeName(in), in.c, in.c)
	}
	s.chunk.WriteString(s.body.String())
	fmt.Fprintf(&s.chunk, "scratch_s__0[soac_index] = %s%s;\n}\n", cast, c)
	return fmt.Sprintf("%s__mk((__global const %s *)(scratch_s__0 + soac_lo), soac_hi - soac_lo)", view.C, view.Elem.C), ""
}

// scalar ends translate for a chunk function that returns a number or a
// struct of numbers, not a row: each chunk's result is a row of one
// element, which the operator opFn combines.
func (s *clStream) scalar(opFn *clc.Func) string {
	f := s.f
	chunkFn, why := s.lambda(s.m, s.st.Chunk)
	if why != "" {
		return strings.Replace(why, "the lambda of", "the chunk function of", 1)
	}
	a := chunkFn.Result
	if len(chunkFn.Params) != 1 || chunkFn.Params[0].Type.Kind != clc.Slice || a == nil || a.IsView() {
		return fmt.Sprintf("the chunk function of %s does not take a chunk and return a number or struct", soacPos(f, s.m))
	}
	if len(opFn.Params) != 2 || opFn.Result == nil || opFn.Result.C != a.C || opFn.Params[0].Type.C != a.C || opFn.Params[1].Type.C != a.C {
		return fmt.Sprintf("the operator of %s does not combine two chunk results into one", soacPos(f, s.m))
	}
	s.scalarRow = true
	s.rowGo = s.m.Out.Type
	s.rowSkel = clParam{c: "row__0", skel: skelScalar(s.rowGo), goElem: s.rowGo}
	if s.rowSkel.skel == "" {
		if s.structInput(s.rowGo) == nil {
			return fmt.Sprintf("%s reduces %s: the stream skeleton's rows hold numbers and structs of numbers", soacPos(f, s.m), s.rowGo)
		}
		s.rowSkel.fields = s.fieldTypes(s.rowGo)
	}
	if fp, _ := s.unit.NeedsFP64(); fp {
		s.fp64 = true
	}
	s.fp64 = s.fp64 || a.UsesFP64()
	for _, p := range s.ins {
		s.fp64 = s.fp64 || p.skel == "Float64" || strings.Contains(strings.Join(p.fields, ","), "Float64")
	}
	chunkView, why := s.chunkView(chunkFn.Params[0].Type)
	if why != "" {
		return why
	}
	// Each row is one element (soac_room is 1), read and written as the
	// translated type, which has the skeleton type's layout.
	elem := func(p string) string { return fmt.Sprintf("((__global %s *)%s)[0]", a.C, p) }
	fmt.Fprintf(&s.chunk, "if (k__e == 0) {\n%s = %s;\n}\nsoac_err = k__e;\n", elem("soac_row"), chunkFn.Call([]string{chunkView}, "", "&k__e"))
	s.combine = fmt.Sprintf("int k__e = 0;\n%s = %s;\nsoac_err = k__e;", elem("soac_out"),
		opFn.Call([]string{"((__global const " + a.C + " *)soac_a)[0]", "((__global const " + a.C + " *)soac_b)[0]"}, "", "&k__e"))
	return ""
}

// isInput reports whether v is an input of the kernel.
func (s *clStream) isInput(v *ir.Var) bool { return s.inIndex(v) >= 0 }

// inIndex returns the index of v among the kernel's inputs, or -1.
func (s *clStream) inIndex(v *ir.Var) int {
	for i, p := range s.ins {
		if p.v == v {
			return i
		}
	}
	return -1
}

// skelTypeName returns the C name of an input's skeleton element type.
func skelTypeName(p clParam) string {
	if p.skel == "" {
		return p.c + "__t"
	}
	return skelCNames[p.skel]
}

// skelCNames are the C names of skel's scalar types.
var skelCNames = map[string]string{
	"Float32": "float", "Float64": "double", "Int32": "int", "Int64": "long", "Uint32": "uint", "Uint64": "ulong",
	"Int8": "char", "Uint8": "uchar", "Int16": "short", "Uint16": "ushort", "Bool": "uchar",
}

// roomExpr returns the Go code of the row's length expression e (which
// clc.Unit.Chunk has checked), as an int.
func (s *clStream) roomExpr(e ast.Expr) *jen.Statement {
	f := s.f
	info := f.Info()
	var walk func(e ast.Expr) *jen.Statement
	walk = func(e ast.Expr) *jen.Statement {
		if tv := info.Types[e]; tv.Value != nil {
			x, _ := constant.Int64Val(constant.ToInt(tv.Value))
			return jen.Lit(int(x))
		}
		switch e := e.(type) {
		case *ast.ParenExpr:
			return jen.Parens(walk(e.X))
		case *ast.Ident:
			return f.ObjName(info.Uses[e])
		case *ast.BinaryExpr:
			return jen.Add(walk(e.X)).Op(e.Op.String()).Add(walk(e.Y))
		case *ast.CallExpr:
			// The length of a captured slice an earlier kernel left on
			// the device is the handle's (its Go variable is unset).
			if id, ok := ast.Unparen(e.Args[0]).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					if d := capturedDev(f, s.lk.Src, v); d != nil {
						name := "Len"
						if e := elemOf(v.Type()); e != nil && elemOf(e) != nil {
							name = "NumRows"
						}
						return f.Qual(launchPath, "launch", name).Call(jen.Id(d.Handle), f.ObjName(v))
					}
				}
			}
			return jen.Len(walk(e.Args[0]))
		}
		panic("internal error: a row length clc did not check")
	}
	n := walk(e)
	if b, ok := info.TypeOf(e).Underlying().(*types.Basic); !ok || b.Kind() != types.Int && b.Kind() != types.UntypedInt {
		n = jen.Int().Call(n)
	}
	return n
}

// emit returns the Go code that runs the stream reduction, with the next
// backend's code as its fallback, and declares its launch value.
func (s *clStream) emit(outs map[*ir.Var]string) hostgo.Stmts {
	f, k := s.f, s.lk.Src
	fb, fbName := s.next()
	kv := f.PackageVar("soacgenCL" + f.Spec().Fuse.Name)
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	launch := s.streamLaunch(k, kv, "StreamRed", field("Row", s.skelType(s.rowSkel)), field("Combine", goString(s.combine)))
	auto := f.auto
	if auto {
		launch = append(launch, s.autoFields(s.bytes(), s.streamOps(), fbName == backend.Parallel, 1)...)
	}
	var notes []string
	if s.bins != nil {
		launch = append(launch, s.bins)
	} else if s.binsWhy != "" {
		notes = append(notes, "The bins skeleton does not run it: "+s.binsWhy+".")
	}
	s.declareLaunch(kv, "StreamRed", launch, notes...)

	ok, room, clo, r := f.Fresh("ok"), f.Fresh("room"), f.Fresh("clo"), f.Fresh("r")
	// Inputs an earlier kernel left on the device (residency.go)
	// are read there, and downloaded for the fallback; inputs and
	// captured slices no statement writes are uploaded once per call
	// (unwritten.go).
	devIn := deviceInputs(f, s.ins)
	// So are captured slices left there (captured.go).
	host, release := fallbackHost(f, k, s.ins, devIn)
	fb = append(host, fb...)
	// The row stays on the device when only later kernels read it
	// (residency.go): the handle is declared here.
	var c hostgo.Stmts
	keep := s.keepRow(outs, &c)
	session := s.streamSession(devIn, keep)
	args := s.argValues(session, nil)
	var call *jen.Statement
	if session != "" {
		out := launchQ("Download").Call(hostgo.Id(clo))
		if keep != "" {
			out = launchQ("Keep").Call(jen.Op("&").Id(keep))
		}
		call = jen.Id(kv).Dot("RunOn").Call(jen.Op("&").Id(session), args, s.inputs(session, devIn), hostgo.Id(room), out)
	} else {
		call = jen.Id(kv).Dot("Run").Call(args, s.inputs("", nil), f.Qual(skelPath, "skel", "Slice").Call(hostgo.Id(clo)))
	}
	rows, roomCode, result := f.Type(s.m.Out.Type), jen.Null(), hostgo.Id(clo)
	if s.scalarRow {
		rows, roomCode, result = jen.Index().Add(f.Type(s.m.Out.Type)), jen.Lit(1), jen.Id(clo).Index(jen.Lit(0))
	} else {
		roomCode = s.roomExpr(s.room)
	}
	runRow := hostgo.Stmts{
		hostgo.Define(clo, hostgo.MakeSlice(rows, hostgo.Id(room))),
		jen.If(hostgo.AssignTo(ok, call), hostgo.Id(ok)).
			Add(hostgo.Block(hostgo.Stmts{hostgo.AssignTo(r, result)})),
	}
	if keep != "" {
		// Kept: r stays nil, as the Go variable does while the device
		// holds the row.
		runRow = hostgo.Stmts{hostgo.AssignTo(ok, call)}
	}
	run := jen.If(hostgo.Define(room, roomCode), jen.Id(room).Op(">").Lit(0)).Add(hostgo.Block(runRow))
	cond := jen.Id(kv).Dot("Kernel").Call().Op("!=").Nil()
	if auto {
		// Inputs and captured slices an earlier kernel left on the
		// device: it ran there, so this one does too.
		on := inputsOnDevice(s.ins, devIn)
		on = append(on, capturedOnDevice(f, k, func(v *ir.Var) bool { return devIn[v] != nil })...)
		cond = autoGuard(kv, inputLen(f, s.ins[0].v, devIn), on, cond)
	}
	c.Add(
		hostgo.VarDecl(r, f.Type(s.m.Out.Type), nil),
		hostgo.Define(ok, jen.False()),
		jen.If(cond).Add(hostgo.Block(hostgo.Stmts{run})),
	)
	if s.lk.Form == lowered.Call {
		// The fallback assigns the stream's result in its block (a new
		// variable there when the spec has none): r carries it out.
		fb = append(fb, hostgo.AssignTo(r, hostgo.Id(f.Name(s.m.Out))))
		c = append(c, jen.If(jen.Op("!").Id(ok)).Add(hostgo.Block(fb)))
		f.Assign(&c, s.m.Out, hostgo.Id(r))
		return append(c, release...)
	}
	c = append(c, jen.If(hostgo.Id(ok)).Add(hostgo.Block(hostgo.Stmts{hostgo.AssignTo(outs[s.m.Out], hostgo.Id(r))})).Else().Add(hostgo.Block(fb)))
	return append(c, release...)
}

// keepRow returns the handle of the stream's row when it stays on the
// device (a launch.Array declared in c, registered with the Func), or
// "": a row, not a number or struct, that is used, and that only later
// kernels read (keepable).
func (s *clStream) keepRow(outs map[*ir.Var]string, c *hostgo.Stmts) string {
	f, v := s.f, s.m.Out
	name := outs[v]
	if s.lk.Form == lowered.Call {
		name = f.Name(v)
	}
	if s.scalarRow || name == "" || name == "_" {
		return ""
	}
	last := s.keepable(v)
	if last == nil {
		return ""
	}
	return s.declareKept(c, v, f.Qual(launchPath, "launch", "Array").Types(f.Type(s.rowGo)), last)
}

// streamLaunch returns the fields of the launch value kv of the
// stream's skeleton, of form StreamRed or StreamMap, for kernel k: shape
// is the field of its row's or output's element type, tail the fields
// after its chunk function.
func (s *clStream) streamLaunch(k *lowered.PlanKernel, kv, form string, shape jen.Code, tail ...jen.Code) []jen.Code {
	spec := []jen.Code{field("Name", jen.Lit(strings.TrimPrefix(kv, "soacgen"))), field("Inputs", s.paramList(s.ins))}
	if s.scratch != nil {
		spec = append(spec, field("Scratch", s.paramList([]clParam{*s.scratch})))
	}
	spec = s.argDecls(append(spec, shape))
	spec = append(spec, field("Chunk", goString(s.chunk.String())))
	return s.launchFields(k, form, s.preamble(append(spec, tail...)))
}

// streamSession returns the call's launch.Session when the stream runs
// on it (RunOn): it reads inputs on the device (devIn), keeps its result
// there (keep, a handle, or ""), or uploads inputs or captured slices
// once per call (unwritten.go); else "".
func (s *clStream) streamSession(devIn map[*ir.Var]*deviceArray, keep string) string {
	if len(devIn) > 0 || keep != "" || s.unwrittenInputs() || s.unwrittenCaptures() {
		return s.newSession()
	}
	return ""
}

// inputs returns the stream's inputs as its skeleton's run takes them:
// with a session, the []launch.Input of RunOn (on the device, uploaded
// once per call, or uploaded for the run); without ("" ), the
// []skel.HostSlice of Run.
func (s *clStream) inputs(session string, devIn map[*ir.Var]*deviceArray) jen.Code {
	f := s.f
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	var ins []jen.Code
	if session == "" {
		for _, p := range s.ins {
			ins = append(ins, f.Qual(skelPath, "skel", "Slice").Call(hostgo.Id(f.Name(p.v))))
		}
		return jen.Index().Add(f.Qual(skelPath, "skel", "HostSlice")).Values(ins...)
	}
	for _, p := range s.ins {
		switch d := devIn[p.v]; {
		case d != nil:
			ins = append(ins, launchQ("Dev").Call(jen.Id(d.Handle), hostgo.Id(f.Name(p.v))))
		case s.unwritten(p.v):
			ins = append(ins, launchQ("Unwritten").Call(jen.Op("&").Id(session), hostgo.Id(f.Name(p.v))))
		default:
			ins = append(ins, launchQ("Host").Call(hostgo.Id(f.Name(p.v))))
		}
	}
	return jen.Index().Add(launchQ("Input")).Values(ins...)
}

// translateInputs fills the stream's inputs (the Call form's stream
// input, else the kernel's), or returns why the stream does not
// translate: its result is unused, filters are fused into its chunks, or
// an input's elements are not numbers or structs of numbers.
func (s *clStream) translateInputs() string {
	f, lk := s.f, s.lk
	if lk.Form == lowered.Call {
		var scratch hostgo.Stmts
		if f.DeclareOutputs(&scratch, lk.Src)[s.m.Out] == "_" {
			return fmt.Sprintf("%s: its result is not used", soacPos(f, s.m))
		}
	}
	if len(lk.Spaces) > 1 {
		return fmt.Sprintf("%s: filters fused into a stream's chunks are not rendered", soacPos(f, s.m))
	}
	ins := lk.Src.Inputs
	if lk.Form == lowered.Call {
		ins = []*ir.Var{s.st.Input}
	}
	for i, v := range ins {
		e := elemOf(v.Type)
		p := clParam{c: fmt.Sprintf("in__%d", i), v: v, goElem: e}
		if e != nil {
			p.skel = skelScalar(e)
		}
		s.cname[v] = p.c
		if p.skel == "" {
			ct := s.structInput(e)
			if ct == nil {
				return fmt.Sprintf("input %s has type %s: the stream skeleton takes slices of bool, sized integers, int, uint, float32 and float64, and of structs of those", v.Name, v.Type)
			}
			p.fields = s.fieldTypes(e)
			s.cname[v] = fmt.Sprintf("(*(const %s *)&%s)", ct.C, p.c)
		}
		s.ins = append(s.ins, p)
	}
	return ""
}

// translateMaps translates the maps fused into the stream's chunks, each
// element in turn, or returns why it does not: one is not a map of the
// kernel's space, or its output is materialised beside the stream (only
// says what the skeleton writes instead).
func (s *clStream) translateMaps(outs map[*ir.Var]string, only string) string {
	f := s.f
	for _, mem := range s.lk.Members[:len(s.lk.Members)-1] {
		if mem.Role != lowered.Map || mem.Space != lowered.Root {
			return fmt.Sprintf("%s: a %s fused into a stream's chunks is not rendered", soacPos(f, mem.SOAC), mem.Role)
		}
		if stored(mem, outs) {
			return fmt.Sprintf("%s: its output is materialised beside the stream: %s", soacPos(f, mem.SOAC), only)
		}
		if why := s.mapMember(mem, outs); why != "" {
			return why
		}
	}
	return ""
}
