package randpipe

// This file adds the path shapes (Config.ReturnPathRate,
// Config.ClosureCallRate): a producer consumed in a branch of an if or
// switch that ends in its return and again after the statement, which
// the engine fuses into each path's kernel (fusion's returnpaths.go), and
// a local closure whose literal only returns a Map, called for a SOAC's
// array argument, which the IR builder sees through (build's
// seethrough.go); each with the twins that must not be fused so.
//
// A spec's path shapes are drawn from a source of their own, seeded by
// the package's seed and the spec's index, once the spec's other steps
// are written, and inserted between its top-level statements (never
// inside a hazard): they read the values defined before that point and
// define values of their own, which become results, so the spec's other
// statements and every other spec stay what they were without them.
// Their lambdas are literals and their operators inline (gen.plain): a
// helper would shift the names of the later specs' helpers.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// The path shapes. Unlike the reassignment shapes, each has a decision
// the engine must make (the engine test checks it on the variable
// PathShape names); the differential tests check what it computes.
const (
	// ReturnArm: m := Map(a); an if or switch whose branches consuming m
	// end in a return; a consumer of m after it. m is fused into each
	// path's kernel (fusion.TagBranchCopy). A branch may also return
	// without consuming m when m cannot panic, or fall through without
	// consuming it.
	ReturnArm ShapeKind = numShapes + iota
	// ArmNoReturn: a branch consumes m and falls through to the consumer
	// after the statement: fused into both, m would be computed twice
	// (consumed-twice).
	ArmNoReturn
	// ReturnSkips: m may panic and a case returns without consuming it:
	// it must run on that path too (not-every-path).
	ReturnSkips
	// ClosureCalled: inc := func(r []T) []U { return soac.Map(r, f) },
	// called for a SOAC's array argument at the top level or in a
	// lambda: seen through, its Map fuses with the SOAC.
	ClosureCalled
	// ClosureReassigned: inc is assigned a second literal: not seen
	// through.
	ClosureReassigned
	// ClosureShadowed: a name inc's literal reads means another variable
	// where the lambda calls inc: not seen through.
	ClosureShadowed
	numAllShapes
)

var pathShapeNames = [numAllShapes - numShapes]string{"return-arm", "arm-no-return", "return-skips",
	"closure-called", "closure-reassigned", "closure-shadowed"}

// PathShapes returns the path shape kinds.
func PathShapes() []ShapeKind {
	var ks []ShapeKind
	for k := numShapes; k < numAllShapes; k++ {
		ks = append(ks, k)
	}
	return ks
}

// PathShape is a path shape of a spec and the variable it is about: the
// producer m of the return-path kinds, the closure variable of the
// closure kinds.
type PathShape struct {
	Kind ShapeKind
	Var  string
}

// pathStream is the second word of the path shapes' source; the spec's
// index is added to it.
const pathStream = 0x9a7b5000

// pathRet is a return statement of a path shape: it gives the results in
// over their value there, and returns the other results defined before it
// (visible) by name, the rest as zero.
type pathRet struct {
	over    map[*val]string
	visible map[*val]bool
}

// pathChunk is a path shape to insert before line at of the spec.
type pathChunk struct {
	at      int
	closure bool
	kind    ShapeKind
	lines   []string
}

// pathShapes inserts the spec's path shapes into its lines and returns
// the values they define, to be returned after results, the spec's
// other results.
func (g *gen) pathShapes(results []*val) []*val {
	cfg := g.cfg
	if cfg.ReturnPathRate <= 0 && cfg.ClosureCallRate <= 0 {
		return nil
	}
	x := rand.New(rand.NewPCG(uint64(g.seed), pathStream+uint64(g.idx)))
	at := g.insertPoints()
	var chunks []*pathChunk
	if x.Float64() < cfg.ClosureCallRate {
		k := []ShapeKind{ClosureCalled, ClosureCalled, ClosureReassigned, ClosureShadowed}[x.IntN(4)]
		chunks = append(chunks, &pathChunk{at: at[x.IntN(len(at))], closure: true, kind: k})
	}
	if x.Float64() < cfg.ReturnPathRate {
		k := []ShapeKind{ReturnArm, ReturnArm, ArmNoReturn, ReturnSkips}[x.IntN(4)]
		chunks = append(chunks, &pathChunk{at: at[x.IntN(len(at))], kind: k})
	}
	slices.SortStableFunc(chunks, func(a, b *pathChunk) int { return a.at - b.at })
	var extra []*val
	for _, c := range chunks {
		pg := &gen{r: x, cfg: cfg, pkg: g.pkg, next: g.next, spec: g.spec, hz: g.hz, divide: g.divide,
			plain: true, cls: g.cls, constCls: map[int]int{}, rets: g.rets}
		for _, v := range g.vals {
			if v.avail && !v.gone && v.depth == 0 && v.line < c.at {
				pg.vals = append(pg.vals, v)
			}
		}
		visible := map[*val]bool{}
		for _, v := range results {
			if !v.gone && v.depth == 0 && v.line < c.at {
				visible[v] = true
			}
		}
		for _, v := range extra {
			visible[v] = true
		}
		var name string
		var out []*val
		if c.closure {
			name, c.kind, out = pg.closureCall(c.kind)
		} else {
			name, c.kind, out = pg.returnPath(c.kind, visible)
		}
		g.next, g.rets = pg.next, pg.rets
		if name == "" {
			continue
		}
		c.lines = pg.lines
		// The calls of its lines and of the values its returns give
		// (pathRet).
		g.soacs += strings.Count(strings.Join(pg.lines, "\n"), "soac.") + pg.soacs
		extra = append(extra, out...)
		g.tag(c.kind)
		g.spec.Paths = append(g.spec.Paths, PathShape{c.kind, name})
	}
	for i := len(chunks) - 1; i >= 0; i-- {
		c := chunks[i]
		g.lines = slices.Insert(g.lines, c.at, c.lines...)
	}
	return extra
}

// insertPoints returns the lines before which a path shape may go: those
// of the spec's top level (and its end), but inside the hazard.
func (g *gen) insertPoints() []int {
	var at []int
	for l := 0; l <= len(g.lines); l++ {
		if g.hzFrom < l && l < g.hzTo {
			continue
		}
		if l < len(g.lines) {
			s := g.lines[l]
			if !strings.HasPrefix(s, "\t") || strings.HasPrefix(s, "\t\t") || strings.HasPrefix(s, "\t}") {
				continue
			}
		}
		at = append(at, l)
	}
	return at
}

// pathReturn replaces the @PATHRET<i>@ of line l by the return statement
// g.rets[i] describes, over the spec's results and their zeros.
func (g *gen) pathReturn(l string, results []*val, zeros []string) string {
	const mark = "@PATHRET"
	i := strings.Index(l, mark)
	if i < 0 {
		return l
	}
	j := i + len(mark) + strings.Index(l[i+len(mark):], "@")
	n, err := strconv.Atoi(l[i+len(mark) : j])
	if err != nil || n >= len(g.rets) {
		panic("randpipe: bad path return " + l)
	}
	pr := g.rets[n]
	var es []string
	for k, v := range results {
		switch {
		case pr.over[v] != "":
			es = append(es, pr.over[v])
		case pr.visible[v]:
			es = append(es, v.name)
		default:
			es = append(es, zeros[k])
		}
	}
	return l[:i] + "return " + strings.Join(es, ", ") + l[j+1:]
}

// An arm of a path shape's branch.
type armRole int

const (
	consumeReturn armRole = iota // consumes m, then returns
	skipReturn                   // returns without consuming m
	emptyArm                     // falls through, consuming nothing
	consumeAssign                // assigns a reduction of m, falls through
)

// returnPath emits a return-path shape of kind k (ReturnSkips becomes
// ReturnArm where no int64 array may panic) and returns its producer,
// its kind and its results; "" when the spec has no array to read.
func (g *gen) returnPath(k ShapeKind, visible map[*val]bool) (string, ShapeKind, []*val) {
	as := g.arrays(func(v *val) bool { return v.typ == "int64" || v.typ == "float64" })
	if len(as) == 0 {
		return "", k, nil
	}
	panics := k == ReturnSkips || k == ReturnArm && g.chance(0.3)
	if ints := g.arrays(func(v *val) bool { return v.typ == "int64" }); panics && len(ints) > 0 {
		as = ints
	} else if panics {
		panics = false
		if k == ReturnSkips {
			k = ReturnArm // a case may skip m that cannot panic: fused
		}
	}
	a := g.choose(as)
	m := &val{name: g.fresh("m"), typ: a.typ, arr: true}
	var lam string
	if panics {
		e := g.expr("int64", append(g.scalars(), leaf{"x", "int64", nil}), 1)
		lam = fmt.Sprintf("func(x int64) int64 { return (%s) / (x%%5 + 1) }", e)
	} else {
		m.typ = mapTypes[g.pick(2)]
		divide := g.divide
		g.divide = false // m must not panic: a branch may skip it
		lam = g.lambda([]string{a.typ}, m.typ, g.scalars())
		g.divide = divide
	}
	g.emit("%s := soac.Map(%s, %s)", m.name, a.name, lam)
	r := &val{name: g.fresh("r"), typ: m.typ, arr: g.chance(0.4)}
	out := []*val{r}
	var roles []armRole
	switch k {
	case ReturnArm:
		roles = []armRole{consumeReturn}
		others := []armRole{consumeReturn, emptyArm}
		if !panics {
			others = append(others, skipReturn)
		}
		for n := g.pick(3); n > 0; n-- {
			roles = append(roles, others[g.pick(len(others))])
		}
	case ReturnSkips:
		roles = []armRole{consumeReturn, skipReturn}
		if g.chance(0.3) {
			roles = append(roles, emptyArm)
		}
	default: // ArmNoReturn
		s := &val{name: g.fresh("s"), typ: m.typ}
		if g.chance(0.5) {
			g.emit("var %s %s", s.name, s.typ)
		} else {
			g.emit("%s := %s(1)", s.name, s.typ)
		}
		out = append(out, s)
		visible = withVal(visible, s)
		roles = []armRole{consumeAssign}
		for n := g.pick(2); n > 0; n-- {
			roles = append(roles, []armRole{consumeReturn, emptyArm, consumeAssign}[g.pick(3)])
		}
	}
	g.r.Shuffle(len(roles), func(i, j int) { roles[i], roles[j] = roles[j], roles[i] })
	g.pathBranch(a, len(roles), func(i int) {
		switch roles[i] {
		case consumeReturn:
			e := g.consume(m, r.arr)
			if g.chance(0.4) {
				t := g.fresh("t")
				g.emit("%s := %s", t, e)
				e = t
			}
			g.pathRet(visible, r, e)
		case skipReturn:
			g.pathRet(visible, nil, "")
		case consumeAssign:
			g.emit("%s = %s", out[1].name, g.consume(m, false))
		}
	})
	g.emit("%s := %s", r.name, g.consume(m, r.arr))
	return m.name, k, out
}

// withVal returns a copy of set with v added.
func withVal(set map[*val]bool, v *val) map[*val]bool {
	c := map[*val]bool{v: true}
	for w := range set {
		c[w] = true
	}
	return c
}

// pathRet emits a return of the results visible, giving r (when not nil)
// the value e.
func (g *gen) pathRet(visible map[*val]bool, r *val, e string) {
	pr := pathRet{over: map[*val]string{}, visible: visible}
	if r != nil {
		pr.over[r] = e
		g.soacs += strings.Count(e, "soac.")
	}
	g.emit("@PATHRET%d@", len(g.rets))
	g.rets = append(g.rets, pr)
}

// consume returns a SOAC expression consuming m: a scalar of m's type, or
// an array of it when arr is set.
func (g *gen) consume(m *val, arr bool) string {
	t := m.typ
	if arr {
		if g.chance(0.7) {
			return fmt.Sprintf("soac.Map(%s, %s)", m.name, g.lambda([]string{t}, t, g.scalars()))
		}
		ne, op := g.operator(t)
		return fmt.Sprintf("soac.Scan(%s, %s, %s)", m.name, ne, op)
	}
	in := m.name
	if g.chance(0.5) {
		in = fmt.Sprintf("soac.Map(%s, %s)", m.name, g.lambda([]string{t}, t, g.scalars()))
	}
	ne, op := g.operator(t)
	return fmt.Sprintf("soac.Reduce(%s, %s, %s)", in, ne, op)
}

// pathBranch emits an if (one arm) or a switch (one to three cases, on
// len(a)%3, on k or on conditions) whose i-th arm arm writes.
func (g *gen) pathBranch(a *val, arms int, arm func(i int)) {
	body := func(i int) {
		g.depth++
		arm(i)
		g.depth--
	}
	if arms == 1 && g.chance(0.6) {
		g.emit("if %s {", g.pathCond(a))
		body(0)
		g.emit("}")
		return
	}
	var tag string
	var labels []string
	switch n := g.pick(3); {
	case n == 0:
		tag, labels = fmt.Sprintf("len(%s) %% 3", a.name), []string{"0", "1", "2"}
	case n == 1 && g.val("k") != nil:
		tag = "k"
		for _, i := range g.r.Perm(5) {
			labels = append(labels, strconv.Itoa(i-1))
		}
	default:
		for range arms {
			labels = append(labels, g.pathCond(a))
		}
	}
	g.r.Shuffle(len(labels), func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
	if tag != "" {
		tag += " "
	}
	g.emit("switch %s{", tag)
	for i := range arms {
		g.emit("case %s:", labels[i])
		body(i)
	}
	g.emit("}")
}

// pathCond returns a condition of the spec's parameters or a's length.
func (g *gen) pathCond(a *val) string {
	cs := []string{fmt.Sprintf("len(%s)%%2 == 0", a.name), fmt.Sprintf("len(%s) > 3", a.name)}
	if g.val("k") != nil {
		cs = append(cs, "k > 0", "k%2 == 0", "k < 2")
	}
	if g.cfg.FlagBranches {
		cs = append(cs, "flag", "!flag")
	}
	return cs[g.pick(len(cs))]
}

// closureCall emits a closure-call shape of kind k and returns the
// closure's variable, the kind and the shape's result; "" when the spec
// has no array to read.
func (g *gen) closureCall(k ShapeKind) (string, ShapeKind, []*val) {
	as := g.arrays(func(v *val) bool { return v.typ == "int64" || v.typ == "float64" })
	if len(as) == 0 {
		return "", k, nil
	}
	a := g.choose(as)
	t, u := a.typ, mapTypes[g.pick(2)]
	// The call: 0 at the top level, in a Map's lambda 1 of a replicated
	// row, 2 of an Iota, 3 of a row of a Map of rows.
	form := g.pick(4)
	if k == ClosureShadowed && form == 0 {
		form = 1 + g.pick(3) // a name can be shadowed in a lambda only
	}
	et := t
	if form == 2 {
		et = "int"
	}
	c := g.fresh("c")
	if u == "int64" {
		g.emit("%s := int64(len(%s)%%4 + 1)", c, a.name)
	} else {
		g.emit("%s := float64(len(%s)) / 4", c, a.name)
	}
	lit := func() string {
		e := g.expr(u, append(g.scalars(), leaf{"v", et, nil}), 2)
		return fmt.Sprintf("func(r []%[1]s) []%[2]s { return soac.Map(r, func(v %[1]s) %[2]s { return %[3]s + %[4]s }) }", et, u, e, c)
	}
	inc := g.fresh("inc")
	g.emit("%s := %s", inc, lit())
	if k == ClosureReassigned {
		if g.chance(0.5) {
			g.emit("if %s { %s = %s }", g.pathCond(a), inc, lit())
		} else {
			g.emit("%s = %s", inc, lit())
		}
	}
	ne, op := g.operator(u)
	r := &val{name: g.fresh("r"), typ: u, arr: true}
	n := "3"
	if t == "int64" && g.chance(0.5) {
		n = "int(x & 3)"
	}
	switch form {
	case 0:
		switch g.pick(3) {
		case 0:
			r.arr = false
			g.emit("%s := soac.Reduce(%s(%s), %s, %s)", r.name, inc, a.name, ne, op)
		case 1:
			g.emit("%s := soac.Map(%s(%s), %s)", r.name, inc, a.name, g.lambda([]string{u}, u, g.scalars()))
		default:
			g.emit("%s := soac.Scan(%s(%s), %s, %s)", r.name, inc, a.name, ne, op)
		}
	case 1, 2:
		row := fmt.Sprintf("soac.Replicate(%s, x)", n)
		if form == 2 {
			row = fmt.Sprintf("soac.Iota(%s)", n)
		}
		shadow, tail := "", ""
		if k == ClosureShadowed {
			shadow, tail = fmt.Sprintf("%s := %s(len(row)); ", c, u), " + "+c
		}
		g.emit("%s := soac.Map(%s, func(x %s) %s { row := %s; %sreturn soac.Reduce(%s(row), %s, %s)%s })",
			r.name, a.name, t, u, row, shadow, inc, ne, op, tail)
	default:
		rows := g.fresh("rows")
		g.emit("%s := soac.Map(%s, func(x %s) []%s { return soac.Replicate(%s, x) })", rows, a.name, t, t, n)
		p := "row"
		if k == ClosureShadowed {
			p = c // the row parameter is named like the scalar inc reads
		}
		g.emit("%s := soac.Map(%s, func(%s []%s) %s { return soac.Reduce(%s(%s), %s, %s) })", r.name, rows, p, t, u, inc, p, ne, op)
	}
	return inc, k, []*val{r}
}
