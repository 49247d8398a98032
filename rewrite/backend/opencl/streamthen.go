package opencl

// This file is the opencl backend's part for a StreamMap whose output
// the kernel's later members read (form lowered.ChunkedThen: examples/
// prefixsum's ChunkedSums, a stream of 3x+1 then a running sum). It runs
// in two device steps, in the spec's order, as the parallel backend's
// two-step form does (then.go's parThenTwo):
//
//  1. the stream's half (lk.StreamPart) on the stream-map skeleton
//     (streammap.go), its output left on the device (launch.Keep)
//     or, when the spec reads it too, downloaded;
//  2. the members' half (lk.ThenPart) as any loop kernel over that
//     output (a map-reduce, the single-pass scan or a filter: opencl.go),
//     reading it where it is (launch.Dev).
//
// The kernel's CPU code (the next backend's, for the whole kernel) runs
// when either step does not: no device, a failed build or launch, or a
// panic flag. The kernel is pure, and the stream's output does not
// depend on its chunks (docs/contract.md), so running the whole kernel again
// gives the spec's result, or its first panic: the stream's when its
// step flagged, else the members'. It refuses what either half refuses,
// with that half's reason.

import (
	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// renderStreamThen renders a ChunkedThen kernel in two device steps, or
// says why it does not.
func renderStreamThen(f *spec, lk *lowered.Kernel, outs map[*ir.Var]string, next backend.Next) (hostgo.Stmts, string) {
	if why := nestedIn(lk.Src.At); why != "" {
		return nil, why
	}
	head, then := lk.StreamPart(), lk.ThenPart()
	// The members' kernel leaves nothing on the device for later
	// kernels and shares no input with them (residency.go): its
	// code runs in a block of its own, where a handle it declared would
	// not reach them. Its Src is ThenPart's copy of the plan's kernel.
	then.Src.Block = nil
	sm := lk.Stream()
	newKernel := func(k *lowered.Kernel, next backend.Next) *clKernel {
		return &clKernel{f: f, next: next, lk: k, unit: clc.NewUnit(f.Fset(), clc.PackageResolver(f.Files(), f.Info())),
			cname: map[*ir.Var]string{}, space: map[*ir.Var]int{}, keep: make([]string, len(k.Spaces))}
	}
	s := &clStreamMap{clStream: &clStream{clKernel: newKernel(head, next), m: sm, st: sm.Op.(*ir.Stream)}}
	if why := s.translate(outs); why != "" {
		return nil, why
	}
	// The members' half reads the stream's output as ys: the device's
	// copy (handle dev), or, when the spec reads the output too, the
	// downloaded one.
	ys := f.Fresh("ys")
	stored := outs[sm.Out] != "" && outs[sm.Out] != "_"
	failed := f.Fresh("failed")
	var fbName string
	tk := newKernel(then, func() (hostgo.Stmts, string) {
		return hostgo.Stmts{hostgo.AssignTo(failed, jen.True())}, fbName
	})
	restore := f.BindName(sm.Out, ys)
	why := tk.translate(outs)
	restore()
	if why != "" {
		return nil, why
	}
	if len(tk.ins) == 0 {
		return nil, "the members after the stream read no array"
	}
	// The whole kernel's CPU code, rendered where the spec's names mean
	// what they say.
	fb, fbName := next()
	dev := ""
	if !stored {
		dev = f.Fresh("dev")
	}
	// backend=auto prices the two steps together: the stream's inputs
	// and the members' outputs move, the stream's output only when the
	// spec reads it; the members' kernel runs on the device when the
	// stream did (its input is there).
	s.costBytes = s.bytes() + tk.bytes() - sizeof(s.out.goElem)
	if tk.scan {
		s.costBytes += sizeof(tk.reds[0].goElem)
	}
	if stored {
		s.costBytes += sizeof(s.out.goElem)
	}
	s.costOps = s.streamOps() + tk.ops()
	c, r, okS, host, release := s.launchCode(lk.Src, fbName, dev)
	elem := f.Type(elemOf(sm.Out.Type))
	decl := hostgo.Stmts{hostgo.VarDecl(ys, f.Type(sm.Out.Type), nil)}
	if dev != "" {
		decl.Add(hostgo.VarDecl(dev, jen.Op("*").Add(f.Qual(launchPath, "launch", "Array")).Types(elem), nil))
		// The members' half is its last reader; its fallback downloads
		// nothing, since the whole kernel's CPU code computes the
		// stream's output again.
		f.setDeviceArray(sm.Out, &deviceArray{
			Handle:  dev,
			Release: hostgo.Stmts{jen.Id(dev).Dot("Release").Call()},
			Last:    then.Src,
		})
	}
	restore = f.BindName(sm.Out, ys)
	thenCode := tk.emit(outs)
	restore()
	if dev != "" {
		f.setDeviceArray(sm.Out, nil)
	}
	ran := hostgo.Stmts{hostgo.AssignTo(failed, jen.False())}
	if stored {
		ran.Add(hostgo.AssignTo(ys, hostgo.Id(r)), hostgo.AssignTo(outs[sm.Out], hostgo.Id(r)))
	}
	ran.Add(thenCode...)
	code := append(decl, c...)
	code.Add(
		hostgo.Define(failed, jen.True()),
		jen.If(hostgo.Id(okS)).Add(hostgo.Block(ran)),
		jen.If(hostgo.Id(failed)).Add(hostgo.Block(append(host, fb...))),
	)
	return append(code, release...), ""
}
