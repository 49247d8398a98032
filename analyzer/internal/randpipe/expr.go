package randpipe

// This file generates the lambdas: arithmetic expressions over the
// lambda's parameters and captured scalars, in every form the contract
// allows (literal, multi-statement, early return, shadowing, named helper,
// local function variable), and the associative operators of reductions.

import (
	"fmt"
	"strings"
)

// leaf is a name an expression may read: a lambda parameter, or a captured
// scalar (v non-nil, so that reading it counts as a use).
type leaf struct {
	name, typ string
	v         *val
}

func (g *gen) leafText(l leaf) string {
	if l.v != nil {
		l.v.uses++
		l.v.captured = true
		l.v.inl = ""
	}
	return l.name
}

// atom returns a leaf or a constant of type t.
func (g *gen) atom(t string, ls []leaf) string {
	var same, conv []leaf
	for _, l := range ls {
		switch {
		case l.typ == t:
			same = append(same, l)
		case t == "int64" && l.typ == "int", t == "float64" && (l.typ == "int64" || l.typ == "int"):
			conv = append(conv, l)
		}
	}
	if len(same) > 0 && g.chance(0.75) {
		return g.leafText(same[g.pick(len(same))])
	}
	if len(conv) > 0 && g.chance(0.5) {
		l := conv[g.pick(len(conv))]
		return t + "(" + g.leafText(l) + ")"
	}
	switch t {
	case "float64":
		return []string{"1.5", "0.25", "2", "(-0.5)", "3.75", "0"}[g.pick(6)]
	case "bool":
		return g.expr("bool", ls, 1)
	}
	n := g.pick(12) - 3
	if n < 0 {
		return fmt.Sprintf("(%d)", n)
	}
	return fmt.Sprint(n)
}

// expr returns an expression of type t (int64, float64, int or bool) of at
// most depth operators over the leaves.
func (g *gen) expr(t string, ls []leaf, depth int) string {
	if t == "bool" {
		ct := "int64"
		for _, l := range ls {
			if l.v == nil && (l.typ == "float64" || l.typ == "int") {
				ct = l.typ // compare in the parameter's type
			}
		}
		a := g.expr(ct, ls, depth)
		switch g.pick(4) {
		case 0:
			if ct != "float64" {
				return fmt.Sprintf("%s%%%d == 0", a, 2+g.pick(2))
			}
			return fmt.Sprintf("%s > %s", a, g.atom(ct, ls))
		case 1:
			return fmt.Sprintf("%s < %s", a, g.atom(ct, ls))
		case 2:
			return fmt.Sprintf("%s >= %s", a, g.atom(ct, ls))
		default:
			return fmt.Sprintf("%s != %s", a, g.atom(ct, ls))
		}
	}
	if depth <= 0 || g.chance(0.3) {
		return g.atom(t, ls)
	}
	d := depth - 1
	e := func() string { return g.expr(t, ls, d) }
	switch t {
	case "int64":
		if g.divide && g.chance(0.3) {
			if q := g.divisor(ls); q != "" {
				return fmt.Sprintf("(%s %s %s)", e(), []string{"/", "%"}[g.pick(2)], q)
			}
		}
		switch g.pick(12) {
		case 0, 1:
			return fmt.Sprintf("(%s + %s)", e(), e())
		case 2:
			return fmt.Sprintf("(%s - %s)", e(), e())
		case 3:
			return fmt.Sprintf("(%s * %s)", e(), e())
		case 4:
			return fmt.Sprintf("(%s ^ %s)", e(), e())
		case 5:
			return fmt.Sprintf("(%s & %s)", e(), e())
		case 6:
			return fmt.Sprintf("(%s | %s)", e(), e())
		case 7:
			return fmt.Sprintf("(%s %% 7)", e())
		case 8:
			return fmt.Sprintf("(%s / 3)", e())
		case 9:
			return fmt.Sprintf("(%s >> 1)", e())
		case 10:
			return fmt.Sprintf("max(%s, %s)", e(), e())
		default:
			return fmt.Sprintf("(-%s)", e())
		}
	case "float64":
		switch g.pick(8) {
		case 0, 1:
			return fmt.Sprintf("(%s + %s)", e(), e())
		case 2:
			return fmt.Sprintf("(%s - %s)", e(), e())
		case 3:
			return fmt.Sprintf("(%s * %s)", e(), g.atom(t, nil))
		case 4:
			return fmt.Sprintf("(%s / 2)", e())
		case 5:
			return fmt.Sprintf("min(%s, %s)", e(), e())
		case 6:
			return fmt.Sprintf("float64(%s)", g.expr("int64", ls, d))
		default:
			return fmt.Sprintf("(-%s)", e())
		}
	default: // int
		switch g.pick(3) {
		case 0:
			return fmt.Sprintf("(%s + %s)", e(), e())
		case 1:
			return fmt.Sprintf("(%s * 2)", e())
		default:
			return fmt.Sprintf("(%s - %s)", e(), e())
		}
	}
}

// divisor returns a divisor that is zero for some values of an int64
// variable among the leaves, (x%m + 1) for a negative x, or "" when
// there is none (a constant divisor of zero would not compile).
func (g *gen) divisor(ls []leaf) string {
	var vs []leaf
	for _, l := range ls {
		if l.typ == "int64" {
			vs = append(vs, l)
		}
	}
	if len(vs) == 0 {
		return ""
	}
	l := vs[g.pick(len(vs))]
	return fmt.Sprintf("(%s%%%d + 1)", g.leafText(l), 3+g.pick(3))
}

var paramNames = []string{"x", "y", "z"}

// lambda returns a function of the given parameter types and result type
// that reads the captured scalars sc. It may emit a line (a local function
// variable) before the statement that uses it.
func (g *gen) lambda(ps []string, ret string, sc []leaf) string {
	names := append([]string(nil), paramNames[:len(ps)]...)
	sig := func() string {
		var s []string
		for i, p := range ps {
			s = append(s, names[i]+" "+p)
		}
		return "func(" + strings.Join(s, ", ") + ") " + ret
	}
	style := g.pick(10)
	if g.plain && (style == 0 || style == 5) {
		style = 9 // a literal: no helper, no line before the statement
	}
	if style == 0 {
		return g.helper(ps, ret)
	}
	// Shadowing: name a parameter like a captured scalar or an input.
	if style == 1 {
		var cands []string
		for _, l := range sc {
			cands = append(cands, l.name)
		}
		cands = append(cands, "xs", "fs")
		names[g.pick(len(names))] = cands[g.pick(len(cands))]
	}
	var ls []leaf
	for _, l := range sc {
		shadowed := false
		for _, n := range names {
			shadowed = shadowed || n == l.name
		}
		if !shadowed {
			ls = append(ls, l)
		}
	}
	for i, p := range ps {
		ls = append(ls, leaf{names[i], p, nil})
	}
	var body string
	switch style {
	case 2, 3:
		// Multi-statement body; the temporary sometimes shadows a capture.
		tmp := "t"
		for _, l := range ls {
			if l.v != nil && l.typ == ret && g.chance(0.3) {
				tmp = l.name
				break
			}
		}
		if ret == "bool" {
			t := ps[0]
			first := g.expr(t, ls, 2)
			inner := append(withoutLeaf(ls, tmp), leaf{tmp, t, nil})
			body = fmt.Sprintf("%s := %s(%s); return %s > %s", tmp, t, first, tmp, g.atom(t, inner))
			break
		}
		first := g.expr(ret, ls, 2)
		inner := append(withoutLeaf(ls, tmp), leaf{tmp, ret, nil})
		body = fmt.Sprintf("%s := %s(%s); %s = %s + %s; return %s", tmp, ret, first, tmp, tmp, g.expr(ret, inner, 1), g.expr(ret, inner, 2))
	case 4:
		body = fmt.Sprintf("if %s { return %s }; return %s", g.expr("bool", ls, 1), g.expr(ret, ls, 2), g.expr(ret, ls, 2))
	default:
		body = "return " + g.expr(ret, ls, 2)
	}
	lit := sig() + " { " + body + " }"
	if style == 5 {
		f := g.fresh("f")
		g.emit("%s := %s", f, lit)
		return f
	}
	return lit
}

// withoutLeaf returns ls without the leaves named name.
func withoutLeaf(ls []leaf, name string) []leaf {
	var out []leaf
	for _, l := range ls {
		if l.name != name {
			out = append(out, l)
		}
	}
	return out
}

// helper returns a named package-level function of the signature, new or
// one made before.
func (g *gen) helper(ps []string, ret string) string {
	key := strings.Join(ps, ",") + "->" + ret
	if h, ok := g.pkg.helperOf[key]; ok && g.chance(0.5) {
		return h
	}
	name := fmt.Sprintf("h%d", len(g.pkg.helpers))
	var ls []leaf
	var s []string
	for i, p := range ps {
		n := fmt.Sprintf("p%d", i)
		ls = append(ls, leaf{n, p, nil})
		s = append(s, n+" "+p)
	}
	src := fmt.Sprintf("func %s(%s) %s {\n\treturn %s\n}", name, strings.Join(s, ", "), ret, g.expr(ret, ls, 2))
	g.pkg.helpers = append(g.pkg.helpers, src)
	g.pkg.helperOf[key] = name
	return name
}

// opDef is a reduction's operator on parameters a and b, and the value
// it starts from.
type opDef struct{ ne, expr string }

// nonAssociative are the integer operators of Config.NonAssociative: not
// associative, or starting from a value that is not their neutral
// element, which only a fold in the spec's order computes as the spec.
var nonAssociative = []opDef{{"1", "a*3 + b"}, {"-1 << 40", "max(a, b)"}, {"1 << 40", "min(a, b)"}, {"7", "a + b"}}

// operator returns the neutral element and an associative operator on t
// (with Config.NonAssociative, sometimes an operator of nonAssociative
// instead).
func (g *gen) operator(t string) (ne, op string) {
	var ops []opDef
	switch t {
	case "float64":
		ops = []opDef{{"0", "a + b"}, {"math.Inf(-1)", "max(a, b)"}, {"math.Inf(1)", "min(a, b)"}}
	case "int":
		ops = []opDef{{"0", "a + b"}, {"math.MinInt", "max(a, b)"}, {"0", "a ^ b"}}
	default:
		ops = []opDef{{"0", "a + b"}, {"1", "a * b"}, {"math.MinInt64", "max(a, b)"}, {"math.MaxInt64", "min(a, b)"},
			{"0", "a ^ b"}, {"-1", "a & b"}, {"0", "a | b"}}
	}
	if g.cfg.NonAssociative && t != "float64" && g.chance(0.3) {
		ops = nonAssociative
	}
	o := ops[g.pick(len(ops))]
	if strings.Contains(o.ne, "math.") {
		g.pkg.imports["math"] = true
	}
	if !g.plain && g.chance(0.25) {
		key := "op:" + t + ":" + o.expr
		name, ok := g.pkg.helperOf[key]
		if !ok {
			name = fmt.Sprintf("op%d", len(g.pkg.helpers))
			g.pkg.helpers = append(g.pkg.helpers, fmt.Sprintf("func %s(a, b %s) %s {\n\treturn %s\n}", name, t, t, o.expr))
			g.pkg.helperOf[key] = name
		}
		return o.ne, name
	}
	return o.ne, fmt.Sprintf("func(a, b %s) %s { return %s }", t, t, o.expr)
}
