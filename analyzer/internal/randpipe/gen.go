package randpipe

// This file is the spec generator: packages, specs, the random DAG of SOAC
// statements and its rendering. Lambdas and expressions are in expr.go,
// hazards in hazard.go.

import (
	"fmt"
	"go/format"
	"math/rand/v2"
	"sort"
	"strings"
)

// Config says what Generate makes.
type Config struct {
	// Package is the package name; "" gives "rp<seed>".
	Package string
	// Specs is the number of spec functions (default 10).
	Specs int
	// MinOps and MaxOps bound the number of random SOAC steps of a spec
	// (defaults 3 and 8); a hazard adds its own statements.
	MinOps, MaxOps int
	// HazardRate is the fraction of specs that carry a hazard (default
	// 0.5; negative means none).
	HazardRate float64
	// Kinds restricts the hazards to these kinds (nil: all).
	Kinds []HazardKind
	// ShapeRate is the fraction of specs that carry reassignment shapes
	// (shapes.go), one or two each (default 0: none).
	ShapeRate float64
	// Shapes restricts the shapes to these kinds (nil: all).
	Shapes []ShapeKind
}

func (c Config) withDefaults(seed int64) Config {
	if c.Package == "" {
		c.Package = fmt.Sprintf("rp%d", seed)
	}
	if c.Specs <= 0 {
		c.Specs = 10
	}
	if c.MinOps <= 0 {
		c.MinOps = 3
	}
	if c.MaxOps < c.MinOps {
		c.MaxOps = max(8, c.MinOps)
	}
	if c.HazardRate == 0 {
		c.HazardRate = 0.5
	}
	if len(c.Kinds) == 0 {
		c.Kinds = AllKinds()
	}
	if len(c.Shapes) == 0 {
		c.Shapes = AllShapes()
	}
	return c
}

// Package is one generated package.
type Package struct {
	Name   string // the package name
	Seed   int64
	Source []byte // the gofmt-formatted Go file (name it Name+".go")
	Specs  []Spec
}

// Spec describes one generated spec function.
type Spec struct {
	Func    string  // the spec's Go name
	Name    string  // the NAME of its //soac:fuse directive
	Params  []Param // in order
	Results []string
	// SOACs is the number of combinator calls written in the spec (at any
	// depth, lambdas included).
	SOACs  int
	Hazard *Hazard // nil when the spec has none
	// Shapes are the reassignment shapes the spec exercises (shapes.go),
	// in the order they first appear.
	Shapes []ShapeKind
}

// Param is a spec parameter. Type is one of []int64, []float64, int64,
// float64.
type Param struct{ Name, Type string }

// val is a value of the spec body: an array or a scalar bound to a Go
// variable.
type val struct {
	name  string
	typ   string // the element type of an array, the type of a scalar
	arr   bool
	cls   int // arrays: length class (0: the inputs' length); scalars: unused
	uses  int
	avail bool // may be an input of later steps
	// inl is the call expression that defined the value when its
	// definition is the last line written so far and it may be inlined
	// into its single consumer.
	inl     string
	inlLine int
	param   bool
	// captured reports that a lambda reads the variable (it must not be
	// reassigned other than by a hazard).
	captured bool
}

func (v *val) goType() string {
	if v.arr {
		return "[]" + v.typ
	}
	return v.typ
}

// pkgGen holds package-level state: helpers and imports.
type pkgGen struct {
	helpers  []string          // source of named helper functions
	helperOf map[string]string // signature key -> helper name
	imports  map[string]bool
}

// gen builds one spec.
type gen struct {
	r     *rand.Rand
	cfg   Config
	pkg   *pkgGen
	lines []string
	depth int // indentation (blocks), for rendering only
	vals  []*val
	next  int
	cls   int // next fresh length class
	spec  *Spec
	soacs int
	// constCls maps an Iota/Replicate constant length to its class.
	constCls map[int]int
	ret      []string   // result expressions, set at the end
	hz       HazardKind // the spec's hazard kind, -1 when none
}

// Generate returns a random package of cfg.Specs specs. The same seed and
// cfg give the same package.
func Generate(seed int64, cfg Config) Package {
	cfg = cfg.withDefaults(seed)
	r := rand.New(rand.NewPCG(uint64(seed), 0x5eed50ac))
	pg := &pkgGen{helperOf: map[string]string{}, imports: map[string]bool{}}
	p := Package{Name: cfg.Package, Seed: seed}
	var bodies []string
	for i := 0; i < cfg.Specs; i++ {
		g := &gen{r: r, cfg: cfg, pkg: pg, cls: 1, constCls: map[int]int{}, hz: -1}
		sp := Spec{Func: fmt.Sprintf("spec%d", i), Name: fmt.Sprintf("Fused%d", i)}
		g.spec = &sp
		bodies = append(bodies, g.specSource())
		sp.SOACs = g.soacs
		p.Specs = append(p.Specs, sp)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// Code written by randpipe (seed %d); the specs are random.\n\n", seed)
	fmt.Fprintf(&b, "package %s\n\n", cfg.Package)
	b.WriteString("import (\n")
	var imps []string
	for imp := range pg.imports {
		imps = append(imps, imp)
	}
	sort.Strings(imps)
	for _, imp := range imps {
		fmt.Fprintf(&b, "\t%q\n", imp)
	}
	b.WriteString("\n\t\"github.com/soacgen/soacgen/runtime/soac\"\n)\n\n")
	for _, h := range pg.helpers {
		b.WriteString(h)
		b.WriteString("\n\n")
	}
	for _, body := range bodies {
		b.WriteString(body)
		b.WriteString("\n\n")
	}
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		panic(fmt.Sprintf("randpipe: seed %d: generated source does not parse: %v\n%s", seed, err, b.String()))
	}
	p.Source = src
	return p
}

// chance reports true with probability p.
func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) pick(n int) int { return g.r.IntN(n) }

func (g *gen) fresh(prefix string) string {
	g.next++
	return fmt.Sprintf("%s%d", prefix, g.next)
}

// emit writes one statement line (it may hold a whole if or for).
func (g *gen) emit(format string, args ...any) {
	g.lines = append(g.lines, strings.Repeat("\t", g.depth+1)+fmt.Sprintf(format, args...))
}

func (g *gen) specSource() string {
	sp := g.spec
	// Parameters.
	names := []Param{{"xs", "[]int64"}, {"ys", "[]int64"}, {"fs", "[]float64"}, {"gs", "[]float64"}, {"k", "int64"}, {"c", "float64"}}
	var hz HazardKind = -1
	if g.cfg.HazardRate > 0 && g.chance(g.cfg.HazardRate) {
		hz = g.cfg.Kinds[g.pick(len(g.cfg.Kinds))]
	}
	g.hz = hz
	shapes := 0
	if g.cfg.ShapeRate > 0 && g.chance(g.cfg.ShapeRate) {
		shapes = 1 + g.pick(2)
	}
	for i, p := range names {
		need := i == 0 && !g.chance(0.15) || i == 2 && g.chance(0.6) || g.chance(0.5)
		if shapes > 0 && p.Name == "k" && g.chance(0.7) {
			need = true // counted loops run k rounds
		}
		if hz >= 0 && (p.Name == "xs" || p.Name == "ys") {
			need = true // hazards work on the int64 inputs
		}
		if need {
			sp.Params = append(sp.Params, p)
		}
	}
	if len(sp.Params) == 0 || !strings.HasPrefix(sp.Params[0].Type, "[]") {
		sp.Params = append([]Param{{"fs", "[]float64"}}, sp.Params...)
	}
	for _, p := range sp.Params {
		v := &val{name: p.Name, typ: strings.TrimPrefix(p.Type, "[]"), arr: strings.HasPrefix(p.Type, "[]"), avail: true, param: true, uses: 1}
		g.vals = append(g.vals, v)
	}
	steps := g.cfg.MinOps + g.pick(g.cfg.MaxOps-g.cfg.MinOps+1)
	at := g.pick(steps + 1)
	shapeAt := map[int]bool{}
	for range shapes {
		shapeAt[g.pick(steps+1)] = true
	}
	for i := 0; i <= steps; i++ {
		if shapeAt[i] && !g.stepShape() {
			g.step()
			g.stepShape()
		}
		if i == at && hz >= 0 {
			g.hazard(hz)
			continue
		}
		if i < steps {
			g.step()
		}
	}
	// Results: every value nobody used, in definition order.
	var results []*val
	for _, v := range g.vals {
		if v.uses == 0 {
			results = append(results, v)
		}
	}
	if len(results) == 0 {
		// Every value is used: return the last one defined.
		results = append(results, g.vals[len(g.vals)-1])
	}
	var rtypes, rexprs, zeros []string
	for _, v := range results {
		rtypes = append(rtypes, v.goType())
		rexprs = append(rexprs, v.name)
		if v.arr {
			zeros = append(zeros, "nil")
		} else {
			zeros = append(zeros, "0")
		}
	}
	sp.Results = rtypes
	var b strings.Builder
	var ps []string
	for _, p := range sp.Params {
		ps = append(ps, p.Name+" "+p.Type)
	}
	res := strings.Join(rtypes, ", ")
	if len(rtypes) > 1 {
		res = "(" + res + ")"
	}
	if sp.Hazard != nil {
		fmt.Fprintf(&b, "// %s has hazard %s (producer %s, consumer %s).\n", sp.Func, sp.Hazard.Kind, sp.Hazard.Producer, sp.Hazard.Consumer)
	}
	if len(sp.Shapes) > 0 {
		var ns []string
		for _, k := range sp.Shapes {
			ns = append(ns, k.String())
		}
		fmt.Fprintf(&b, "// %s has shapes %s.\n", sp.Func, strings.Join(ns, ", "))
	}
	fmt.Fprintf(&b, "//\n//soac:fuse %s\nfunc %s(%s) %s {\n", sp.Name, sp.Func, strings.Join(ps, ", "), res)
	for _, l := range g.lines {
		l = strings.ReplaceAll(l, "@RETURN@", "return "+strings.Join(zeros, ", "))
		b.WriteString(l)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\treturn %s\n}", strings.Join(rexprs, ", "))
	return b.String()
}

// define records a new value bound by the line just emitted.
func (g *gen) define(name, typ string, arr bool, cls int, call string) *val {
	v := &val{name: name, typ: typ, arr: arr, cls: cls, avail: true}
	if call != "" {
		v.inl = call
		v.inlLine = len(g.lines) - 1
	}
	g.vals = append(g.vals, v)
	return v
}

// bind emits `name := call` in one of Go's forms and defines the value.
func (g *gen) bind(typ string, arr bool, cls int, call string) *val {
	goT := typ
	if arr {
		goT = "[]" + typ
	}
	// Reuse a name whose value is used up and never captured.
	if g.chance(0.1) {
		for _, v := range g.vals {
			if !v.param && v.uses > 0 && !v.captured && v.avail && v.arr == arr && v.typ == typ && v.inl == "" {
				v.avail = false
				g.emit("%s = %s", v.name, call)
				nv := g.define(v.name, typ, arr, cls, "")
				return nv
			}
		}
	}
	name := g.fresh(map[bool]string{true: "a", false: "s"}[arr])
	switch g.pick(10) {
	case 0:
		g.emit("var %s = %s", name, call)
		return g.define(name, typ, arr, cls, "")
	case 1:
		g.emit("var %s %s", name, goT)
		g.emit("%s = %s", name, call)
		return g.define(name, typ, arr, cls, "")
	default:
		g.emit("%s := %s", name, call)
		return g.define(name, typ, arr, cls, call)
	}
}

// use returns the text by which a step reads v: its name, or, when v was
// defined by the previous line and nothing else reads it, sometimes the
// defining call itself (a nested call).
func (g *gen) use(v *val) string {
	v.uses++
	if v.inl != "" && v.uses == 1 && v.inlLine == len(g.lines)-1 && g.chance(0.35) {
		g.lines = g.lines[:len(g.lines)-1]
		v.avail = false
		// The value is gone: mark it used so it is not returned.
		call := v.inl
		v.inl = ""
		return call
	}
	return v.name
}

// ref returns v's name for a read that is not a SOAC input.
func (g *gen) ref(v *val) string {
	v.uses++
	v.inl = ""
	return v.name
}

// clearInl forgets the inlining candidates (after lines that must stay
// between a producer and its consumer).
func (g *gen) clearInl() {
	for _, v := range g.vals {
		v.inl = ""
	}
}

// arrays returns the available arrays matching ok.
func (g *gen) arrays(ok func(*val) bool) []*val {
	var out []*val
	for _, v := range g.vals {
		if v.avail && v.arr && (ok == nil || ok(v)) {
			out = append(out, v)
		}
	}
	return out
}

// choose picks one of vs, preferring values nobody used yet.
func (g *gen) choose(vs []*val) *val {
	var fresh []*val
	for _, v := range vs {
		if v.uses == 0 {
			fresh = append(fresh, v)
		}
	}
	if len(fresh) > 0 && g.chance(0.7) {
		return fresh[g.pick(len(fresh))]
	}
	return vs[g.pick(len(vs))]
}

// scalars returns the available scalars as lambda leaves.
func (g *gen) scalars() []leaf {
	var out []leaf
	for _, v := range g.vals {
		if v.avail && !v.arr {
			out = append(out, leaf{v.name, v.typ, v})
		}
	}
	return out
}

func (g *gen) newCls() int { g.cls++; return g.cls }

// sameClass returns the available arrays of v's length class.
func (g *gen) sameClass(v *val) []*val {
	return g.arrays(func(w *val) bool { return w.cls == v.cls })
}

// elemTypes are the element types of generated arrays.
var mapTypes = []string{"int64", "float64"}

// step emits one random SOAC statement.
func (g *gen) step() {
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
