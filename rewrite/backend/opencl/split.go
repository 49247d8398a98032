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
	ckA, last := stages[0], stages[len(stages)-1]
	f, k := ckA.f, ckA.lk.Src
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	skelQ := func(name string) *jen.Statement { return f.Qual(skelPath, "skel", name) }
	fb, fbName := ckA.next()
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
			// backend=auto decides for all the launches at the first,
			// priced together (splitCost).
			bytes, ops := splitCost(stages, outs, func(v *ir.Var) bool { return f.deviceArrayOf(v) != nil })
			ck.declareLaunch(kvs[i], ck.form(), append(ck.redomapLaunch(kvs[i], ck.form()), ck.autoFields(bytes, ops, fbName == backend.Parallel, len(stages))...))
			continue
		}
		ck.declare(kvs[i])
	}
	session := ckA.newSession()
	var c hostgo.Stmts
	// The kernel's inputs: on the device already (an earlier kernel's),
	// or uploaded by the first launch that reads them and read there by
	// the later ones. Each scan but the last stage's is kept there.
	devIn := map[*ir.Var]*deviceArray{}
	share := map[*ir.Var]string{}
	for _, p := range ckA.ins {
		if d := f.deviceArrayOf(p.v); d != nil {
			devIn[p.v] = d
			continue
		}
		h := f.Fresh("dev")
		share[p.v] = h
		c.Add(hostgo.VarDecl(h, jen.Op("*").Add(launchQ("Array").Types(f.Type(p.goElem))), nil))
	}
	scans := map[*ir.Var]string{} // the handle of each kept scan
	var handles []string
	for _, ck := range stages[:len(stages)-1] {
		h := f.Fresh("dev")
		scans[ck.reds[0].v] = h
		handles = append(handles, h)
		c.Add(hostgo.VarDecl(h, jen.Op("*").Add(launchQ("Array").Types(f.Type(ck.reds[0].goElem))), nil))
	}
	input := func(p clParam) jen.Code {
		if h := scans[p.v]; h != "" {
			return launchQ("Dev").Call(jen.Id(h), jen.Nil())
		}
		if d := devIn[p.v]; d != nil {
			return launchQ("Dev").Call(jen.Id(d.Handle), hostgo.Id(f.Name(p.v)))
		}
		return launchQ("Share").Call(jen.Op("&").Id(share[p.v]), hostgo.Id(f.Name(p.v)))
	}
	inputs := func(ps []clParam) jen.Code {
		var l []jen.Code
		for _, p := range ps {
			l = append(l, input(p))
		}
		return jen.Index().Add(launchQ("Input")).Values(l...)
	}
	var n *jen.Statement
	if d := devIn[ckA.ins[0].v]; d != nil {
		n = launchQ("Len").Call(jen.Id(d.Handle), hostgo.Id(f.Name(ckA.ins[0].v)))
	} else {
		n = jen.Len(hostgo.Id(f.Name(ckA.ins[0].v)))
	}
	ok := f.Fresh("ok")
	c.Add(hostgo.Define(ok, jen.False()))
	// The last launch, after the scans'.
	var run hostgo.Stmts
	local := map[*ir.Var]string{}
	var os []jen.Code
	outParams := last.outs
	if last.scan {
		outParams = []clParam{last.reds[0].clParam}
	}
	for _, p := range outParams {
		local[p.v] = f.Fresh("clo")
		run.Add(hostgo.Define(local[p.v], downloadDest(f, elemOf(p.v.Type), n.Clone())))
		os = append(os, launchQ("Download").Call(hostgo.Id(local[p.v])))
	}
	var results []jen.Code
	if !last.scan {
		for _, r := range last.reds {
			local[r.v] = f.Fresh("clr")
			run.Add(hostgo.VarDecl(local[r.v], jen.Index(hostgo.Lit(1)).Add(f.Type(r.goElem)), nil))
			results = append(results, skelQ("Slice").Call(jen.Id(local[r.v]).Index(jen.Empty(), jen.Empty())))
		}
	}
	outputs := jen.Code(jen.Nil())
	if len(os) > 0 {
		outputs = jen.Index().Add(launchQ("Output")).Values(os...)
	}
	res := jen.Code(jen.Nil())
	if len(results) > 0 {
		res = jen.Index().Add(skelQ("HostSlice")).Values(results...)
	}
	lhs := hostgo.Id(ok)
	nkept := ""
	if last.compact != lowered.Root {
		lhs = jen.List(jen.Id("_"), hostgo.Id(ok))
		if len(last.outs) > 0 {
			nkept = f.Fresh("kept")
			run.Add(hostgo.VarDecl(nkept, jen.Int(), nil))
			lhs = jen.List(hostgo.Id(nkept), hostgo.Id(ok))
		}
	}
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
	for _, ck := range stages[:len(stages)-1] {
		if name := outs[ck.reds[0].v]; name != "" && name != "_" {
			done.Add(hostgo.AssignTo(name, jen.Id(scans[ck.reds[0].v]).Dot("Host").Call()))
		}
	}
	var call *jen.Statement
	if last.scan {
		call = jen.Id(kvs[len(stages)-1]).Dot("RunOn").Call(jen.Op("&").Id(session), last.argValues(session, nil), inputs(last.ins), os[0])
	} else {
		call = jen.Id(kvs[len(stages)-1]).Dot("RunOn").Call(jen.Op("&").Id(session), last.argValues(session, nil), inputs(last.ins), outputs, res)
	}
	run.Add(jen.If(jen.Add(lhs).Op("=").Add(call), hostgo.Id(ok)).Add(hostgo.Block(done)))
	// The scans, innermost last.
	for i := len(stages) - 2; i >= 0; i-- {
		ck := stages[i]
		callScan := jen.Id(kvs[i]).Dot("RunOn").Call(jen.Op("&").Id(session), ck.argValues(session, nil), inputs(ck.ins), launchQ("Keep").Call(jen.Op("&").Id(scans[ck.reds[0].v])))
		run = hostgo.Stmts{jen.If(callScan).Add(hostgo.Block(run))}
	}
	cond := jen.Id(kvs[0]).Dot("Kernel").Call().Op("!=").Nil()
	for _, kv := range kvs[1:] {
		cond = cond.Op("&&").Id(kv).Dot("Kernel").Call().Op("!=").Nil()
	}
	cond = withGeneratedLengths(f, ckA.lk, n, cond)
	if f.auto {
		// As emit: an input an earlier kernel left on the device runs
		// this one there too; else the model decides.
		use := jen.Id(kvs[0]).Dot("Use").Call(n.Clone())
		var on []jen.Code
		for _, p := range ckA.ins {
			if d := devIn[p.v]; d != nil {
				on = append(on, jen.Id(d.Handle).Op("!=").Nil())
			}
		}
		if len(on) > 0 {
			either := jen.Add(on[0])
			for _, x := range on[1:] {
				either = either.Op("||").Add(x)
			}
			use = jen.Parens(either.Op("||").Add(use))
		}
		cond = jen.Add(use).Op("&&").Add(cond)
	}
	c.Add(jen.If(cond).Add(hostgo.Block(run)))
	// The device copies are released before the fallback runs.
	for _, h := range handles {
		c.Add(jen.Id(h).Dot("Release").Call())
	}
	for _, p := range ckA.ins {
		if h := share[p.v]; h != "" {
			c.Add(jen.Id(h).Dot("Release").Call())
		}
	}
	host, release := fallbackHost(f, k, ckA.ins, devIn)
	c.Add(jen.If(jen.Op("!").Id(ok)).Add(hostgo.Block(append(host, fb...))))
	return append(c, release...)
}
