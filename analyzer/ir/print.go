package ir

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"io"
	"sort"
	"strings"
)

// Fprint writes a deterministic text dump of fn to w, for golden tests and
// debugging. fset (which may be nil) turns positions into line:column.
//
// Each Var prints as name#ID. Each statement prints on one line with its
// position, followed by its effects; nested blocks are indented under the
// statement that owns them. The alias classes with more than one member and
// the Unsupported calls follow the body.
func Fprint(w io.Writer, fset *token.FileSet, fn *Function) error {
	p := &dumper{fset: fset}
	p.function(fn)
	_, err := w.Write(p.buf.Bytes())
	return err
}

// Sprint returns Fprint's dump of fn as a string.
func Sprint(fset *token.FileSet, fn *Function) string {
	var buf bytes.Buffer
	Fprint(&buf, fset, fn)
	return buf.String()
}

type dumper struct {
	fset  *token.FileSet
	buf   bytes.Buffer
	depth int
}

func (p *dumper) line(format string, args ...any) {
	p.buf.WriteString(strings.Repeat("  ", p.depth))
	fmt.Fprintf(&p.buf, format, args...)
	p.buf.WriteByte('\n')
}

func (p *dumper) pos(pos token.Pos) string {
	if p.fset == nil || !pos.IsValid() {
		return "-"
	}
	ps := p.fset.Position(pos)
	return fmt.Sprintf("%d:%d", ps.Line, ps.Column)
}

func (p *dumper) node(n ast.Node) string {
	if n == nil {
		return "<nil>"
	}
	var buf bytes.Buffer
	fset := p.fset
	if fset == nil {
		fset = token.NewFileSet()
	}
	if err := printer.Fprint(&buf, fset, n); err != nil {
		return fmt.Sprintf("%T", n)
	}
	s := strings.Join(strings.Fields(buf.String()), " ")
	const max = 60 // long enough to recognise a statement, short enough for one line
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

func vname(v *Var) string {
	if v == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s#%d", v.Name, v.ID)
}

func vlist(vs []*Var) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = vname(v)
	}
	return "[" + strings.Join(names, " ") + "]"
}

func (p *dumper) function(fn *Function) {
	kind := "func"
	if fn.Decl != nil && fn.Decl.Recv != nil {
		kind = "method"
	}
	p.line("%s %s @%s", kind, fn.Name, p.pos(fnPos(fn)))
	p.depth++
	fuses := fn.Fuses
	if len(fuses) == 0 && fn.Fuse != nil {
		fuses = []*Directive{fn.Fuse}
	}
	for _, d := range fuses {
		b := d.Backend
		if b == "" {
			b = "(default)"
		}
		p.line("fuse %s backend=%s @%s", d.Name, b, p.pos(d.Pos))
	}
	p.line("params %s", vlist(fn.Params))
	var globals []*Var
	for _, v := range fn.Vars {
		if v.Def == nil && v.Global && !containsV(fn.Params, v) {
			globals = append(globals, v)
		}
	}
	if len(globals) > 0 {
		p.line("globals %s", vlist(globals))
	}
	p.block(fn.Body)
	p.depth--
	p.aliases(fn)
	for _, u := range fn.Unsupported {
		e := u.Expr
		if e == nil && u.Call != nil {
			e = u.Call
		}
		pos := token.NoPos
		if e != nil {
			pos = e.Pos()
		}
		p.line("  unsupported @%s %s: %s", p.pos(pos), p.node(e), u.Reason)
	}
}

func fnPos(fn *Function) token.Pos {
	if fn.Decl != nil {
		return fn.Decl.Pos()
	}
	return token.NoPos
}

func containsV(vs []*Var, v *Var) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}

func (p *dumper) aliases(fn *Function) {
	classes := make(map[int][]*Var)
	var roots []int
	for _, v := range fn.Vars {
		r := fn.Alias.find(v.ID)
		if _, ok := classes[r]; !ok {
			roots = append(roots, r)
		}
		classes[r] = append(classes[r], v)
	}
	sort.Ints(roots)
	for _, r := range roots {
		if len(classes[r]) > 1 {
			p.line("  alias %s", vlist(classes[r]))
		}
	}
	var gl []*Var
	for _, v := range fn.Vars {
		if v.Global {
			gl = append(gl, v)
		}
	}
	if len(gl) > 0 {
		p.line("  global %s", vlist(gl))
	}
}

func (p *dumper) block(b *Block) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		p.stmt(s)
	}
}

func (p *dumper) effects(e *Effects) string {
	var parts []string
	if len(e.Uses) > 0 {
		parts = append(parts, "uses="+vlist(e.Uses))
	}
	if len(e.Defs) > 0 {
		parts = append(parts, "defs="+vlist(e.Defs))
	}
	if len(e.Writes) > 0 {
		parts = append(parts, "writes="+vlist(e.Writes))
	}
	if e.WritesGlobal {
		parts = append(parts, "writes-global")
	}
	if e.Impure != "" {
		parts = append(parts, fmt.Sprintf("impure(%q @%s)", e.Impure, p.pos(e.ImpurePos)))
	}
	if len(e.Flows) > 0 {
		parts = append(parts, "flows="+vlist(e.Flows))
	}
	if e.Exits {
		parts = append(parts, "exits")
	}
	if len(parts) == 0 {
		return ""
	}
	return " | " + strings.Join(parts, " ")
}

func (p *dumper) stmt(s Stmt) {
	switch s := s.(type) {
	case *SOAC:
		p.line("%s = %s%s @%s%s", vname(s.Out), s.Name, p.typeArgs(s), p.pos(s.Pos()), p.effects(&s.Eff))
		p.depth += 2
		p.op(s)
		p.depth -= 2
	case *Plain:
		if s.Hoisted != nil {
			p.line("hoist %s @%s%s", p.node(s.Hoisted), p.pos(s.Hoisted.Pos()), p.effects(&s.Eff))
		} else {
			p.line("plain %s @%s%s", p.node(s.Node), p.pos(s.Pos()), p.effects(&s.Eff))
		}
	case *If:
		p.line("if %s @%s%s", p.node(s.Node.Cond), p.pos(s.Pos()), p.effects(&s.Eff))
		p.nested("then", s.Then)
		if s.Else != nil {
			p.nested("else", s.Else)
		}
	case *Switch:
		kind := "switch"
		if _, ok := s.Node.(*ast.SelectStmt); ok {
			kind = "select"
		}
		ex := ""
		if s.Exhaustive {
			ex = " exhaustive"
		}
		p.line("%s%s @%s%s", kind, ex, p.pos(s.Pos()), p.effects(&s.Eff))
		for i, c := range s.Cases {
			p.nested(fmt.Sprintf("case %d", i), c)
		}
	case *Loop:
		p.line("loop @%s%s", p.pos(s.Pos()), p.effects(&s.Eff))
		p.nested("body", s.Body)
	case *Closure:
		p.line("closure @%s%s", p.pos(s.Pos()), p.effects(&s.Eff))
		p.nested("body", s.Body)
	}
}

func (p *dumper) nested(label string, b *Block) {
	p.depth++
	p.line("%s:", label)
	p.depth++
	p.block(b)
	p.depth -= 2
}

func (p *dumper) typeArgs(s *SOAC) string {
	if len(s.TypeArgs) == 0 {
		return ""
	}
	ts := make([]string, len(s.TypeArgs))
	for i, t := range s.TypeArgs {
		ts[i] = t.String()
	}
	return "[" + strings.Join(ts, ", ") + "]"
}

func (p *dumper) operand(label string, o *Operand) {
	if o == nil {
		return
	}
	extra := ""
	if o.Len != nil {
		extra += " len=" + vname(o.Len)
	}
	if o.Const != nil && o.Const.Value != nil {
		extra += " const=" + o.Const.Value.ExactString()
	}
	p.line("%s %s uses=%s%s", label, p.node(o.Expr), vlist(o.Uses), extra)
}

var lambdaKinds = [...]string{FuncLit: "literal", NamedFunc: "named", MethodValue: "method-value", FuncValue: "func-value", OtherFunc: "other"}

func (p *dumper) lambda(label string, l *Lambda) {
	if l == nil {
		return
	}
	var parts []string
	parts = append(parts, lambdaKinds[l.Kind])
	if l.Func != nil {
		parts = append(parts, "func="+l.Func.FullName())
	}
	if l.Lit != nil && l.Kind != FuncLit {
		parts = append(parts, "lit@"+p.pos(l.Lit.Pos()))
	}
	if l.Sig != nil {
		parts = append(parts, "sig="+l.Sig.String())
	}
	if len(l.Params) > 0 {
		parts = append(parts, "params="+vlist(l.Params))
	}
	if len(l.Free) > 0 {
		parts = append(parts, "free="+vlist(l.Free))
	}
	if l.Purity.Pure {
		parts = append(parts, "pure")
	} else {
		parts = append(parts, fmt.Sprintf("impure(%q)", l.Purity.Reason))
	}
	p.line("%s %s %s", label, p.node(l.Expr), strings.Join(parts, " "))
	p.operand("recv", l.Recv)
	if l.Body != nil {
		p.depth++
		p.block(l.Body)
		p.depth--
	}
}

func (p *dumper) op(s *SOAC) {
	switch op := s.Op.(type) {
	case *Screma:
		p.line("inputs %s", vlist(op.Inputs))
		p.lambda("map", op.Map)
		if op.Scan != nil {
			p.operand("scan-ne", op.Scan.Neutral)
			p.lambda("scan", op.Scan.Op)
		}
		if op.Reduce != nil {
			p.operand("reduce-ne", op.Reduce.Neutral)
			p.lambda("reduce", op.Reduce.Op)
		}
	case *Filter:
		p.line("inputs %s", vlist([]*Var{op.Input}))
		p.lambda("pred", op.Pred)
	case *Stream:
		p.line("inputs %s", vlist([]*Var{op.Input}))
		p.lambda("op", op.Op)
		p.lambda("chunk", op.Chunk)
	case *Iota:
		p.operand("n", op.N)
	case *Replicate:
		p.operand("n", op.N)
		p.operand("value", op.Value)
	}
}
