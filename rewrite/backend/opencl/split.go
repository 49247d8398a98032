package opencl

// This file renders a kernel whose scan is not its last member (or that
// stores a map's output beside its scan) as two launches in one
// Session: the scan skeleton writes the scan into a device buffer
// (launch.Keep), then a map-reduce or filter skeleton reads that buffer
// beside the kernel's inputs (each uploaded once: launch.Share) and
// computes every other member, the maps before the scan again. The
// scan skeleton has no panic flag, so the members the scan reads may not
// panic (as for a scan kernel alone); the members after it may (the
// second skeleton's flag). The next backend's code runs the whole
// kernel when either launch does not.

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// splitScan returns the index of the scan member of lk to split the
// kernel after, or -1 when lk is not split: its first scan is in the
// root space, every member before it is in the root space too (a map, a
// generator, or a fold, which a later launch computes), and a member
// follows it, or a map before it is stored, or a fold precedes it.
func splitScan(lk *lowered.Kernel, outs map[*ir.Var]string) int {
	at := slices.IndexFunc(lk.Members, func(m lowered.Member) bool { return m.Role == lowered.Scan })
	if at < 0 || lk.Members[at].Space != lowered.Root {
		return -1
	}
	for _, m := range lk.Members[:at] {
		if m.Space != lowered.Root || m.Role != lowered.Map && m.Role != lowered.Gen && m.Role != lowered.Fold {
			return -1
		}
	}
	if at < len(lk.Members)-1 {
		return at
	}
	for _, m := range lk.Members[:at] {
		if stored(m, outs) || m.Role == lowered.Fold {
			return at
		}
	}
	return -1
}

// renderSplit renders lk, split after its scan member at (splitScan),
// or says why it does not translate.
func renderSplit(f *spec, lk *lowered.Kernel, outs map[*ir.Var]string, next backend.Next, at int) (hostgo.Stmts, string) {
	stages, why := splitStages(f, lk, outs, next, at)
	if why != "" {
		return nil, why
	}
	return emitSplit(stages, outs), ""
}

// splitStages translates lk, split after its scan member at, into the
// kernels that run one after the other: the scan's, then the rest's,
// itself split after its next scan, if any, and so on; every kernel but
// the last is a scan whose output the later ones read on the device.
func splitStages(f *spec, lk *lowered.Kernel, outs map[*ir.Var]string, next backend.Next, at int) ([]*clKernel, string) {
	scan := lk.Members[at]
	newKernel := func(lk *lowered.Kernel) *clKernel {
		return &clKernel{f: f, next: next, lk: lk, unit: clc.NewUnit(f.Fset(), clc.PackageResolver(f.Files(), f.Info())),
			cname: map[*ir.Var]string{}, space: map[*ir.Var]int{}, keep: make([]string, len(lk.Spaces)), copies: true}
	}
	// The scan's launch: the maps and generators before it (unstored),
	// and the scan, stored.
	a := *lk
	a.Spaces = lk.Spaces[:1]
	a.Members = nil
	for _, m := range lk.Members[:at] {
		if m.Role != lowered.Fold {
			m.Store = lowered.NoStore
			a.Members = append(a.Members, m)
		}
	}
	scan.Store = lowered.Indexed
	a.Members = append(a.Members, scan)
	outsA := map[*ir.Var]string{scan.SOAC.Out: "soac_scan"}
	ckA := newKernel(&a)
	if why := ckA.translate(outsA); why != "" {
		return nil, why
	}
	// The rest: every other member, the scan's elements an input.
	src := *lk.Src
	src.Inputs = append(slices.Clone(lk.Src.Inputs), scan.SOAC.Out)
	b := *lk
	b.Src = &src
	b.Members = slices.Delete(slices.Clone(lk.Members), at, at+1)
	stages := []*clKernel{ckA}
	if at := splitScan(&b, outs); at >= 0 {
		rest, why := splitStages(f, &b, outs, next, at)
		if why != "" {
			return nil, why
		}
		stages = append(stages, rest...)
	} else {
		ckB := newKernel(&b)
		if why := ckB.translate(outs); why != "" {
			return nil, why
		}
		stages = append(stages, ckB)
	}
	for _, ck := range stages {
		for _, p := range append(slices.Clone(ck.ins), ck.outs...) {
			if p.rows != nil {
				return nil, fmt.Sprintf("%s is not the last member of its kernel, which reads or stores %s, a slice of rows: the scan and the members after it run as two launches over flat arrays only", soacPos(f, scan.SOAC), p.v.Name)
			}
		}
	}
	return stages, ""
}

// splitCost returns backend=auto's cost of one element of the launches of
// stages (splitStages): the bytes of the host arrays they read (each
// once: later launches share the first's uploads; onDevice says which
// an earlier kernel left on the device) and of what comes back (the last
// launch's outputs, the scans the spec reads), and the operations of all
// their members. The scans kept between the launches move nothing.
func splitCost(stages []*clKernel, outs map[*ir.Var]string, onDevice func(*ir.Var) bool) (bytes, ops int) {
	kept := map[*ir.Var]bool{}
	for _, ck := range stages[:len(stages)-1] {
		kept[ck.reds[0].v] = true
		if name := outs[ck.reds[0].v]; name != "" && name != "_" {
			bytes += sizeof(ck.reds[0].goElem)
		}
	}
	seen := map[*ir.Var]bool{}
	for _, ck := range stages {
		for _, p := range ck.ins {
			if !kept[p.v] && !seen[p.v] && !onDevice(p.v) {
				seen[p.v] = true
				bytes += sizeof(p.goElem)
			}
		}
		ops += ck.ops()
	}
	last := stages[len(stages)-1]
	if last.scan {
		bytes += sizeof(last.reds[0].goElem)
	}
	for _, p := range last.outs {
		bytes += sizeof(p.goElem)
	}
	return max(bytes, 1), ops
}

// declare adds the package-level launch value kv of ck's skeleton
// (clKernel.form), as emit does (without backend=auto's cost).
func (ck *clKernel) declare(kv string) {
	ck.declareLaunch(kv, ck.form(), ck.redomapLaunch(kv, ck.form()))
}

// emitSplit returns the code that runs the kernels of stages (scans, and
// the rest, reading the scans on the device) one after the other, with
// the next backend's code as the fallback of all.
func emitSplit(stages []*clKernel, outs map[*ir.Var]string) hostgo.Stmts {
	ckA := stages[0]
	f, k := ckA.f, ckA.lk.Src
	fb, fbName := ckA.next()
	s := &splitRun{f: f, stages: stages, kvs: declareSplit(stages, outs, fbName)}
	s.session = ckA.newSession()
	var c hostgo.Stmts
	s.placeInputs(&c)
	s.n = inputLen(f, ckA.ins[0].v, s.devIn)
	s.ok = f.Fresh("ok")
	c.Add(hostgo.Define(s.ok, jen.False()))
	// The last launch, after the scans'.
	run := s.scanLaunches(s.lastLaunch(outs))
	c.Add(jen.If(s.cond()).Add(hostgo.Block(run)))
	// The device copies are released before the fallback runs.
	for _, h := range s.handles {
		c.Add(jen.Id(h).Dot("Release").Call())
	}
	for _, p := range ckA.ins {
		if h := s.share[p.v]; h != "" {
			c.Add(jen.Id(h).Dot("Release").Call())
		}
	}
	fallback, release := fallbackCode(f, k, ckA.ins, s.devIn, s.ok, fb)
	return append(append(c, fallback), release...)
}

// declareSplit declares the launch values of stages and returns their
// names, in order. fbName is the fallback's backend: backend=auto
// decides for all the launches at the first, priced together
// (splitCost).
func declareSplit(stages []*clKernel, outs map[*ir.Var]string, fbName string) []string {
	f := stages[0].f
	kvs := make([]string, len(stages))
	for i, ck := range stages {
		name := "soacgenCL" + f.Spec().Fuse.Name
		if i > 0 {
			name += "Rest"
		}
		if i > 1 {
			name += fmt.Sprint(i)
		}
		kvs[i] = f.PackageVar(name)
		if i == 0 && f.auto {
			bytes, ops := splitCost(stages, outs, func(v *ir.Var) bool { return f.deviceArrayOf(v) != nil })
			ck.declareLaunch(kvs[i], ck.form(), append(ck.redomapLaunch(kvs[i], ck.form()), ck.autoFields(bytes, ops, fbName == backend.Parallel, len(stages))...))
			continue
		}
		ck.declare(kvs[i])
	}
	return kvs
}

// splitRun is the code emitSplit writes: the launches of the stages, in
// the call's session, over the kernel's inputs and the scans kept on
// the device between them.
type splitRun struct {
	f       *spec
	stages  []*clKernel
	kvs     []string // the launch value of each stage
	session string
	devIn   map[*ir.Var]*deviceArray // the inputs an earlier kernel left on the device
	share   map[*ir.Var]string       // the handle of each other input, uploaded once
	scans   map[*ir.Var]string       // the handle of each kept scan
	handles []string                 // the kept scans' handles, in order
	n       *jen.Statement           // the kernel's length
	ok      string                   // whether the last launch succeeded
}

// placeInputs declares in c the handles of the kernel's inputs and of
// its kept scans. An input is on the device already (an earlier
// kernel's), or uploaded by the first launch that reads it and read
// there by the later ones. Each scan but the last stage's is kept there.
func (s *splitRun) placeInputs(c *hostgo.Stmts) {
	f := s.f
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	s.devIn = deviceInputs(f, s.stages[0].ins)
	s.share = map[*ir.Var]string{}
	for _, p := range s.stages[0].ins {
		if s.devIn[p.v] != nil {
			continue
		}
		h := f.Fresh("dev")
		s.share[p.v] = h
		c.Add(hostgo.VarDecl(h, jen.Op("*").Add(launchQ("Array").Types(f.Type(p.goElem))), nil))
	}
	s.scans = map[*ir.Var]string{}
	for _, ck := range s.stages[:len(s.stages)-1] {
		h := f.Fresh("dev")
		s.scans[ck.reds[0].v] = h
		s.handles = append(s.handles, h)
		c.Add(hostgo.VarDecl(h, jen.Op("*").Add(launchQ("Array").Types(f.Type(ck.reds[0].goElem))), nil))
	}
}

// inputs returns the []launch.Input of a launch reading ps: a kept scan,
// an input on the device, or a shared one.
func (s *splitRun) inputs(ps []clParam) jen.Code {
	f := s.f
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	var l []jen.Code
	for _, p := range ps {
		switch {
		case s.scans[p.v] != "":
			l = append(l, launchQ("Dev").Call(jen.Id(s.scans[p.v]), jen.Nil()))
		case s.devIn[p.v] != nil:
			l = append(l, launchQ("Dev").Call(jen.Id(s.devIn[p.v].Handle), hostgo.Id(f.Name(p.v))))
		default:
			l = append(l, launchQ("Share").Call(jen.Op("&").Id(s.share[p.v]), hostgo.Id(f.Name(p.v))))
		}
	}
	return jen.Index().Add(launchQ("Input")).Values(l...)
}

// lastLaunch returns the run of the last stage's launch and, when it
// succeeds, the assignments of the results the spec reads.
func (s *splitRun) lastLaunch(outs map[*ir.Var]string) hostgo.Stmts {
	f, last := s.f, s.stages[len(s.stages)-1]
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	var run hostgo.Stmts
	local := map[*ir.Var]string{}
	var os []jen.Code
	outParams := last.outs
	if last.scan {
		outParams = []clParam{last.reds[0].clParam}
	}
	for _, p := range outParams {
		local[p.v] = f.Fresh("clo")
		run.Add(hostgo.Define(local[p.v], downloadDest(f, elemOf(p.v.Type), s.n.Clone())))
		os = append(os, launchQ("Download").Call(hostgo.Id(local[p.v])))
	}
	var reds []clParam
	if !last.scan {
		reds = redParams(last.reds)
		for _, r := range last.reds {
			local[r.v] = f.Fresh("clr")
			run.Add(hostgo.VarDecl(local[r.v], jen.Index(hostgo.Lit(1)).Add(f.Type(r.goElem)), nil))
		}
	}
	res := hostSlices(f, reds, func(p clParam) *jen.Statement { return jen.Id(local[p.v]).Index(jen.Empty(), jen.Empty()) })
	lhs := hostgo.Id(s.ok)
	nkept := ""
	if last.compact != lowered.Root {
		lhs = jen.List(jen.Id("_"), hostgo.Id(s.ok))
		if len(last.outs) > 0 {
			nkept = f.Fresh("kept")
			run.Add(hostgo.VarDecl(nkept, jen.Int(), nil))
			lhs = jen.List(hostgo.Id(nkept), hostgo.Id(s.ok))
		}
	}
	done := s.assignResults(outs, outParams, local, nkept)
	kv := s.kvs[len(s.stages)-1]
	var call *jen.Statement
	if last.scan {
		call = jen.Id(kv).Dot("RunOn").Call(jen.Op("&").Id(s.session), last.argValues(s.session, nil), s.inputs(last.ins), os[0])
	} else {
		call = jen.Id(kv).Dot("RunOn").Call(jen.Op("&").Id(s.session), last.argValues(s.session, nil), s.inputs(last.ins), launchList(f, "Output", os), res)
	}
	return append(run, jen.If(jen.Add(lhs).Op("=").Add(call), hostgo.Id(s.ok)).Add(hostgo.Block(done)))
}

// assignResults returns the statements that assign, after the last
// launch, the results the spec reads: the last stage's outputs
// (outParams, downloaded into local; a filter's cut to nkept, the
// number kept) and fold results, and the scans kept on the device,
// downloaded.
func (s *splitRun) assignResults(outs map[*ir.Var]string, outParams []clParam, local map[*ir.Var]string, nkept string) hostgo.Stmts {
	f, last := s.f, s.stages[len(s.stages)-1]
	var done hostgo.Stmts
	for _, p := range outParams {
		if name := outs[p.v]; name == "" || name == "_" {
			continue
		}
		if nkept != "" {
			// Cut to the kept count and capacity (downloadDest).
			done.Add(hostgo.AssignTo(outs[p.v], jen.Id(local[p.v]).Index(jen.Empty(), hostgo.Id(nkept), hostgo.Id(nkept))))
			continue
		}
		done.Add(hostgo.AssignTo(outs[p.v], hostgo.Id(local[p.v])))
	}
	if !last.scan {
		for _, r := range last.reds {
			if name := outs[r.v]; name != "" && name != "_" {
				v := jen.Id(local[r.v]).Index(hostgo.Lit(0))
				// The start, combined once (clRed.start).
				done.Add(hostgo.AssignTo(name, startCombined(f, r, v)))
			}
		}
	}
	for _, ck := range s.stages[:len(s.stages)-1] {
		if name := outs[ck.reds[0].v]; name != "" && name != "_" {
			done.Add(hostgo.AssignTo(name, jen.Id(s.scans[ck.reds[0].v]).Dot("Host").Call()))
		}
	}
	return done
}

// scanLaunches returns run inside the launches of the scans, innermost
// last: each keeps its scan on the device, and the next runs when it
// succeeded.
func (s *splitRun) scanLaunches(run hostgo.Stmts) hostgo.Stmts {
	for i := len(s.stages) - 2; i >= 0; i-- {
		ck := s.stages[i]
		keep := s.f.Qual(launchPath, "launch", "Keep").Call(jen.Op("&").Id(s.scans[ck.reds[0].v]))
		callScan := jen.Id(s.kvs[i]).Dot("RunOn").Call(jen.Op("&").Id(s.session), ck.argValues(s.session, nil), s.inputs(ck.ins), keep)
		run = hostgo.Stmts{jen.If(callScan).Add(hostgo.Block(run))}
	}
	return run
}

// cond returns the condition under which the launches run: the kernel of
// every launch value was built, every generated array of the kernel has
// its length, and, for backend=auto, the device is chosen. As emit: an
// input an earlier kernel left on the device runs this one there too;
// else the model decides.
func (s *splitRun) cond() *jen.Statement {
	ckA := s.stages[0]
	cond := jen.Id(s.kvs[0]).Dot("Kernel").Call().Op("!=").Nil()
	for _, kv := range s.kvs[1:] {
		cond = cond.Op("&&").Id(kv).Dot("Kernel").Call().Op("!=").Nil()
	}
	cond = withGeneratedLengths(s.f, ckA.lk, s.n, cond)
	if s.f.auto {
		cond = autoGuard(s.kvs[0], s.n.Clone(), inputsOnDevice(ckA.ins, s.devIn), cond)
	}
	return cond
}
