package opencl

// This file writes the run of a map-reduce, scan or filter kernel's
// skeleton inside the code emit.go writes at the kernel's position ("if
// the kernel was built"): the buffers its results are downloaded into,
// its arguments and inputs, the launch (Run, RunN or RunOn), and the
// assignments of its results.

import (
	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// kernelRun is the code emit writes inside "if the kernel was built":
// the run of a map-reduce, scan or filter skeleton, and the assignments
// of its results.
type kernelRun struct {
	ck      *clKernel
	kv      string         // the launch value
	pl      *placement     // where the kernel's arrays are
	session string         // the call's launch.Session, or "" when the run is off it
	n       *jen.Statement // the kernel's length
	ok      string         // whether the run succeeded
	run     hostgo.Stmts
	// local is the Go buffer of each output downloaded and fold result;
	// spans, data, room and flat are rowsHost's.
	local                   map[*ir.Var]string
	spans, data, room, flat map[*ir.Var]string
	args                    []jen.Code // the values of the kernel's arguments
	devIns                  []jen.Code // the inputs of RunOn
}

// buffers adds to the run the host side of the kernel's rows (rowsHost)
// and the buffers its outputs not kept on the device are downloaded
// into.
func (r *kernelRun) buffers() {
	ck, f := r.ck, r.ck.f
	r.spans, r.data, r.room, r.flat = ck.rowsHost(&r.run, r.local, r.n)
	for _, p := range ck.outs {
		if p.rows != nil || r.pl.keep[p.v] != "" {
			continue
		}
		r.local[p.v] = f.Fresh("clo")
		r.run.Add(hostgo.Define(r.local[p.v], downloadDest(f, elemOf(p.v.Type), r.n)))
	}
}

// hostInput returns the Go slice a run uploads for input p: a [][]T
// input's spans (rowsHost), else its Go variable.
func (r *kernelRun) hostInput(p clParam) *jen.Statement {
	if p.rows != nil {
		return hostgo.Id(r.spans[p.v])
	}
	return hostgo.Id(r.ck.f.Name(p.v))
}

// kernelArgs returns the values of the kernel's arguments, in the order
// of the Args its launch value declares (argDecls): every skeleton takes
// them first.
func (r *kernelRun) kernelArgs() []jen.Code {
	launchQ := func(name string) *jen.Statement { return r.ck.f.Qual(launchPath, "launch", name) }
	return []jen.Code{r.ck.argValues(r.session, func(a clArg) jen.Code {
		switch {
		case a.rowsIn != nil:
			return launchQ("View").Call(hostgo.Id(r.data[a.rowsIn]))
		case a.rowsOut != nil:
			return launchQ("Out").Call(hostgo.Id(r.flat[a.rowsOut]))
		}
		return launchQ("Arg").Call(jen.Int64().Call(hostgo.Id(r.room[a.rowCap])))
	})}
}

// runOnInputs returns the inputs of RunOn: on the device, shared,
// uploaded once per call, or uploaded for the run.
func (r *kernelRun) runOnInputs() []jen.Code {
	f, pl := r.ck.f, r.pl
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	var devIns []jen.Code
	for _, p := range r.ck.ins {
		switch d := pl.devIn[p.v]; {
		case d != nil:
			devIns = append(devIns, launchQ("Dev").Call(jen.Id(d.Handle), hostgo.Id(f.Name(p.v))))
		case pl.share[p.v] != "":
			devIns = append(devIns, launchQ("Share").Call(jen.Op("&").Id(pl.share[p.v]), hostgo.Id(f.Name(p.v))))
		case pl.unw[p.v]:
			devIns = append(devIns, launchQ("Unwritten").Call(jen.Op("&").Id(r.session), hostgo.Id(f.Name(p.v))))
		default:
			devIns = append(devIns, launchQ("Host").Call(r.hostInput(p)))
		}
	}
	return devIns
}

// scan adds to the run the launch of a scan kernel (skel.Scan) and the
// assignment of the scan's output, unless it stays on the device.
func (r *kernelRun) scan(outs map[*ir.Var]string) {
	f, red := r.ck.f, r.ck.reds[0]
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	var call *jen.Statement
	var done hostgo.Stmts
	if r.session != "" {
		out := launchQ("Keep").Call(jen.Op("&").Id(r.pl.keep[red.v]))
		if r.pl.keep[red.v] == "" {
			l := f.Fresh("clo")
			r.run.Add(hostgo.Define(l, downloadDest(f, elemOf(red.v.Type), r.n)))
			out = launchQ("Download").Call(hostgo.Id(l))
			done.Add(hostgo.AssignTo(outs[red.v], hostgo.Id(l)))
		}
		call = jen.Id(r.kv).Dot("RunOn").Call(append([]jen.Code{jen.Op("&").Id(r.session)}, append(r.args, launchList(f, "Input", r.devIns), out)...)...)
	} else {
		l := f.Fresh("clo")
		r.run.Add(hostgo.Define(l, downloadDest(f, elemOf(red.v.Type), r.n)))
		ins := hostSlices(f, r.ck.ins, r.hostInput)
		call = jen.Id(r.kv).Dot("Run").Call(append(r.args, ins, f.Qual(skelPath, "skel", "Slice").Call(hostgo.Id(l)))...)
		done.Add(hostgo.AssignTo(outs[red.v], hostgo.Id(l)))
	}
	r.run.Add(jen.If(hostgo.AssignTo(r.ok, call), hostgo.Id(r.ok)).Add(hostgo.Block(done)))
}

// redomap adds to the run the launch of a map-reduce or filter kernel
// (skel.Redomap, skel.Filter) and the assignments of its results.
func (r *kernelRun) redomap(outs map[*ir.Var]string) {
	ck, f := r.ck, r.ck.f
	for _, red := range ck.reds {
		r.local[red.v] = f.Fresh("clr")
		r.run.Add(hostgo.VarDecl(r.local[red.v], jen.Index(hostgo.Lit(1)).Add(f.Type(red.goElem)), nil))
	}
	nkept := ""
	lhs := hostgo.Id(r.ok)
	if ck.compact != lowered.Root {
		// The number kept, unless every output stays on the device.
		lhs = jen.List(jen.Id("_"), hostgo.Id(r.ok))
		for _, p := range ck.outs {
			if r.pl.keep[p.v] == "" {
				nkept = f.Fresh("kept")
				r.run.Add(hostgo.VarDecl(nkept, jen.Int(), nil))
				lhs = jen.List(hostgo.Id(nkept), hostgo.Id(r.ok))
				break
			}
		}
	}
	runFn, args := r.redomapCall()
	done := r.assignResults(outs, nkept)
	r.run.Add(jen.If(jen.Add(lhs).Op("=").Add(runFn).Call(args...), hostgo.Id(r.ok)).Add(hostgo.Block(done)))
}

// redomapCall returns the method of the launch value that runs a
// map-reduce or filter kernel and its arguments: RunN over a generated
// space, RunOn on the session, else Run, which uploads its inputs and
// downloads its outputs.
func (r *kernelRun) redomapCall() (*jen.Statement, []jen.Code) {
	ck, f := r.ck, r.ck.f
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	args := r.args
	outputs := func(p clParam) *jen.Statement { return hostgo.Id(r.local[p.v]) }
	results := hostSlices(f, redParams(ck.reds), func(p clParam) *jen.Statement { return jen.Id(r.local[p.v]).Index(jen.Empty(), jen.Empty()) })
	switch {
	case ck.generated():
		return jen.Id(r.kv).Dot("RunN"), append([]jen.Code{r.n}, append(args, hostSlices(f, ck.outs, outputs), results)...)
	case r.session != "":
		args = append([]jen.Code{jen.Op("&").Id(r.session)}, args...)
		var os []jen.Code
		for _, p := range ck.outs {
			if h := r.pl.keep[p.v]; h != "" {
				os = append(os, launchQ("Keep").Call(jen.Op("&").Id(h)))
				continue
			}
			os = append(os, launchQ("Download").Call(hostgo.Id(r.local[p.v])))
		}
		return jen.Id(r.kv).Dot("RunOn"), append(args, launchList(f, "Input", r.devIns), launchList(f, "Output", os), results)
	}
	return jen.Id(r.kv).Dot("Run"), append(args, hostSlices(f, ck.ins, r.hostInput), hostSlices(f, ck.outs, outputs), results)
}

// assignResults returns the statements that assign, after a successful
// run, the outputs not kept on the device (a slice result's rows cut
// from its flat buffer, a filter's cut to nkept, the number kept) and
// the fold results.
func (r *kernelRun) assignResults(outs map[*ir.Var]string, nkept string) hostgo.Stmts {
	ck, f := r.ck, r.ck.f
	var done hostgo.Stmts
	for _, p := range ck.outs {
		if r.pl.keep[p.v] != "" {
			continue
		}
		if p.rows != nil {
			done.Add(hostgo.AssignTo(outs[p.v], f.Qual(launchPath, "launch", "Split").Call(hostgo.Id(r.flat[p.v]), hostgo.Id(r.local[p.v]), hostgo.Id(r.room[p.v]))))
			continue
		}
		if nkept != "" {
			// Cut to the kept count and capacity: the elements past it
			// were never written (downloadDest).
			done.Add(hostgo.AssignTo(outs[p.v], jen.Id(r.local[p.v]).Index(jen.Empty(), hostgo.Id(nkept), hostgo.Id(nkept))))
			continue
		}
		done.Add(hostgo.AssignTo(outs[p.v], hostgo.Id(r.local[p.v])))
	}
	for _, red := range ck.reds {
		if n := outs[red.v]; n != "" && n != "_" {
			v := jen.Id(r.local[red.v]).Index(hostgo.Lit(0))
			// The start, combined once (clRed.start).
			done.Add(hostgo.AssignTo(n, startCombined(f, red, v)))
		}
	}
	return done
}
