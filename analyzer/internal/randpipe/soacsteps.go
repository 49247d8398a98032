package randpipe

// This file emits the random steps of the combinators themselves (step):
// Map, Map2, Map3, Filter, Reduce, Scan, Iota and Replicate, StreamMap
// (sometimes followed by a Scan or a Filter of its output) and
// StreamRed, and Maps whose lambdas run SOACs. The steps for the engine's
// later fusions are steps.go's; reassignment shapes are shapes.go's.

import (
	"fmt"
	"strings"
)

// mapTypes are the element types of the arrays maps compute.
var mapTypes = []string{"int64", "float64"}

// step emits one random SOAC statement.
func (g *gen) step() {
	if g.optionalStep() {
		return
	}
	for tries := 0; tries < 20; tries++ {
		switch g.pick(19) {
		case 0, 1, 2:
			if g.stepMap() {
				return
			}
		case 3, 4:
			if g.stepMapN(2) {
				return
			}
		case 5:
			if g.stepMapN(3) {
				return
			}
		case 6, 7:
			if g.stepFilter() {
				return
			}
		case 8, 9:
			if g.stepReduce(false) {
				return
			}
		case 10:
			if g.stepReduce(true) {
				return
			}
		case 11:
			if g.stepGen() {
				return
			}
		case 12:
			if g.stepStream() {
				return
			}
		case 13:
			if g.stepNested() {
				return
			}
		case 14:
			if g.stepLocalLambda() {
				return
			}
		case 15:
			if g.stepScratch() {
				return
			}
		case 16:
			if g.stepEffects() {
				return
			}
		case 17:
			if g.stepGenVar() {
				return
			}
		case 18:
			if g.stepIndexRead() {
				return
			}
		}
	}
	g.stepMap()
}

func (g *gen) stepMap() bool {
	as := g.arrays(nil)
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	u := mapTypes[g.pick(2)]
	lam := g.lambda([]string{a.typ}, u, g.scalars())
	in := g.use(a)
	g.soacs++
	g.bind(u, true, a.cls, fmt.Sprintf("soac.Map(%s, %s)", in, lam))
	return true
}

func (g *gen) stepMapN(n int) bool {
	as := g.arrays(func(v *val) bool { return v.cls >= 0 })
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	args := []*val{a}
	same := g.sameClass(a)
	for len(args) < n {
		args = append(args, same[g.pick(len(same))])
	}
	var ts, ins []string
	for _, v := range args {
		ts = append(ts, v.typ)
	}
	u := mapTypes[g.pick(2)]
	lam := g.lambda(ts, u, g.scalars())
	// Only the last argument may be an inlined call (Go evaluates the
	// arguments in order, so earlier ones stay names).
	for i, v := range args {
		if i == len(args)-1 {
			ins = append(ins, g.use(v))
		} else {
			ins = append(ins, g.ref(v))
		}
	}
	g.soacs++
	g.bind(u, true, a.cls, fmt.Sprintf("soac.Map%d(%s, %s)", n, strings.Join(ins, ", "), lam))
	return true
}

func (g *gen) stepFilter() bool {
	as := g.arrays(nil)
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	pred := g.lambda([]string{a.typ}, "bool", g.scalars())
	in := g.use(a)
	g.soacs++
	g.bind(a.typ, true, g.newCls(), fmt.Sprintf("soac.Filter(%s, %s)", in, pred))
	return true
}

func (g *gen) stepReduce(scan bool) bool {
	as := g.arrays(nil)
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	ne, op := g.operator(a.typ)
	in := g.use(a)
	g.soacs++
	if scan {
		g.bind(a.typ, true, a.cls, fmt.Sprintf("soac.Scan(%s, %s, %s)", in, ne, op))
	} else {
		g.bind(a.typ, false, 0, fmt.Sprintf("soac.Reduce(%s, %s, %s)", in, ne, op))
	}
	return true
}

// stepGen emits Iota or Replicate, of an array's length or a constant.
func (g *gen) stepGen() bool {
	var n string
	cls := 0
	as := g.arrays(nil)
	if len(as) > 0 && g.chance(0.7) {
		a := g.choose(as)
		n = "len(" + g.ref(a) + ")"
		cls = a.cls
	} else {
		c := []int{0, 3, 5}[g.pick(3)]
		n = fmt.Sprint(c)
		if _, ok := g.constCls[c]; !ok {
			g.constCls[c] = g.newCls()
		}
		cls = g.constCls[c]
	}
	g.soacs++
	if g.chance(0.5) {
		g.bind("int", true, cls, fmt.Sprintf("soac.Iota(%s)", n))
		return true
	}
	t := mapTypes[g.pick(2)]
	v := g.expr(t, g.scalars(), 1)
	g.bind(t, true, cls, fmt.Sprintf("soac.Replicate(%s, %s(%s))", n, t, v))
	return true
}

// stepStream emits a StreamMap (element-wise chunk function) or a
// StreamRed of int64 (exact, so every chunking gives one result).
func (g *gen) stepStream() bool {
	as := g.arrays(func(v *val) bool { return v.typ == "int64" || v.typ == "float64" })
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	sc := g.scalars()
	if g.chance(0.5) || a.typ != "int64" {
		e := g.expr(a.typ, append(sc, leaf{"v", a.typ, nil}), 2)
		var f string
		if g.chance(0.3) {
			f = fmt.Sprintf("func(ch []%[1]s) []%[1]s { return soac.Map(ch, func(v %[1]s) %[1]s { return %[2]s }) }", a.typ, e)
			g.soacs++
		} else {
			f = fmt.Sprintf("func(ch []%[1]s) []%[1]s { out := make([]%[1]s, len(ch)); for i, v := range ch { out[i] = v + (%[2]s) }; return out }", a.typ, e)
		}
		in := g.use(a)
		g.soacs++
		s := g.bind(a.typ, true, a.cls, fmt.Sprintf("soac.StreamMap(%s, %s)", in, f))
		if g.chance(0.4) {
			g.streamThen(s)
		}
		return true
	}
	e := g.expr("int64", append(sc, leaf{"v", "int64", nil}), 2)
	op := []string{"+", "^", "|"}[g.pick(3)]
	f := fmt.Sprintf("func(ch []int64) int64 { acc := int64(0); for _, v := range ch { acc = acc %s (v + (%s)) }; return acc }", op, e)
	in := g.use(a)
	g.soacs++
	g.bind("int64", false, 0, fmt.Sprintf("soac.StreamRed(%s, func(p, q int64) int64 { return p %s q }, %s)", in, op, f))
	return true
}

// streamThen emits a Scan or a Filter of StreamMap output s right after
// it (stream->scanomap, stream->filter), sometimes read by a Map or a
// Reduce in turn.
func (g *gen) streamThen(s *val) {
	var v *val
	if g.chance(0.5) {
		ne, op := g.operator(s.typ)
		in := g.use(s)
		g.soacs++
		v = g.bind(s.typ, true, s.cls, fmt.Sprintf("soac.Scan(%s, %s, %s)", in, ne, op))
	} else {
		pred := g.lambda([]string{s.typ}, "bool", g.scalars())
		in := g.use(s)
		g.soacs++
		v = g.bind(s.typ, true, g.newCls(), fmt.Sprintf("soac.Filter(%s, %s)", in, pred))
	}
	switch g.pick(3) {
	case 0:
		lam := g.lambda([]string{v.typ}, v.typ, g.scalars())
		in := g.use(v)
		g.soacs++
		g.bind(v.typ, true, v.cls, fmt.Sprintf("soac.Map(%s, %s)", in, lam))
	case 1:
		ne, op := g.operator(v.typ)
		in := g.use(v)
		g.soacs++
		g.bind(v.typ, false, 0, fmt.Sprintf("soac.Reduce(%s, %s, %s)", in, ne, op))
	}
}

// stepNested emits a Map whose lambda runs SOACs itself.
func (g *gen) stepNested() bool {
	as := g.arrays(func(v *val) bool { return v.typ == "int64" || v.typ == "float64" })
	if len(as) == 0 {
		return false
	}
	a := g.choose(as)
	sc := append(g.scalars(), leaf{"x", a.typ, nil})
	u := a.typ
	inner := g.expr(u, append(sc, leaf{u + "(i)", u, nil}), 2)
	ne, op := g.operator(u)
	n := 1 + g.pick(4)
	body := fmt.Sprintf("soac.Reduce(soac.Map(soac.Iota(%d), func(i int) %s { return %s }), %s, %s)", n, u, inner, ne, op)
	g.soacs += 3
	in := g.use(a)
	g.soacs++
	g.bind(u, true, a.cls, fmt.Sprintf("soac.Map(%s, func(x %s) %s { return %s })", in, a.typ, u, body))
	return true
}
