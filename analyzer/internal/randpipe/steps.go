package randpipe

// This file holds the steps that exercise the engine's later fusions:
// lambdas that write memory they allocated themselves, statements between
// SOACs that write fresh memory at indices proven in range or read behind
// a length guard, maps whose lambdas have effects followed by a reduction,
// and generators whose length is held in a variable. Every one of them
// computes the same in any fusion the engine may choose, so each is a
// plain random step, not a hazard.

import "fmt"

// stepLocalLambda emits a Map whose lambda fills a slice it allocated
// itself and reads it back.
func (g *gen) stepLocalLambda() bool {
	as := g.arrays(func(v *val) bool { return v.typ == "int64" || v.typ == "float64" })
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	t := a.typ
	sc := append(g.scalars(), leaf{"x", t, nil})
	e1, e2 := g.expr(t, sc, 2), g.expr(t, sc, 2)
	var lam string
	switch g.pick(3) {
	case 0:
		lam = fmt.Sprintf("func(x %[1]s) %[1]s { buf := make([]%[1]s, 3); for i := range buf { buf[i] = (%[2]s) + %[1]s(i) }; buf[1] = %[3]s; return buf[0] + buf[1]*buf[2] }", t, e1, e2)
	case 1:
		lam = fmt.Sprintf("func(x %[1]s) %[1]s { var out []%[1]s; out = append(out, %[2]s, %[3]s); if len(out) > 1 { out[1] = out[0] - out[1] }; return out[1] }", t, e1, e2)
	default:
		lam = fmt.Sprintf("func(x %[1]s) %[1]s { p := []%[1]s{%[2]s, %[3]s}; for i := 0; i < len(p); i++ { p[i] = p[i] * 2 }; return p[0] + p[1] }", t, e1, e2)
	}
	in := g.use(a)
	g.soacs++
	g.bind(t, true, a.cls, fmt.Sprintf("soac.Map(%s, %s)", in, lam))
	return true
}

// stepScratch emits statements between SOACs that cannot panic and write
// only fresh memory: a scratch slice of an array's length filled in range
// (a new array value), or a scalar read behind a length guard.
func (g *gen) stepScratch() bool {
	as := g.arrays(nil)
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	if g.chance(0.5) {
		name := g.fresh("sc")
		g.emit("%s := make([]int64, len(%s))", name, g.ref(a))
		g.emit("for i := range %s { %s[i] = int64(i) * 3 }", name, name)
		g.emit("if len(%s) > 0 { %s[0] = -1 }", name, name)
		g.clearInl()
		g.define(name, "int64", true, a.cls, "")
		return true
	}
	name := g.fresh("s")
	g.emit("var %s %s", name, a.typ)
	g.emit("if len(%[2]s) > 0 { %[1]s = %[2]s[len(%[2]s)-1] + %[2]s[0] }", name, g.ref(a))
	g.clearInl()
	g.define(name, a.typ, false, 0, "")
	return true
}

// stepEffects emits a Map whose lambda counts its calls in a captured
// variable, consumed by a Reduce right after it; the count is a result.
func (g *gen) stepEffects() bool {
	as := g.arrays(func(v *val) bool { return v.typ == "int64" })
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	cnt := g.fresh("cnt")
	g.emit("%s := int64(0)", cnt)
	g.clearInl()
	cv := g.define(cnt, "int64", false, 0, "")
	cv.avail = false // read only as a result: no lambda may observe it
	e := g.expr("int64", append(g.scalars(), leaf{"x", "int64", nil}), 2)
	in := g.use(a)
	g.soacs++
	m := g.bind("int64", true, a.cls, fmt.Sprintf("soac.Map(%s, func(x int64) int64 { %s++; return %s })", in, cnt, e))
	ne, op := g.operator("int64")
	min := g.use(m)
	g.soacs++
	g.bind("int64", false, 0, fmt.Sprintf("soac.Reduce(%s, %s, %s)", min, ne, op))
	return true
}

// stepGenVar emits an Iota or Replicate whose length is a variable n :=
// len(a).
func (g *gen) stepGenVar() bool {
	as := g.arrays(nil)
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	n := g.fresh("n")
	g.emit("%s := len(%s)", n, g.ref(a))
	g.clearInl()
	g.soacs++
	if g.chance(0.5) {
		g.bind("int", true, a.cls, fmt.Sprintf("soac.Iota(%s)", n))
		return true
	}
	t := mapTypes[g.pick(2)]
	v := g.expr(t, g.scalars(), 1)
	g.bind(t, true, a.cls, fmt.Sprintf("soac.Replicate(%s, %s(%s))", n, t, v))
	return true
}

// stepIndexRead emits a Map over Iota(len(b)) whose literal reads array a
// only at the index (the engine's index-read): a of b's length class, so
// every read is in range; sometimes twice, sometimes through a local.
func (g *gen) stepIndexRead() bool {
	as := g.arrays(func(v *val) bool { return v.typ == "int64" || v.typ == "float64" })
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	b := a
	if same := g.sameClass(a); len(same) > 0 && g.chance(0.5) {
		b = same[g.pick(len(same))]
	}
	t := a.typ
	sc := append(withoutLeaf(withoutLeaf(g.scalars(), "e"), "i"), leaf{"e", t, nil})
	an, bn := g.ref(a), g.ref(b)
	a.captured = true
	e := g.expr(t, sc, 2)
	var body string
	switch g.pick(3) {
	case 0:
		body = fmt.Sprintf("e := %s[i]; _ = e; return %s", an, e)
	case 1:
		body = fmt.Sprintf("e := %[1]s[i]; _ = e; return (%[2]s) - %[1]s[i]", an, e)
	default:
		body = fmt.Sprintf("if i%%2 == 0 { return %s[i] }; e := %s[i] * 2; _ = e; return %s", an, an, e)
	}
	g.soacs += 2
	g.bind(t, true, a.cls, fmt.Sprintf("soac.Map(soac.Iota(len(%s)), func(i int) %s { %s })", bn, t, body))
	return true
}
