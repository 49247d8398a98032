package rewrite

// This file writes the Go side of an OpenCL kernel (opencl.go translates
// it): the package-level launch value holding the skeleton with its
// OpenCL C, and the code at the kernel's position that runs it, with the
// next backend's code when it does not run. It does not translate
// anything.

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// goString returns s as a Go string literal: raw when it can be.
func goString(s string) string {
	if !strings.Contains(s, "`") && !strings.Contains(s, "\r") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// packageVar returns a package-level name starting with base, taken for
// every function of the file.
func (g *gen) packageVar(base string) string {
	n := g.fresh(base)
	g.base[n] = true
	return n
}

// emit returns the Go code that runs the kernel, with the next backend's
// code as its fallback, and declares the kernel's launch value.
func (ck *clKernel) emit(outs map[*ir.Var]string) *code {
	f, k := ck.f, ck.lk.Src
	// The fallback first: backend=auto's cost model compares the device
	// with the backend that runs when the device does not.
	fb, fbName := f.fallback(ck.lk, outs)
	pos := f.fset.Position(k.At.Pos())
	kv := f.packageVar("soacgenCL" + f.fn.Fuse.Name)
	d := new(code).pf("\n// %s runs a kernel of %s on OpenCL (generated from %s).\nvar %s = &", kv, f.fn.Fuse.Name, f.fn.Name, kv)
	form := "Redomap"
	switch {
	case ck.scan:
		form = "Scan"
	case ck.compact != lower.Root:
		form = "Filter"
	}
	f.qual(d, launchPath, "launch", form).pf("{\nAt: %q,\nFP64: %t,\nSpec: ", fmt.Sprintf("%s:%d:%d", filepath.Base(pos.Filename), pos.Line, pos.Column), ck.fp64)
	f.qual(d, skelPath, "skel", form).pf("{\nName: %q,\n", strings.TrimPrefix(kv, "soacgen"))
	skelType := func(p clParam) {
		if p.skel != "" {
			f.qual(d, skelPath, "skel", p.skel)
			return
		}
		f.qual(d, launchPath, "launch", "Struct").pf("(%q", p.c+"__t")
		for _, st := range p.fields {
			d.p(", ")
			f.qual(d, skelPath, "skel", st)
		}
		d.p(")")
	}
	params := func(field string, ps []clParam) {
		if len(ps) == 0 {
			return
		}
		d.pf("%s: []", field)
		f.qual(d, skelPath, "skel", "Param").p("{")
		for _, p := range ps {
			d.pf("{Name: %q, Type: ", p.c)
			skelType(p)
			d.p("}, ")
		}
		d.p("},\n")
	}
	params("Inputs", ck.ins)
	params("Outputs", ck.outs)
	red := func(r clRed) {
		d.pf("{Name: %q, Type: ", r.c)
		skelType(r.clParam)
		d.pf(", Op: %s, Neutral: %q", goString(r.op), r.neutral)
		if r.commutative {
			d.p(", Commutative: true")
		}
		d.p("}")
	}
	if ck.scan {
		d.p("Op: ")
		f.qual(d, skelPath, "skel", "Reduction")
		red(ck.reds[0])
		d.p(",\n")
	} else {
		d.p("Reductions: []")
		f.qual(d, skelPath, "skel", "Reduction").p("{")
		for _, r := range ck.reds {
			red(r)
			d.p(", ")
		}
		f.qual(d, launchPath, "launch", "ErrFlagReduction").p("()},\n")
	}
	if len(ck.args) > 0 {
		d.p("Args: []")
		f.qual(d, skelPath, "skel", "Arg").p("{")
		for _, a := range ck.args {
			for _, decl := range a.params {
				d.pf("{Name: %q, Decl: %q}, ", decl[strings.LastIndexByte(decl, ' ')+1:], decl)
			}
		}
		d.p("},\n")
	}
	d.pf("Body: %s,\nPreamble: %s,\n", goString(ck.body.String()), goString(ck.unit.Source()))
	if o := ck.unit.BuildOptions(); o != "" {
		d.pf("Options: %q,\n", o)
	}
	d.p("},\n")
	if f.backend == Auto {
		d.p("Auto: true,\nCost: ")
		f.qual(d, launchPath, "launch", "Cost").pf("{Bytes: %d, Ops: %d, Parallel: %t},\n", ck.bytes(), ck.ops(), fbName == Parallel)
	}
	d.p("}\n")
	f.decls = append(f.decls, d)

	ok := f.fresh("ok")
	c := txtf("%s := false\nif ", ok)
	if f.backend == Auto {
		c.pf("%s.Use(len(%s)) && ", kv, f.name(ck.ins[0].v))
	}
	c.pf("%s.Kernel() != nil {\n", kv)
	slices := func(ps []clParam, name func(clParam) string) {
		if len(ps) == 0 {
			c.p("nil")
			return
		}
		c.p("[]")
		f.qual(c, skelPath, "skel", "HostSlice").p("{")
		for _, p := range ps {
			f.qual(c, skelPath, "skel", "Slice").pf("(%s), ", name(p))
		}
		c.p("}")
	}
	local := map[*ir.Var]string{}
	spans, data, room, flat := ck.rowsHost(c, local)
	for _, p := range ck.outs {
		if p.rows != nil {
			continue
		}
		local[p.v] = f.fresh("clo")
		c.pf("%s := make(", local[p.v]).add(f.typeCode(p.v.Type)).pf(", len(%s))\n", f.name(ck.ins[0].v))
	}
	input := func(p clParam) string {
		if p.rows != nil {
			return spans[p.v]
		}
		return f.name(p.v)
	}
	if ck.scan {
		r := ck.reds[0]
		l := f.fresh("clo")
		c.pf("%s := make(", l).add(f.typeCode(r.v.Type)).pf(", len(%s))\n", f.name(ck.ins[0].v))
		c.pf("if %s = %s.Run(", ok, kv)
		slices(ck.ins, input)
		c.p(", ")
		f.qual(c, skelPath, "skel", "Slice").pf("(%s)); %s {\n%s = %s\n}\n", l, ok, outs[r.v], l)
		c.pf("}\nif !%s {\n", ok).add(fb).p("}\n")
		return c
	}
	for _, r := range ck.reds {
		local[r.v] = f.fresh("clr")
		c.pf("var %s [1]", local[r.v]).line(f.typeCode(r.goElem))
	}
	kept := ""
	switch {
	case ck.compact != lower.Root:
		kept = f.fresh("kept")
		c.pf("var %s int\nif %s, %s = %s.Run(", kept, kept, ok, kv)
	case len(ck.args) == 0:
		c.pf("if %s = %s.Run(nil, ", ok, kv)
	default:
		c.pf("if %s = %s.Run(", ok, kv)
		c.p("[]any{")
		for _, a := range ck.args {
			switch {
			case a.rowsIn != nil:
				f.qual(c, launchPath, "launch", "View").pf("(%s), ", data[a.rowsIn])
				continue
			case a.rowsOut != nil:
				f.qual(c, launchPath, "launch", "Out").pf("(%s), ", flat[a.rowsOut])
				continue
			case a.rowCap != nil:
				f.qual(c, launchPath, "launch", "Arg").pf("(int64(%s)), ", room[a.rowCap])
				continue
			}
			pass := "Arg"
			switch a.kind {
			case clc.Slice:
				pass = "View"
			case clc.Slice2:
				pass = "Rows"
			}
			f.qual(c, launchPath, "launch", pass).p("(")
			f.writeObjName(c, a.obj)
			c.p("), ")
		}
		c.p("}, ")
	}
	slices(ck.ins, input)
	c.p(", ")
	slices(ck.outs, func(p clParam) string { return local[p.v] })
	c.p(", ")
	var reds []clParam
	for _, r := range ck.reds {
		reds = append(reds, r.clParam)
	}
	slices(reds, func(p clParam) string { return local[p.v] + "[:]" })
	c.pf("); %s {\n", ok)
	for _, p := range ck.outs {
		if p.rows != nil {
			c.pf("%s = ", outs[p.v])
			f.qual(c, launchPath, "launch", "Split").pf("(%s, %s, %s)\n", flat[p.v], local[p.v], room[p.v])
			continue
		}
		if kept != "" {
			c.pf("%s = %s[:%s]\n", outs[p.v], local[p.v], kept)
			continue
		}
		c.pf("%s = %s\n", outs[p.v], local[p.v])
	}
	for _, r := range ck.reds {
		if n := outs[r.v]; n != "" && n != "_" {
			c.pf("%s = %s[0]\n", n, local[r.v])
		}
	}
	c.pf("}\n}\nif !%s {\n", ok).add(fb).p("}\n")
	return c
}

// fallback returns the code of the first backend after opencl in the
// spec's chain that renders lk, else the reference calls, and the
// backend's name ("" for the reference calls).
func (f *fgen) fallback(lk *lower.Kernel, outs map[*ir.Var]string) (*code, string) {
	for _, name := range Chain(f.backend) {
		if b := backends[name]; b != nil && name != OpenCL {
			if c, why := b.render(f, lk, outs); why == "" {
				return c, name
			}
		}
	}
	return f.unfused(lk.Src, outs), ""
}
