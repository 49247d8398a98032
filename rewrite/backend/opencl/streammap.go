package opencl

// This file is the opencl backend's part for stream maps: a StreamMap,
// alone (form lowered.Call) or with the maps that feed it (form
// lowered.Chunked), whose chunk function, a literal or a declared
// function, makes a row and returns it (out := make([]E, len(chunk)),
// out[i] = ..., return out; or out := make([]E, 0, c) grown by
// out = append(out, v); package rewrite/clc's Unit.ChunkMap and
// ChunkMapDeclared). It runs on the stream-map skeleton
// (skel.StreamMap): one work-item per chunk runs the chunk function (the
// fused maps first, into a scratch buffer of the stream's input) into
// the chunk's part of the output, its row at the chunk's offset; the
// output is downloaded once. The spec promises that the result does not
// depend on the chunking (docs/contract.md), and StreamMap's result is the
// chunks' rows in order, each of its chunk's length: a row of another
// length (the make's length evaluated on the device against the
// chunk's), like any panic of the chunk function, sets the panic flag,
// and the CPU code then runs and raises the spec's panic. Anything else
// is refused with a reason: a chunk function that does not make the row
// it returns, maps whose outputs are materialised, filters in the
// chunks, outputs of other than numbers and structs of numbers. For
// backend=auto the call runs the kernel when launch.StreamMap.Use says
// so (cost: bytesMap, streamOps).

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// clStreamMap is a stream map being translated: clStream's inputs,
// fused maps, captures and chunk code, with the output's element in
// place of the reduced row.
type clStreamMap struct {
	*clStream
	out clParam // the output's element as a skeleton type
	// costBytes and costOps, when not 0, are backend=auto's cost per
	// element in place of the stream's own (a ChunkedThen kernel's two
	// steps priced together: streamthen.go).
	costBytes, costOps int
}

// isStreamMap reports whether the stream of a Call or Chunked kernel is
// a StreamMap.
func isStreamMap(lk *lowered.Kernel) bool {
	st, ok := lk.Members[len(lk.Members)-1].SOAC.Op.(*ir.Stream)
	return ok && st.Kind == ir.StreamMap
}

// renderStreamMap renders a stream map, or says why it does not.
func renderStreamMap(f *spec, lk *lowered.Kernel, outs map[*ir.Var]string, next backend.Next) (hostgo.Stmts, string) {
	m := lk.Members[len(lk.Members)-1].SOAC
	st := m.Op.(*ir.Stream)
	if why := nestedIn(lk.Src.At); why != "" {
		return nil, why
	}
	ck := &clKernel{f: f, next: next, lk: lk, unit: clc.NewUnit(f.Fset(), clc.PackageResolver(f.Files(), f.Info())),
		cname: map[*ir.Var]string{}, space: map[*ir.Var]int{}, keep: make([]string, len(lk.Spaces))}
	s := &clStreamMap{clStream: &clStream{clKernel: ck, m: m, st: st}}
	if why := s.translate(outs); why != "" {
		return nil, why
	}
	return s.emit(outs), ""
}

// translate fills s, or returns why the stream map does not translate.
func (s *clStreamMap) translate(outs map[*ir.Var]string) string {
	f := s.f
	if why := s.translateInputs(); why != "" {
		return why
	}
	if why := s.translateMaps(outs, "the stream-map skeleton writes only the stream's output"); why != "" {
		return why
	}
	var chunkFn *clc.Func
	var err error
	switch l := s.st.Chunk; {
	case l.Lit != nil:
		chunkFn, err = s.unit.ChunkMap(l.Lit, f.Info())
	case l.Kind == ir.NamedFunc && l.Func != nil:
		chunkFn, err = s.unit.ChunkMapDeclared(l.Func)
	default:
		return fmt.Sprintf("the chunk function of %s is a function or method value, not a literal or a declared function: the row it makes must be visible", soacPos(f, s.m))
	}
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
	row := chunkFn.Result
	e := elemOf(s.m.Out.Type)
	s.out = clParam{c: "out__0", skel: skelScalar(e), goElem: e}
	if s.out.skel == "" {
		if s.structInput(e) == nil {
			return fmt.Sprintf("%s makes elements of %s: the stream-map skeleton's output holds numbers and structs of numbers", soacPos(f, s.m), e)
		}
		s.out.fields = s.fieldTypes(e)
	}
	if fp, _ := s.unit.NeedsFP64(); fp {
		s.fp64 = true
	}
	s.fp64 = s.fp64 || row.Elem.UsesFP64()
	for _, p := range append([]clParam{s.out}, s.ins...) {
		s.fp64 = s.fp64 || p.skel == "Float64" || strings.Contains(strings.Join(p.fields, ","), "Float64")
	}
	chunkView, why := s.chunkView(chunkFn.Params[0].Type)
	if why != "" {
		return why
	}
	// The row is the chunk's part of the output (soac_row, soac_room of
	// it): the make checks its length against the room, and a result of
	// another length (which the make rules out) would flag too.
	view := clc.OutView(row.Elem)
	rowPtr := fmt.Sprintf("%s__mk((__global %s *)soac_row, soac_room)", view, row.Elem.C)
	fmt.Fprintf(&s.chunk, "if (k__e == 0) {\nconst %s soac__r = %s;\n", view, chunkFn.Call([]string{chunkView}, rowPtr, "&k__e"))
	fmt.Fprintf(&s.chunk, "if (k__e == 0 && soac__r.n != soac_room) k__e = %d;\n}\nsoac_err = k__e;\n", rowOverflow)
	return ""
}

// emit returns the Go code that runs the stream map, with the next
// backend's code as its fallback, and declares its launch value.
func (s *clStreamMap) emit(outs map[*ir.Var]string) hostgo.Stmts {
	f := s.f
	fb, fbName := s.next()
	c, r, ok, host, release := s.launchCode(s.lk.Src, fbName, "")
	fb = append(host, fb...)
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

// launchCode declares the stream map's launch value and returns the
// statements that declare r (its output, set when the device wrote it)
// and ok (whether it did) and run the kernel, the statements the
// fallback starts with (downloads of arrays an earlier kernel left on
// the device) and those that release the device arrays the kernel
// reads last. k is the plan's kernel (for a ChunkedThen kernel's
// stream, the whole kernel), fbName the fallback's backend. When keep
// names a handle (a *launch.Array of the output's elements), the output
// stays on the device in it (launch.Keep) and r is "".
func (s *clStreamMap) launchCode(k *lowered.PlanKernel, fbName, keep string) (c hostgo.Stmts, r, ok string, host, release hostgo.Stmts) {
	f := s.f
	kv := f.PackageVar("soacgenCL" + f.Spec().Fuse.Name)
	launchQ := func(name string) *jen.Statement { return f.Qual(launchPath, "launch", name) }
	launch := s.streamLaunch(k, kv, "StreamMap", field("Out", s.skelType(s.out)))
	auto := f.auto
	if auto {
		bytes, ops := s.bytes()+sizeof(s.out.goElem), s.streamOps()
		if s.costBytes != 0 {
			bytes, ops = s.costBytes, s.costOps
		}
		launch = append(launch, s.autoFields(bytes, ops, fbName == backend.Parallel, 1)...)
	}
	s.declareLaunch(kv, "StreamMap", launch)

	clo := ""
	ok, clo, r = f.Fresh("ok"), f.Fresh("clo"), f.Fresh("r")
	// Inputs an earlier kernel left on the device (residency.go)
	// are read there, and downloaded for the fallback; inputs and
	// captured slices no statement writes are uploaded once per call
	// (unwritten.go).
	devIn := deviceInputs(f, s.ins)
	host, release = fallbackHost(f, k, s.ins, devIn)
	session := s.streamSession(devIn, keep)
	args := s.argValues(session, nil)
	var call *jen.Statement
	if session != "" {
		out := launchQ("Download").Call(hostgo.Id(clo))
		if keep != "" {
			out = launchQ("Keep").Call(jen.Op("&").Id(keep))
		}
		call = jen.Id(kv).Dot("RunOn").Call(jen.Op("&").Id(session), args, s.inputs(session, devIn), out)
	} else {
		call = jen.Id(kv).Dot("Run").Call(args, s.inputs("", nil), f.Qual(skelPath, "skel", "Slice").Call(hostgo.Id(clo)))
	}
	// The output has the input's length (a device input's Len, its Go
	// variable unset while the device holds it).
	n := inputLen(f, s.ins[0].v, devIn)
	cond := jen.Id(kv).Dot("Kernel").Call().Op("!=").Nil()
	if auto {
		// The cost model alone chooses the device: unlike the stream
		// reduction's, this guard names no operand an earlier kernel
		// left there.
		cond = autoGuard(kv, n.Clone(), nil, cond)
	}
	if keep != "" {
		c = hostgo.Stmts{
			hostgo.Define(ok, jen.False()),
			jen.If(cond).Add(hostgo.Block(hostgo.Stmts{hostgo.AssignTo(ok, call)})),
		}
		return c, "", ok, host, release
	}
	c = hostgo.Stmts{
		hostgo.VarDecl(r, f.Type(s.m.Out.Type), nil),
		hostgo.Define(ok, jen.False()),
		jen.If(cond).Add(hostgo.Block(hostgo.Stmts{
			hostgo.Define(clo, downloadDest(f, elemOf(s.m.Out.Type), n)),
			jen.If(hostgo.AssignTo(ok, call), hostgo.Id(ok)).
				Add(hostgo.Block(hostgo.Stmts{hostgo.AssignTo(r, hostgo.Id(clo))})),
		})),
	}
	return c, r, ok, host, release
}
