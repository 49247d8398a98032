package randpipe

// This file holds the steps that Config's FlagBranches, ZipGenerators and
// IndexedStreams enable: a reduction on one path of a branch on a bool
// parameter, a zip of an array with a generator written inside the call,
// and StreamReds whose chunk functions read their chunk by index. They
// draw nothing from the generator's source of randomness unless enabled,
// so that the configurations without them generate what they always did.

import "fmt"

// optionalStep emits, with a small chance each, one of the steps the Config
// enables, and reports whether it did.
func (g *gen) optionalStep() bool {
	if g.cfg.FlagBranches && g.chance(0.08) && g.stepFlagBranch() {
		return true
	}
	if g.cfg.ZipGenerators && g.chance(0.08) && g.stepZipGen() {
		return true
	}
	if g.cfg.IndexedStreams && g.chance(0.08) && g.stepIndexedStream() {
		return true
	}
	return false
}

// stepFlagBranch emits a reduction of an array on one path of a branch on
// the spec's flag parameter, and the array's length on the other:
//
//	var s T
//	if flag { s = soac.Reduce(a, ne, op) } else { s = T(len(a)) }
//
// The array is read by name: its producer may fuse into the branch only
// where the engine proves it safe.
func (g *gen) stepFlagBranch() bool {
	as := g.arrays(func(v *val) bool { return v.typ == "int64" || v.typ == "float64" })
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	t := a.typ
	ne, op := g.operator(t)
	in := g.ref(a)
	s := g.fresh("s")
	if g.chance(0.5) {
		g.emit("var %s %s", s, t)
	} else {
		g.emit("%s := %s(0)", s, t)
	}
	g.soacs++
	if g.chance(0.5) {
		g.emit("if flag { %s = soac.Reduce(%s, %s, %s) } else { %s = %s(len(%s)) }", s, in, ne, op, s, t, in)
	} else {
		g.emit("if !flag { %s = %s(len(%s)) } else { %s = soac.Reduce(%s, %s, %s) }", s, t, in, s, in, ne, op)
	}
	g.define(s, t, false, 0, "")
	return true
}

// stepZipGen emits a Map2 of an array and an Iota or a Replicate of its
// length, the generator written inside the call on either side:
//
//	soac.Map2(soac.Iota(len(a)), a, f)
//	soac.Map2(a, soac.Replicate(len(a), v), f)
func (g *gen) stepZipGen() bool {
	as := g.arrays(func(v *val) bool { return v.typ == "int64" || v.typ == "float64" })
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	in := g.ref(a) // read twice: by name
	n := "len(" + in + ")"
	gen, gt := "soac.Iota("+n+")", "int"
	if g.chance(0.5) {
		gt = mapTypes[g.pick(2)]
		gen = fmt.Sprintf("soac.Replicate(%s, %s(%s))", n, gt, g.expr(gt, g.scalars(), 1))
	}
	args, ts := []string{gen, in}, []string{gt, a.typ}
	if g.chance(0.5) {
		args, ts = []string{in, gen}, []string{a.typ, gt}
	}
	u := mapTypes[g.pick(2)]
	lam := g.lambda(ts, u, g.scalars())
	g.soacs += 2
	g.bind(u, true, a.cls, fmt.Sprintf("soac.Map2(%s, %s, %s)", args[0], args[1], lam))
	return true
}

// stepIndexedStream emits a StreamRed whose chunk function reads its chunk
// by index, folding a function of each element by +, ^, | or max (int64)
// or by max (float64, where only max gives one result for every
// chunking). Its input is mostly the newest array, and half the time a
// Map of it written just before, which may fuse into the stream
// (parallel.StreamRedChunks).
func (g *gen) stepIndexedStream() bool {
	as := g.arrays(func(v *val) bool { return v.typ == "int64" || v.typ == "float64" })
	if len(as) == 0 {
		return false
	}
	a := as[len(as)-1]
	if g.chance(0.3) {
		a = g.choose(as)
	}
	t := a.typ
	if g.chance(0.5) {
		lam := g.lambda([]string{t}, t, g.scalars())
		in := g.use(a)
		g.soacs++
		a = g.bind(t, true, a.cls, fmt.Sprintf("soac.Map(%s, %s)", in, lam))
	}
	e := g.expr(t, append(g.scalars(), leaf{"v", t, nil}), 2)
	start, fold, combine := "0", "", ""
	switch {
	case t == "float64" || g.chance(0.3):
		g.pkg.imports["math"] = true
		start = map[string]string{"int64": "math.MinInt64", "float64": "math.Inf(-1)"}[t]
		fold, combine = fmt.Sprintf("max(acc, v+(%s))", e), "max(p, q)"
	default:
		op := []string{"+", "^", "|"}[g.pick(3)]
		fold, combine = fmt.Sprintf("acc %s (v + (%s))", op, e), "p "+op+" q"
	}
	f := fmt.Sprintf("func(ch []%[1]s) %[1]s { acc := %[1]s(%[2]s); for i := range ch { v := ch[i]; acc = %[3]s }; return acc }", t, start, fold)
	in := g.use(a)
	g.soacs++
	g.bind(t, false, 0, fmt.Sprintf("soac.StreamRed(%s, func(p, q %s) %s { return %s }, %s)", in, t, t, combine, f))
	return true
}
