package randpipe

// This file is the spec generator: packages, specs, the order of a
// spec's random steps, hazard and shapes, and its rendering. The values a
// spec binds are in values.go, the combinators' steps in soacsteps.go,
// lambdas and expressions in expr.go, hazards in hazard.go.

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
	// FlagBranches gives every spec a bool parameter flag and steps that
	// reduce an array on one path of a branch on it, and take its length
	// on the other (optionalsteps.go).
	FlagBranches bool
	// ZipGenerators adds steps that zip an array with an Iota or a
	// Replicate of its length written inside the Map2 call, on either
	// side (optionalsteps.go).
	ZipGenerators bool
	// IndexedStreams adds StreamReds whose chunk functions read their
	// chunk by index (for i := range ch { v := ch[i] ... }), so that no
	// range loop can be fused with the maps feeding them, combining by
	// max as well as by +, ^ and | (optionalsteps.go).
	IndexedStreams bool
	// DivideRate is the fraction of specs whose int64 expressions may
	// divide by a value that may be zero, e / (x%5 + 1): their lambdas
	// may panic with "integer divide by zero", and the generated code
	// must panic as the spec does (default 0: none).
	DivideRate float64
	// NonAssociative lets reductions and scans of integers use operators
	// that are not associative (a*3 + b) or start from a value that is
	// not their operator's neutral element (max from -1 << 40, a + b
	// from 7). The contract promises both, so only the cpu backend, which
	// folds in the spec's order, must equal the spec on them.
	NonAssociative bool
	// ReturnPathRate and ClosureCallRate are the fractions of specs that
	// carry a return-path shape (a producer consumed in a branch that
	// returns and after it, or a twin the engine must not fuse so) and a
	// closure-call shape (a local closure returning a Map, called for a
	// SOAC's array argument, or a twin not seen through) (pathshapes.go).
	// They are drawn from a source of their own and inserted once the
	// spec's other steps are written, so that turning them on changes no
	// spec that does not get one (default 0: none).
	ReturnPathRate, ClosureCallRate float64
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
	// Divides reports that the spec's int64 expressions may divide by
	// zero (Config.DivideRate).
	Divides bool
	// Paths are the spec's path shapes (pathshapes.go) with the variable
	// each is about; their kinds are in Shapes too.
	Paths []PathShape
}

// Param is a spec parameter. Type is one of []int64, []float64, int64,
// float64, bool.
type Param struct{ Name, Type string }

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
	// divide reports that int64 expressions may divide by zero
	// (Config.DivideRate).
	divide bool
	// seed and idx (the spec's index in its package) seed the path
	// shapes' source; hzFrom and hzTo are the lines of the hazard (no
	// path shape goes between them).
	seed         int64
	idx          int
	hzFrom, hzTo int
	// plain makes lambdas literals and operators inline, so that the path
	// shapes add no helper and no line the package's other specs would
	// see (pathshapes.go).
	plain bool
	// rets are the returns of the path shapes, by the index their line's
	// @PATHRET<i>@ names.
	rets []pathRet
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
		g := &gen{r: r, cfg: cfg, pkg: pg, cls: 1, constCls: map[int]int{}, hz: -1, seed: seed, idx: i}
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
	if g.cfg.DivideRate > 0 && g.chance(g.cfg.DivideRate) {
		g.divide = true
		sp.Divides = true
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
		v := &val{name: p.Name, typ: strings.TrimPrefix(p.Type, "[]"), arr: strings.HasPrefix(p.Type, "[]"), avail: true, param: true, uses: 1, line: -1}
		g.vals = append(g.vals, v)
	}
	if g.cfg.FlagBranches {
		// Not a value: only the branches of stepFlagBranch read it.
		sp.Params = append(sp.Params, Param{"flag", "bool"})
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
	results = append(results, g.pathShapes(results)...)
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
	if sp.Divides {
		fmt.Fprintf(&b, "// %s may divide by zero.\n", sp.Func)
	}
	if len(sp.Shapes) > 0 {
		var ns []string
		for _, k := range sp.Shapes {
			ns = append(ns, k.String())
		}
		fmt.Fprintf(&b, "// %s has shapes %s.\n", sp.Func, strings.Join(ns, ", "))
	}
	for _, ps := range sp.Paths {
		fmt.Fprintf(&b, "// %s has path shape %s on %s.\n", sp.Func, ps.Kind, ps.Var)
	}
	fmt.Fprintf(&b, "//\n//soac:fuse %s\nfunc %s(%s) %s {\n", sp.Name, sp.Func, strings.Join(ps, ", "), res)
	for _, l := range g.lines {
		l = strings.ReplaceAll(l, "@RETURN@", "return "+strings.Join(zeros, ", "))
		l = g.pathReturn(l, results, zeros)
		b.WriteString(l)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\treturn %s\n}", strings.Join(rexprs, ", "))
	return b.String()
}
