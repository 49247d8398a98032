package clc

// This file translates control flow: if (an else-if whose condition needs
// statements nests in an else block), switch (as an if-chain, so that
// Go's break out of a switch is a goto past it), for loops (as for (;;)
// loops whose continue is a goto to the post statement), range loops over
// integers, slice views and arrays, break and continue with labels. It
// does not translate the other statements (func.go) or expressions.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// ifStmt writes an if statement. An init statement gets its own block.
func (f *fn) ifStmt(s *ast.IfStmt) {
	if s.Init != nil {
		f.w.open("{")
		f.stmt(s.Init, "")
	}
	c := f.cond(s.Cond)
	f.w.open("if (%s) {", c)
	f.block(s.Body.List)
	nested := 0 // else blocks opened for conditions that need statements
	for s.Else != nil {
		if f.failed() {
			break
		}
		if e, ok := s.Else.(*ast.IfStmt); ok && e.Init == nil {
			pre, c := f.capture(func() string { return f.cond(e.Cond) })
			if pre == "" {
				f.w.close("} else if (%s) {", c)
				f.block(e.Body.List)
				s = e
				continue
			}
			// The condition needs statements: they go inside the else.
			f.w.close("} else {")
			f.w.indent++
			f.w.raw(pre)
			f.w.open("if (%s) {", c)
			f.block(e.Body.List)
			s = e
			nested++
			continue
		}
		f.w.close("} else {")
		f.w.indent++
		if b, ok := s.Else.(*ast.BlockStmt); ok {
			f.block(b.List)
		} else {
			f.stmt(s.Else, "")
		}
		break
	}
	f.w.close("}")
	for range nested {
		f.w.close("}")
	}
	if s.Init != nil {
		f.w.close("}")
	}
}

// capture runs emit with statements going to a fresh writer and returns
// them with emit's result.
func (f *fn) capture(emit func() string) (string, string) {
	saved := f.w
	f.w = &writer{indent: 0}
	r := emit()
	pre, err := f.w.String(), f.w.err
	f.w = saved
	f.w.fail(err)
	return pre, r
}

// cond translates a boolean condition.
func (f *fn) cond(e ast.Expr) string { return f.expr(e).c }

// newTarget pushes a break/continue target.
func (f *fn) newTarget(label string, loop bool) *target {
	f.labels++
	t := target{label: label, loop: loop, brk: fmt.Sprintf("soac__brk%d", f.labels), cont: fmt.Sprintf("soac__cont%d", f.labels)}
	f.targets = append(f.targets, t)
	return &f.targets[len(f.targets)-1]
}

// popTarget pops the innermost target and writes its break label if used.
func (f *fn) popTarget() {
	t := f.targets[len(f.targets)-1]
	f.targets = f.targets[:len(f.targets)-1]
	if t.usedBrk {
		f.w.line("%s: ;", t.brk)
	}
}

// branch writes break and continue. A break of the innermost loop is C's
// break; every other one is a goto to a label after the target (switches
// are if-chains in C, so C's break would leave the enclosing loop).
func (f *fn) branch(s *ast.BranchStmt) {
	if s.Tok != token.BREAK && s.Tok != token.CONTINUE {
		f.fail(s.Pos(), s.Tok.String()+" statement", "goto and fallthrough are not translated")
		return
	}
	for i := len(f.targets) - 1; i >= 0; i-- {
		t := &f.targets[i]
		if s.Label != nil && t.label != s.Label.Name || s.Label == nil && s.Tok == token.CONTINUE && !t.loop {
			continue
		}
		if s.Tok == token.CONTINUE {
			t.usedCont = true
			f.w.line("goto %s;", t.cont)
			return
		}
		if t.loop && i == len(f.targets)-1 {
			f.w.line("break;")
			return
		}
		t.usedBrk = true
		f.w.line("goto %s;", t.brk)
		return
	}
	f.fail(s.Pos(), s.Tok.String()+" statement", "its target is outside the function")
}

// switchStmt writes an expression switch as an if-chain: the tag is
// evaluated once, each case's expressions in order.
func (f *fn) switchStmt(s *ast.SwitchStmt, label string) {
	f.w.open("{")
	if s.Init != nil {
		f.stmt(s.Init, "")
	}
	var tag val
	if s.Tag != nil {
		tag = f.spill(f.expr(s.Tag))
	}
	f.newTarget(label, false)
	var dflt *ast.CaseClause
	first := true
	for _, cc := range s.Body.List {
		c := cc.(*ast.CaseClause)
		if c.List == nil {
			dflt = c
			continue
		}
		var conds []string
		pre, _ := f.capture(func() string {
			for _, e := range c.List {
				if s.Tag != nil {
					v := f.expr(e)
					conds = append(conds, f.binary(token.EQL, tag, v, tag.t, e, e.Pos()))
				} else {
					conds = append(conds, f.cond(e))
				}
			}
			return ""
		})
		if pre != "" {
			f.fail(c.Pos(), "case expression with a nested SOAC call", "case expressions must be plain expressions")
			break
		}
		if first {
			f.w.open("if (%s) {", strings.Join(conds, " || "))
			first = false
		} else {
			f.w.close("} else if (%s) {", strings.Join(conds, " || "))
		}
		f.block(c.Body)
	}
	if dflt != nil {
		if first {
			f.w.open("{")
		} else {
			f.w.close("} else {")
		}
		f.block(dflt.Body)
		first = false
	}
	if !first {
		f.w.close("}")
	}
	f.popTarget()
	f.w.close("}")
}

// loopGuard is the first statement of every loop that is not bounded by
// a slice's length: after a panic the work-item's values are garbage and
// the loop might not end.
const loopGuard = "if (*soac__err) break;"

// forStmt writes for init; cond; post { body } as
//
//	{ init; for (;;) { guard; if (!cond) break; { body } cont: ; post; } brk: ; }
func (f *fn) forStmt(s *ast.ForStmt, label string) {
	f.w.open("{")
	if s.Init != nil {
		f.stmt(s.Init, "")
	}
	f.w.open("for (;;) {")
	f.w.line(loopGuard)
	if s.Cond != nil {
		f.w.line("if (!(%s)) break;", f.cond(s.Cond))
	}
	f.loopBody(label, s.Body.List, func() {
		if s.Post != nil {
			f.stmt(s.Post, "")
		}
	})
	f.w.close("}")
}

// loopBody writes the body of a loop whose header is open, the continue
// label and the post statements, closes the loop and writes the break
// label after it.
func (f *fn) loopBody(label string, body []ast.Stmt, post func()) {
	cont := f.newTarget(label, true).cont
	f.w.open("{")
	f.block(body)
	f.w.close("}")
	if f.targets[len(f.targets)-1].usedCont {
		f.w.line("%s: ;", cont)
	}
	post()
	t := f.targets[len(f.targets)-1]
	f.targets = f.targets[:len(f.targets)-1]
	f.w.close("}")
	if t.usedBrk {
		f.w.line("%s: ;", t.brk)
	}
}

// rangeStmt writes range loops over an integer, a slice view or an array.
func (f *fn) rangeStmt(s *ast.RangeStmt, label string) {
	xt := f.info.TypeOf(s.X)
	f.w.open("{")
	var n string
	var elem func(i string) val
	if b, ok := xt.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
		v := f.spill(f.expr(s.X))
		f.rangeLoop(s, label, v.t, v.c, nil, true)
		f.w.close("}")
		return
	}
	t := f.typ(xt, s.X.Pos())
	if f.failed() {
		f.w.close("}")
		return
	}
	x := f.expr(s.X)
	if t.Kind == Array && s.Value != nil {
		// Go ranges over a copy of the array.
		c := f.temp()
		f.w.line("const %s %s = %s;", t.C, c, x.c)
		x = val{c, t}
	} else {
		x = f.spill(x)
	}
	switch t.Kind {
	case Array:
		n = fmt.Sprint(t.Len)
		elem = func(i string) val { return val{fmt.Sprintf("%s.a[%s]", x.c, i), t.Elem} }
	case Slice:
		n = x.c + ".n"
		elem = func(i string) val { return val{fmt.Sprintf("%s.p[%s]", x.c, i), t.Elem} }
	case Slice2:
		n = x.c + ".n"
		row := f.sliceOf(t)
		elem = func(i string) val {
			return val{fmt.Sprintf("%s__mk(%s.p + %s.off[%s], %s.off[%s + 1] - %s.off[%s])", row.C, x.c, x.c, i, x.c, i, x.c, i), row}
		}
	default:
		f.fail(s.X.Pos(), "range over "+xt.String(), "only integers, slices and arrays are ranged over")
		f.w.close("}")
		return
	}
	f.rangeLoop(s, label, scalars[types.Int], n, elem, false)
	f.w.close("}")
}

// rangeLoop writes the loop of a range statement over n elements.
func (f *fn) rangeLoop(s *ast.RangeStmt, label string, it *Type, n string, elem func(string) val, guard bool) {
	i := f.temp()
	f.w.open("for (%s %s = 0; %s < %s; %s++) {", it.C, i, i, n, i)
	if guard {
		f.w.line(loopGuard)
	}
	bind := func(e ast.Expr, v val) {
		if e == nil {
			return
		}
		if id, ok := e.(*ast.Ident); ok && id.Name == "_" {
			return
		}
		if s.Tok == token.DEFINE {
			obj := f.info.Defs[e.(*ast.Ident)]
			f.w.line("const %s %s = %s;", v.t.C, f.declare(obj), v.c)
			return
		}
		lv, t := f.lvalue(e)
		f.w.line("%s = %s;", lv, f.convertTo(v, t))
	}
	bind(s.Key, val{i, it})
	if s.Value != nil && elem != nil {
		bind(s.Value, elem(i))
	}
	f.loopBody(label, s.Body.List, func() {})
}
