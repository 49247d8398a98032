package randpipe

// This file injects hazards: statements between a producer and its
// consumer that make fusing them change what the spec computes (or, for
// the branch and panic kinds, that the generated code must handle).

import "fmt"

// HazardKind is a kind of injected hazard.
type HazardKind int

// The hazard kinds.
const (
	WriteIndex      HazardKind = iota // xs[i] = v between producer (reading xs) and consumer
	WriteCopy                         // copy(xs, ...) between them
	WriteAppend                       // append into xs's capacity through a re-slice
	WriteSort                         // slices.Sort / sort.Slice of the producer's input
	WriteCall                         // a package function that writes its slice argument
	ReassignCapture                   // a variable the producer's lambda captures is reassigned (fused: the producer reads a copy)
	ReassignInput                     // the producer's input variable is reassigned
	ImpureCounter                     // the producer's lambda increments a counter a later lambda reads
	ImpureLog                         // producer and consumer lambdas append to one log
	BranchBoth                        // the producer is consumed in both branches of an if/else
	BranchNoElse                      // the producer is consumed in an if without else
	LoopConsumer                      // the consumer is inside a for loop, the producer outside
	Map2Filter                        // Map2 of a filter's output with the unfiltered array
	EarlyReturn                       // a possible return between producer and consumer
	IndexOOB                          // the producer's lambda may index out of range
	PanicOrder                        // two producers that may panic at different elements, zipped
	numKinds
)

var kindNames = [numKinds]string{"write-index", "write-copy", "write-append", "write-sort", "write-call",
	"reassign-capture", "reassign-input", "impure-counter", "impure-log", "branch-both", "branch-noelse",
	"loop", "map2-filter", "early-return", "index-oob", "panic-order"}

func (k HazardKind) String() string {
	if k < 0 || k >= numKinds {
		return fmt.Sprintf("HazardKind(%d)", int(k))
	}
	return kindNames[k]
}

// AllKinds returns every hazard kind.
func AllKinds() []HazardKind {
	var ks []HazardKind
	for k := HazardKind(0); k < numKinds; k++ {
		ks = append(ks, k)
	}
	return ks
}

// Expectation is what the fusion engine must decide about a hazard's
// producer and consumer.
type Expectation struct {
	// Rule is the refusal (fusion.Ref*) a note must carry, naming the
	// producer; "" when no refusal is required.
	Rule string
	// Apart requires producer and consumer in different kernels.
	Apart bool
	// Copied requires the producer in at least two kernels (branch copies).
	Copied bool
}

// Expected is the table hazard kind -> expected engine decision.
var Expected = map[HazardKind]Expectation{
	WriteIndex:      {Rule: "write-between", Apart: true},
	WriteCopy:       {Rule: "write-between", Apart: true},
	WriteAppend:     {Rule: "write-between", Apart: true},
	WriteSort:       {Rule: "write-between", Apart: true},
	WriteCall:       {Rule: "write-between", Apart: true},
	ReassignCapture: {Rule: "capture-reassigned", Apart: true},
	ReassignInput:   {Rule: "input-reassigned", Apart: true},
	ImpureCounter:   {Rule: "impure", Apart: true},
	ImpureLog:       {Rule: "impure", Apart: true},
	BranchBoth:      {Copied: true},
	BranchNoElse:    {Rule: "not-every-path", Apart: true},
	LoopConsumer:    {Rule: "loop-boundary", Apart: true},
	Map2Filter:      {Rule: "size-mismatch", Apart: true},
	EarlyReturn:     {Rule: "control-exit", Apart: true},
	IndexOOB:        {},
	PanicOrder:      {},
}

// Hazard is the hazard injected into a spec.
type Hazard struct {
	Kind HazardKind
	// Producer and Consumer are the Go variables the two SOACs bind.
	Producer, Consumer string
}

// hazProducer emits `p := soac.Map(in, lam)` over int64 and returns it.
func (g *gen) hazProducer(in string, lam string) *val {
	if lam == "" {
		lam = g.lambda([]string{"int64"}, "int64", nil)
	}
	name := g.fresh("p")
	g.soacs++
	g.emit("%s := soac.Map(%s, %s)", name, in, lam)
	v := g.define(name, "int64", true, 0, "")
	v.avail = false
	return v
}

// hazConsumer emits a consumer of p (a Reduce or a Map).
func (g *gen) hazConsumer(p *val, lam string) *val {
	p.uses++
	g.soacs++
	name := g.fresh("q")
	if lam == "" && g.chance(0.5) {
		ne, op := g.operator("int64")
		g.emit("%s := soac.Reduce(%s, %s, %s)", name, p.name, ne, op)
		return g.define(name, "int64", false, 0, "")
	}
	if lam == "" {
		lam = g.lambda([]string{"int64"}, "int64", g.scalars())
	}
	g.emit("%s := soac.Map(%s, %s)", name, p.name, lam)
	return g.define(name, "int64", true, 0, "")
}

// cond returns the condition of a hazard's branch or early return: a
// test of k when the spec has it, of the inputs' lengths otherwise.
func (g *gen) cond() string {
	for _, v := range g.vals {
		if v.name == "k" && v.avail {
			return []string{"k > 0", "k%2 == 0", "k < 3"}[g.pick(3)]
		}
	}
	return []string{"len(xs) > 3", "len(ys)%2 == 0", "len(xs) < 7"}[g.pick(3)]
}

// hazard emits one hazard of kind k and records it in the spec.
func (g *gen) hazard(k HazardKind) {
	g.clearInl()
	g.hzFrom = len(g.lines)
	h := &Hazard{Kind: k}
	g.spec.Hazard = h
	var p, c *val
	switch k {
	case WriteIndex, WriteCopy, WriteAppend, WriteSort, WriteCall:
		p, c = g.hazardWrite(k)
	case ReassignCapture, ReassignInput, ImpureCounter, ImpureLog:
		p, c = g.hazardChange(k)
	case BranchBoth, BranchNoElse, LoopConsumer, EarlyReturn:
		p, c = g.hazardControl(k)
	case Map2Filter, IndexOOB, PanicOrder:
		p, c = g.hazardPanic(k)
	}
	h.Producer, h.Consumer = p.name, c.name
	g.clearInl()
	g.hzTo = len(g.lines)
}

// hazardWrite emits a producer reading xs, a write to xs (an index, a
// copy, an append into its capacity, a sort, a call writing its argument)
// and a consumer of the producer.
func (g *gen) hazardWrite(k HazardKind) (p, c *val) {
	switch k {
	case WriteIndex:
		p = g.hazProducer("xs", "")
		if g.chance(0.3) {
			g.emit("xs[0] = 7") // panics on empty input, as the spec does
		} else {
			g.emit("if len(xs) > 1 { xs[1] = -7 }")
		}
		c = g.hazConsumer(p, "")
	case WriteCopy:
		p = g.hazProducer("xs", "")
		g.emit("%s", []string{"copy(xs, ys)", "copy(xs, xs[1:])", "copy(xs[len(xs)/2:], ys)"}[g.pick(3)])
		c = g.hazConsumer(p, "")
	case WriteAppend:
		h := g.fresh("hs")
		g.emit("%s := xs[:len(xs)/2]", h)
		p = g.hazProducer("xs", "")
		g.emit("%s = append(%s, 99)", h, h)
		c = g.hazConsumer(p, "")
	case WriteSort:
		p = g.hazProducer("xs", "")
		if g.chance(0.5) {
			g.pkg.imports["slices"] = true
			g.emit("slices.Sort(xs)")
		} else {
			g.pkg.imports["sort"] = true
			g.emit("sort.Slice(xs, func(i, j int) bool { return xs[i] > xs[j] })")
		}
		c = g.hazConsumer(p, "")
	case WriteCall:
		g.ensureHelper("bump", "func bump(v []int64, d int64) {\n\tfor i := range v {\n\t\tv[i] += d\n\t}\n}")
		p = g.hazProducer("xs", "")
		g.emit("bump(xs, 3)")
		c = g.hazConsumer(p, "")
	}
	return p, c
}

// hazardChange emits a producer and a consumer between which something
// the producer reads changes: a variable its lambda captures, its input
// variable, or a counter or log its lambda and a later one update.
func (g *gen) hazardChange(k HazardKind) (p, c *val) {
	switch k {
	case ReassignCapture:
		w := g.fresh("w")
		g.emit("%s := int64(len(ys)) + 1", w)
		p = g.hazProducer("xs", fmt.Sprintf("func(x int64) int64 { return x*2 + %s }", w))
		g.emit("%s = %s * 3", w, w)
		lam := ""
		if g.chance(0.5) {
			// The consumer reads the new value: it cannot move up to the
			// producer, which must read a copy of the old one.
			lam = fmt.Sprintf("func(v int64) int64 { return v - %s }", w)
		}
		c = g.hazConsumer(p, lam)
	case ReassignInput:
		p = g.hazProducer("xs", "")
		g.emit("xs = ys")
		if g.chance(0.5) {
			p.uses++
			g.soacs++
			name := g.fresh("q")
			g.emit("%s := soac.Map2(%s, xs, func(a, b int64) int64 { return a - b })", name, p.name)
			c = g.define(name, "int64", true, 0, "")
		} else {
			c = g.hazConsumer(p, "")
		}
	case ImpureCounter:
		cnt := g.fresh("cnt")
		g.emit("%s := int64(0)", cnt)
		cv := g.define(cnt, "int64", false, 0, "")
		cv.avail = false
		p = g.hazProducer("xs", fmt.Sprintf("func(x int64) int64 { %s++; return x + %s }", cnt, cnt))
		c = g.hazConsumer(p, fmt.Sprintf("func(v int64) int64 { return v*2 + %s }", cnt))
	case ImpureLog:
		lg := g.fresh("log")
		g.emit("var %s []int64", lg)
		lv := g.define(lg, "int64", true, -1, "")
		lv.avail = false
		p = g.hazProducer("xs", fmt.Sprintf("func(x int64) int64 { %s = append(%s, x); return x * 3 }", lg, lg))
		c = g.hazConsumer(p, fmt.Sprintf("func(v int64) int64 { %s = append(%s, -v); return v + 1 }", lg, lg))
	}
	return p, c
}

// hazardControl emits a producer and a consumer that control flow
// separates: the consumer in both branches of an if, in an if without
// else, in a loop, or after a possible return.
func (g *gen) hazardControl(k HazardKind) (p, c *val) {
	switch k {
	case BranchBoth:
		p = g.hazProducer("xs", "")
		r := g.fresh("r")
		g.emit("var %s int64", r)
		ne1, op1 := g.operator("int64")
		ne2, op2 := g.operator("int64")
		lam := g.lambda([]string{"int64"}, "int64", nil)
		g.soacs += 3
		g.emit("if %s { %s = soac.Reduce(%s, %s, %s) } else { %s = soac.Reduce(soac.Map(%s, %s), %s, %s) }",
			g.cond(), r, p.name, ne1, op1, r, p.name, lam, ne2, op2)
		p.uses++
		c = g.define(r, "int64", false, 0, "")
	case BranchNoElse:
		p = g.hazProducer("xs", "")
		r := g.fresh("r")
		g.emit("%s := int64(-1)", r)
		ne, op := g.operator("int64")
		g.soacs++
		g.emit("if %s { %s = soac.Reduce(%s, %s, %s) }", g.cond(), r, p.name, ne, op)
		p.uses++
		c = g.define(r, "int64", false, 0, "")
	case LoopConsumer:
		p = g.hazProducer("xs", "")
		r := g.fresh("acc")
		g.emit("var %s int64", r)
		ne, op := g.operator("int64")
		g.soacs++
		if g.chance(0.5) {
			g.emit("for i := 0; i < 3; i++ { %s += soac.Reduce(%s, %s, %s) * int64(i+1) }", r, p.name, ne, op)
		} else {
			g.emit("for i := range 2 { %s = %s*5 + soac.Reduce(%s, %s, %s) + int64(i) }", r, r, p.name, ne, op)
		}
		p.uses++
		c = g.define(r, "int64", false, 0, "")
	case EarlyReturn:
		p = g.hazProducer("xs", "")
		g.emit("if %s { @RETURN@ }", g.cond())
		c = g.hazConsumer(p, "")
	}
	return p, c
}

// hazardPanic emits a producer and a consumer that may panic: a zip of
// a filter's output with the unfiltered array (unequal lengths), a lambda
// indexing out of range, two of them zipped.
func (g *gen) hazardPanic(k HazardKind) (p, c *val) {
	switch k {
	case Map2Filter:
		f := g.fresh("p")
		pred := []string{"func(x int64) bool { return x > -100 }", "func(x int64) bool { return x%2 == 0 }", "func(x int64) bool { return x != 3 }"}[g.pick(3)]
		g.soacs += 2
		g.emit("%s := soac.Filter(xs, %s)", f, pred)
		p = g.define(f, "int64", true, g.newCls(), "")
		p.avail = false
		p.uses++
		q := g.fresh("q")
		if g.chance(0.5) {
			g.emit("%s := soac.Map2(%s, xs, func(a, b int64) int64 { return a*10 + b })", q, f)
		} else {
			g.emit("%s := soac.Map2(xs, %s, func(a, b int64) int64 { return a - 2*b })", q, f)
		}
		c = g.define(q, "int64", true, p.cls, "")
	case IndexOOB:
		p = g.hazProducer("xs", "func(x int64) int64 { return x + ys[x&7] }")
		c = g.hazConsumer(p, "")
	case PanicOrder:
		p = g.hazProducer("xs", "func(x int64) int64 { return ys[x&7] * 2 }")
		b := g.hazProducer("ys", "func(y int64) int64 { return xs[(y>>1)&7] + 1 }")
		p.uses++
		b.uses++
		g.soacs++
		q := g.fresh("q")
		g.emit("%s := soac.Map2(%s, %s, func(a, b int64) int64 { return a + b })", q, p.name, b.name)
		c = g.define(q, "int64", true, 0, "")
	}
	return p, c
}

// ensureHelper adds a package-level function once.
func (g *gen) ensureHelper(key, src string) {
	if _, ok := g.pkg.helperOf[key]; ok {
		return
	}
	g.pkg.helperOf[key] = key
	g.pkg.helpers = append(g.pkg.helpers, src)
}
