package randpipe

// This file generates the reassignment shapes: SOAC chains whose
// variables are assigned again, in loops (counted and range loops, a
// scalar result read by a lambda of the next round), behind a condition,
// through tuple swaps (double buffers), by self-assignment, by a local
// function that assigns a captured slice variable, and scalars computed
// by one kernel and captured by a lambda of a SOAC that could otherwise
// fuse with an earlier kernel. Unlike hazards, a shape has no expected
// refusal: every fusion the engine may choose must compute what the spec
// does, which the differential tests check on every backend.
//
// The statements of a shape work on a group of variables of one element
// type and one length class (so every Map2 of two of them has equal
// lengths and every reassignment keeps the class the rest of the spec
// relies on). Every lambda is pure and every operator associative with
// its neutral element, as the contract asks of the caller.

import (
	"fmt"
	"strings"
)

// ShapeKind is a kind of reassignment shape. A spec records every kind
// its statements exercise (one statement may exercise several).
type ShapeKind int

// The shape kinds.
const (
	LoopCounted   ShapeKind = iota // a SOAC chain in `for it := ...; it < n; it++`
	LoopRange                      // a SOAC chain in a range loop (over an int or a slice)
	LoopCarried                    // a lambda in a loop reads a scalar a later SOAC of the loop assigns (the previous round's value)
	ReassignRead                   // a SOAC's result assigned to a variable it or an earlier SOAC reads (xs = Map(xs, f))
	CondReassign                   // `if c { a = soac.Map(a, f) }` between a producer and a consumer of a
	DoubleBuffer                   // `a, b = b, a` or `a, b = b, soac.Map(a, f)`
	SelfAssign                     // `a = a` of a SOAC's input or output
	ClosureAssign                  // a local func assigning a captured slice or scalar, called between SOACs
	CrossCapture                   // scalars of one kernel captured by lambdas of SOACs that could fuse with another
	numShapes
)

var shapeNames = [numShapes]string{"loop-counted", "loop-range", "loop-carried", "reassign-read",
	"cond-reassign", "double-buffer", "self-assign", "closure-assign", "cross-capture"}

func (k ShapeKind) String() string {
	switch {
	case k >= 0 && k < numShapes:
		return shapeNames[k]
	case k >= numShapes && k < numAllShapes:
		return pathShapeNames[k-numShapes]
	}
	return fmt.Sprintf("ShapeKind(%d)", int(k))
}

// AllShapes returns every reassignment shape kind, those Config.Shapes
// chooses among (the path shapes are PathShapes').
func AllShapes() []ShapeKind {
	var ks []ShapeKind
	for k := ShapeKind(0); k < numShapes; k++ {
		ks = append(ks, k)
	}
	return ks
}

// ParseShape returns the kind named s.
func ParseShape(s string) (ShapeKind, bool) {
	for k := ShapeKind(0); k < numAllShapes; k++ {
		if k.String() == s {
			return k, true
		}
	}
	return -1, false
}

// shapeOn reports whether cfg.Shapes has k (ReassignRead is the
// statement every shape falls back on).
func (g *gen) shapeOn(k ShapeKind) bool {
	for _, s := range g.cfg.Shapes {
		if s == k {
			return true
		}
	}
	return false
}

// tag records that the spec exercises shape k.
func (g *gen) tag(k ShapeKind) {
	for _, s := range g.spec.Shapes {
		if s == k {
			return
		}
	}
	g.spec.Shapes = append(g.spec.Shapes, k)
}

// group is the state of one shape: arrays of element type t and length
// class cls, and scalars of type t, each a val of the spec.
type group struct {
	t      string
	cls    int
	arrs   []*val
	scs    []*val
	extra  []leaf // further lambda leaves (a loop's variables)
	inLoop bool
	// assigned are the scalars assigned so far in the current loop body:
	// a lambda reading one before its assignment reads the previous
	// round's value (LoopCarried).
	assigned map[*val]bool
	closure  string // the local func of a ClosureAssign, once declared
}

// stepShape emits one shape of a kind of cfg.Shapes. It reports false
// when the spec has no array to start from.
func (g *gen) stepShape() bool {
	as := g.arrays(func(v *val) bool { return (v.typ == "int64" || v.typ == "float64") && v.cls >= 0 })
	if len(as) == 0 {
		return false
	}
	src := g.choose(as)
	g.clearInl()
	k := g.cfg.Shapes[g.pick(len(g.cfg.Shapes))]
	gr := &group{t: src.typ, cls: src.cls, assigned: map[*val]bool{}}
	if k == CrossCapture {
		g.crossCapture(src)
		g.clearInl()
		return true
	}
	g.groupVars(gr, src)
	switch k {
	case LoopCounted, LoopRange, LoopCarried:
		if k == LoopCarried {
			k = []ShapeKind{LoopCounted, LoopRange}[g.pick(2)]
		}
		g.loop(gr, k)
	case ClosureAssign:
		g.closureShape(gr)
	default:
		// Straight-line statements, sometimes with the shape's own kind
		// first.
		g.shapeStmt(gr, k)
		for n := g.pick(3); n > 0; n-- {
			g.shapeStmt(gr, -1)
		}
	}
	g.finishGroup(gr)
	g.clearInl()
	return true
}

// groupVars declares the shape's variables: src itself (a parameter or an
// earlier local that may be reassigned: no hazard in the spec reads it)
// or copies of it, one or two more arrays, and one or two scalars.
func (g *gen) groupVars(gr *group, src *val) {
	first := src
	if !g.canReassign(src) || g.chance(0.5) {
		name := g.fresh("a")
		if g.chance(0.5) {
			g.emit("%s := %s", name, g.ref(src))
		} else {
			lam := g.lambda([]string{src.typ}, src.typ, g.scalars())
			g.soacs++
			g.emit("%s := soac.Map(%s, %s)", name, g.ref(src), lam)
		}
		first = g.define(name, gr.t, true, gr.cls, "")
	}
	gr.arrs = append(gr.arrs, first)
	for n := 1 + g.pick(2); n > 0; n-- {
		name := g.fresh("a")
		base := gr.arrs[g.pick(len(gr.arrs))]
		switch g.pick(3) {
		case 0:
			g.emit("%s := %s", name, g.ref(base))
		case 1:
			ne, op := g.operator(gr.t)
			g.soacs++
			g.emit("%s := soac.Scan(%s, %s, %s)", name, g.ref(base), ne, op)
		default:
			lam := g.lambda([]string{gr.t}, gr.t, g.scalars())
			g.soacs++
			g.emit("%s := soac.Map(%s, %s)", name, g.ref(base), lam)
		}
		gr.arrs = append(gr.arrs, g.define(name, gr.t, true, gr.cls, ""))
	}
	for n := 1 + g.pick(2); n > 0; n-- {
		name := g.fresh("s")
		if g.chance(0.5) {
			ne, op := g.operator(gr.t)
			g.soacs++
			g.emit("%s := soac.Reduce(%s, %s, %s)", name, g.ref(gr.arrs[g.pick(len(gr.arrs))]), ne, op)
		} else if gr.t == "float64" {
			g.emit("%s := %s", name, []string{"0.0", "1.5", "(-2.25)"}[g.pick(3)])
		} else {
			g.emit("%s := int64(%d)", name, g.pick(7)-2)
		}
		gr.scs = append(gr.scs, g.define(name, gr.t, false, 0, ""))
	}
	for _, v := range append(append([]*val(nil), gr.arrs...), gr.scs...) {
		v.captured = true // reassigned by the shape: never reused by bind
	}
}

// canReassign reports whether the shape may assign v itself: a value of
// a spec without hazard (a hazard names its inputs by their Go names),
// never a value a lambda captures outside the shape.
func (g *gen) canReassign(v *val) bool {
	return g.hz < 0 && !v.captured && v.inl == ""
}

// finishGroup makes the shape's variables values of the spec whose last
// assignment nobody has read yet: results, unless later steps read them.
func (g *gen) finishGroup(gr *group) {
	for _, v := range append(append([]*val(nil), gr.arrs...), gr.scs...) {
		v.uses = 0
		v.avail = true
		v.inl = ""
	}
}

// leaves returns what a lambda of the shape may read: the spec's scalars
// (the group's among them) and the loop's variables.
func (g *gen) leaves(gr *group) []leaf { return append(g.scalars(), gr.extra...) }

// lam returns a lambda of the group's type over n parameters. In a loop,
// a lambda reading a group scalar the body assigns later reads the
// previous round's value (LoopCarried).
func (g *gen) lam(gr *group, n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = gr.t
	}
	before := make([]int, len(gr.scs))
	for i, s := range gr.scs {
		before[i] = s.uses
	}
	l := g.lambda(ps, gr.t, g.leaves(gr))
	for i, s := range gr.scs {
		if gr.inLoop && s.uses > before[i] && !gr.assigned[s] {
			g.tag(LoopCarried)
		}
	}
	return l
}

// capLam returns a lambda of one parameter that surely reads scalar s
// (plus what the random expression reads).
func (g *gen) capLam(gr *group, s *val) string {
	ls := append(g.leaves(gr), leaf{"v", gr.t, nil})
	e := g.expr(gr.t, withoutLeaf(ls, "v"), 1)
	s.uses++
	if gr.inLoop && !gr.assigned[s] {
		g.tag(LoopCarried)
	}
	return fmt.Sprintf("func(v %[1]s) %[1]s { return v*2 - %[2]s + (%[3]s) }", gr.t, s.name, e)
}

// arr returns a random array of the group, counting a read.
func (g *gen) arr(gr *group) *val {
	a := gr.arrs[g.pick(len(gr.arrs))]
	a.uses++
	return a
}

// shapeStmt emits one statement of the group: of kind k, or of a random
// kind when k < 0. Every statement keeps the group's type and length
// class.
func (g *gen) shapeStmt(gr *group, k ShapeKind) {
	if k < 0 {
		k = []ShapeKind{ReassignRead, ReassignRead, ReassignRead, CondReassign, DoubleBuffer, SelfAssign}[g.pick(6)]
		if !g.shapeOn(k) {
			k = ReassignRead
		}
	}
	switch k {
	case CondReassign:
		a, b := g.arr(gr), g.arr(gr)
		lam := g.lam(gr, 1)
		g.soacs++
		g.emit("if %s { %s = soac.Map(%s, %s) }", g.shapeCond(gr), a.name, b.name, lam)
	case DoubleBuffer:
		if len(gr.arrs) < 2 {
			g.shapeStmt(gr, ReassignRead)
			return
		}
		i := g.pick(len(gr.arrs))
		j := (i + 1 + g.pick(len(gr.arrs)-1)) % len(gr.arrs)
		a, b := gr.arrs[i], gr.arrs[j]
		a.uses++
		b.uses++
		if g.chance(0.5) {
			g.emit("%s, %s = %s, %s", a.name, b.name, b.name, a.name)
		} else {
			lam := g.lam(gr, 1)
			g.soacs++
			g.emit("%s, %s = %s, soac.Map(%s, %s)", a.name, b.name, b.name, a.name, lam)
		}
	case SelfAssign:
		a := g.arr(gr)
		if g.chance(0.3) {
			s := gr.scs[g.pick(len(gr.scs))]
			s.uses++
			g.emit("%s = %s", s.name, s.name)
		} else {
			g.emit("%s = %s", a.name, a.name)
		}
		// The read after the self-assignment.
		b := g.arr(gr)
		if g.chance(0.5) {
			lam := g.lam(gr, 1)
			g.soacs++
			g.emit("%s = soac.Map(%s, %s)", b.name, a.name, lam)
		} else {
			s := gr.scs[g.pick(len(gr.scs))]
			ne, op := g.operator(gr.t)
			g.soacs++
			g.emit("%s = soac.Reduce(%s, %s, %s)", s.name, a.name, ne, op)
			gr.assigned[s] = true
		}
	default: // ReassignRead
		a := g.arr(gr)
		switch g.pick(5) {
		case 0, 1:
			lam := g.lam(gr, 1)
			g.soacs++
			g.emit("%s = soac.Map(%s, %s)", a.name, g.arr(gr).name, lam)
		case 2:
			lam := g.lam(gr, 2)
			g.soacs++
			g.emit("%s = soac.Map2(%s, %s, %s)", a.name, g.arr(gr).name, g.arr(gr).name, lam)
		case 3:
			ne, op := g.operator(gr.t)
			g.soacs++
			g.emit("%s = soac.Scan(%s, %s, %s)", a.name, g.arr(gr).name, ne, op)
		default:
			// A scalar assigned by the SOAC whose lambda reads it.
			s := gr.scs[g.pick(len(gr.scs))]
			ne, op := g.operator(gr.t)
			lam := g.capLam(gr, s)
			g.soacs += 2
			g.emit("%s = soac.Reduce(soac.Map(%s, %s), %s, %s)", s.name, a.name, lam, ne, op)
			gr.assigned[s] = true
		}
	}
	g.tag(k)
}

// shapeCond returns a condition of the spec's parameters or the group's
// scalars.
func (g *gen) shapeCond(gr *group) string {
	if g.chance(0.5) {
		s := gr.scs[g.pick(len(gr.scs))]
		s.uses++
		return fmt.Sprintf("%s > %s", s.name, map[string]string{"int64": "2", "float64": "0.5"}[gr.t])
	}
	a := gr.arrs[g.pick(len(gr.arrs))]
	a.uses++
	return fmt.Sprintf("len(%s)%%2 == %d", a.name, g.pick(2))
}

// loop emits a counted or range loop whose body reassigns the group's
// arrays and ends by assigning each of its scalars from them (a Map then
// a Reduce, as in an iterative solver), so that a lambda of the body
// reading a scalar reads the previous round's value.
func (g *gen) loop(gr *group, k ShapeKind) {
	head := len(g.lines)
	g.emit("") // the loop's header, written once the body is known
	g.depth++
	gr.inLoop = true
	itv := &val{name: "it", typ: "int"}
	var hdr string
	var iterLeaf leaf
	switch {
	case k == LoopCounted && g.has("k"):
		iterLeaf = leaf{"it", "int64", itv}
		hdr = "for it := int64(0); it < k; it++ {"
		g.val("k").uses++
	case k == LoopCounted:
		n := 1 + g.pick(4)
		iterLeaf = leaf{"it", "int", itv}
		hdr = fmt.Sprintf("for it := 0; it < %d; it++ {", n)
	case g.chance(0.5):
		n := []string{"2", "3", "int(k&3)"}[g.pick(3)]
		if n == "int(k&3)" && !g.has("k") {
			n = "3"
		}
		iterLeaf = leaf{"it", "int", itv}
		hdr = fmt.Sprintf("for it := range %s {", n)
	default:
		// Over at most three elements of one of the group's arrays, read
		// once when the loop starts (Go evaluates the range expression
		// once).
		b := gr.arrs[g.pick(len(gr.arrs))]
		b.uses++
		iterLeaf = leaf{"it", gr.t, itv}
		hdr = fmt.Sprintf("for _, it := range %[1]s[:min(len(%[1]s), 3)] {", b.name)
	}
	gr.extra = []leaf{iterLeaf}
	for n := 1 + g.pick(3); n > 0; n-- {
		g.shapeStmt(gr, -1)
	}
	// The solver's step: each scalar from the arrays, often through a Map
	// that reads the previous round's scalars.
	for _, s := range gr.scs {
		a := g.arr(gr)
		ne, op := g.operator(gr.t)
		if g.chance(0.5) {
			lam := g.capLam(gr, gr.scs[g.pick(len(gr.scs))])
			g.soacs += 2
			g.emit("%s = soac.Reduce(soac.Map(%s, %s), %s, %s)", s.name, a.name, lam, ne, op)
		} else {
			g.soacs++
			g.emit("%s = soac.Reduce(%s, %s, %s)", s.name, a.name, ne, op)
		}
		gr.assigned[s] = true
	}
	if g.chance(0.5) {
		g.shapeStmt(gr, -1)
	}
	g.depth--
	if itv.uses == 0 {
		hdr = strings.Replace(strings.Replace(hdr, "for _, it := range", "for range", 1), "for it := range", "for range", 1)
		if strings.HasPrefix(hdr, "for it := 0;") {
			hdr = strings.Replace(hdr, "for it := 0; it < ", "for range ", 1)
			hdr = strings.Replace(hdr, "; it++", "", 1)
		}
	}
	g.lines[head] = strings.Repeat("\t", g.depth+1) + hdr
	g.emit("}")
	gr.inLoop = false
	gr.extra = nil
	g.tag(k)
}

// closureShape emits a local func that assigns one of the group's
// variables, and calls it between a producer reading the variable and a
// consumer, sometimes in a loop.
func (g *gen) closureShape(gr *group) {
	f := g.fresh("upd")
	a := g.arr(gr)
	var body string
	switch g.pick(3) {
	case 0:
		lam := g.lam(gr, 1)
		g.soacs++
		body = fmt.Sprintf("%s = soac.Map(%s, %s)", a.name, a.name, lam)
	case 1:
		b := g.arr(gr)
		body = fmt.Sprintf("%s = %s", a.name, b.name)
		if b == a {
			ne, op := g.operator(gr.t)
			g.soacs++
			body = fmt.Sprintf("%s = soac.Scan(%s, %s, %s)", a.name, a.name, ne, op)
		}
	default:
		s := gr.scs[g.pick(len(gr.scs))]
		ne, op := g.operator(gr.t)
		g.soacs++
		body = fmt.Sprintf("%s = soac.Reduce(%s, %s, %s)", s.name, a.name, ne, op)
	}
	g.emit("%s := func() { %s }", f, body)
	// A producer reading the group, the call, a consumer.
	g.shapeStmt(gr, ReassignRead)
	if g.chance(0.3) {
		g.emit("for range 2 { %s() }", f)
	} else {
		g.emit("%s()", f)
	}
	g.shapeStmt(gr, -1)
	g.tag(ClosureAssign)
}

// crossCapture emits the shape of kernels that depend on each other
// through captured scalars: v0 := Map(src); scalars reduced from src,
// v0 or a Map of them; then SOACs over src or v0 (which could fuse with
// the scalars' kernels) whose lambdas read some of the scalars, in random
// order.
func (g *gen) crossCapture(src *val) {
	t := src.typ
	v0 := g.fresh("a")
	g.soacs++
	g.emit("%s := soac.Map(%s, %s)", v0, g.ref(src), g.lambda([]string{t}, t, g.scalars()))
	v0v := g.define(v0, t, true, src.cls, "")
	ins := []*val{src, v0v}
	var scs []*val
	for n := 2 + g.pick(2); n > 0; n-- {
		in := ins[g.pick(2)]
		ne, op := g.operator(t)
		name := g.fresh("s")
		in.uses++
		if g.chance(0.4) {
			g.soacs += 2
			g.emit("%s := soac.Reduce(soac.Map(%s, %s), %s, %s)", name, in.name, g.lambda([]string{t}, t, g.scalars()), ne, op)
		} else {
			g.soacs++
			g.emit("%s := soac.Reduce(%s, %s, %s)", name, in.name, ne, op)
		}
		scs = append(scs, g.define(name, t, false, 0, ""))
	}
	for n := 2 + g.pick(2); n > 0; n-- {
		in := ins[g.pick(2)]
		in.uses++
		// One to all of the scalars, the last ones likelier (they come
		// from kernels after the SOACs this one could fuse with).
		var terms []string
		for i, s := range scs {
			if g.chance(0.3) || i == len(scs)-1 && len(terms) == 0 || g.chance(0.3) && i >= len(scs)-2 {
				terms = append(terms, s.name)
				s.uses++
				s.captured = true
			}
		}
		e := g.expr(t, append(g.scalars(), leaf{"v", t, nil}), 1)
		body := fmt.Sprintf("v - %s + (%s)", strings.Join(terms, " + "), e)
		name := g.fresh("a")
		switch g.pick(4) {
		case 0, 1:
			g.soacs++
			g.emit("%s := soac.Map(%s, func(v %s) %s { return %s })", name, in.name, t, t, body)
			g.define(name, t, true, src.cls, "")
		case 2:
			ne, op := g.operator(t)
			g.soacs += 2
			g.emit("%s := soac.Reduce(soac.Map(%s, func(v %s) %s { return %s }), %s, %s)", name, in.name, t, t, body, ne, op)
			g.define(name, t, false, 0, "")
		default:
			g.soacs++
			g.emit("%s := soac.Filter(%s, func(v %s) bool { return %s > %s })", name, in.name, t, body, g.atom(t, nil))
			g.define(name, t, true, g.newCls(), "")
		}
	}
	g.tag(CrossCapture)
}

// has reports whether the spec has an available value named name.
func (g *gen) has(name string) bool { return g.val(name) != nil }

// val returns the available value named name, or nil.
func (g *gen) val(name string) *val {
	for _, v := range g.vals {
		if v.name == name && v.avail {
			return v
		}
	}
	return nil
}
