package fusion

// A small IR builder for unit tests that do not go through Go source: each
// statement takes the next line of a fake file "t.go", Go variables are
// named by strings, and the effects of compound statements are the union
// of their nested statements'.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
)

type irb struct {
	fset *token.FileSet
	file *token.File
	line int
	fn   *ir.Function
	blk  *ir.Block
	objs map[string]types.Object
	cur  map[string]*ir.Var
}

func newIRB(name string) *irb {
	fset := token.NewFileSet()
	file := fset.AddFile("t.go", -1, 100000)
	lines := make([]int, 1000)
	for i := range lines {
		lines[i] = i * 100
	}
	file.SetLines(lines)
	b := &irb{fset: fset, file: file, objs: map[string]types.Object{}, cur: map[string]*ir.Var{}}
	b.fn = &ir.Function{Name: name, Body: &ir.Block{}}
	b.blk = b.fn.Body
	return b
}

// pos returns the start of the next line.
func (b *irb) pos() token.Pos {
	b.line++
	return b.file.LineStart(b.line)
}

func (b *irb) newVar(name string, def ir.Stmt) *ir.Var {
	obj, ok := b.objs[name]
	if !ok {
		obj = types.NewVar(token.NoPos, nil, name, types.Typ[types.Int])
		b.objs[name] = obj
	}
	v := &ir.Var{ID: len(b.fn.Vars), Name: name, Obj: obj, Def: def}
	b.fn.Vars = append(b.fn.Vars, v)
	b.cur[name] = v
	return v
}

func (b *irb) param(names ...string) {
	for _, n := range names {
		b.fn.Params = append(b.fn.Params, b.newVar(n, nil))
	}
}

func (b *irb) global(name string) *ir.Var {
	v := b.newVar(name, nil)
	v.Global = true
	return v
}

func (b *irb) v(name string) *ir.Var {
	v, ok := b.cur[name]
	if !ok {
		panic("irb: no variable " + name)
	}
	return v
}

func (b *irb) vs(names []string) []*ir.Var {
	var out []*ir.Var
	for _, n := range names {
		out = append(out, b.v(n))
	}
	return out
}

// lam describes a lambda.
type lam struct {
	free     []string
	impure   string
	mayPanic bool
	body     func() // builds a nested body
	value    bool   // a function value (its first free variable), not a literal
}

func pure(free ...string) lam               { return lam{free: free} }
func impure(why string, free ...string) lam { return lam{free: free, impure: why} }

// funcValue is a lambda held by variable f, not resolved to a literal.
func funcValue(f string) lam { return lam{free: []string{f}, value: true} }

func (b *irb) lambda(l lam, owner *ir.SOAC) *ir.Lambda {
	pos := b.file.LineStart(b.line) + 20
	lit := &ast.FuncLit{Type: &ast.FuncType{Func: pos}, Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos}}
	out := &ir.Lambda{Kind: ir.FuncLit, Expr: lit, Lit: lit, Free: b.vs(l.free),
		Purity: ir.Purity{Pure: l.impure == "", Reason: l.impure, MayPanic: l.mayPanic}}
	if l.value {
		out.Kind, out.Lit = ir.FuncValue, nil
	}
	if l.impure != "" {
		out.Purity.Pos = pos
	}
	if l.body != nil {
		out.Body = &ir.Block{Parent: owner}
		saved := b.blk
		b.blk = out.Body
		l.body()
		b.blk = saved
	}
	return out
}

func (b *irb) add(s ir.Stmt) {
	switch s := s.(type) {
	case *ir.SOAC:
		s.Parent = b.blk
	case *ir.Plain:
		s.Parent = b.blk
	case *ir.If:
		s.Parent = b.blk
	case *ir.Switch:
		s.Parent = b.blk
	case *ir.Loop:
		s.Parent = b.blk
	case *ir.Closure:
		s.Parent = b.blk
	}
	b.blk.Stmts = append(b.blk.Stmts, s)
}

func (b *irb) soac(out, name string, mk func(s *ir.SOAC) ir.Op) *ir.SOAC {
	pos := b.pos()
	s := &ir.SOAC{ID: len(b.fn.Vars), Name: name, Call: &ast.CallExpr{Fun: &ast.Ident{NamePos: pos, Name: name}, Lparen: pos + 10, Rparen: pos + 11}}
	s.Op = mk(s)
	seen := map[*ir.Var]bool{}
	addUse := func(v *ir.Var) {
		if !seen[v] {
			seen[v] = true
			s.Eff.Uses = append(s.Eff.Uses, v)
		}
	}
	for _, v := range s.Inputs() {
		addUse(v)
	}
	for _, o := range s.Operands() {
		for _, v := range o.Uses {
			addUse(v)
		}
	}
	for _, l := range s.Lambdas() {
		for _, v := range l.Free {
			addUse(v)
		}
		if !l.Purity.Pure {
			s.Eff.Impure = l.Purity.Reason
			s.Eff.ImpurePos = l.Purity.Pos
		}
		if l.Body != nil {
			ir.Walk(l.Body, func(n ir.Stmt) bool {
				for _, v := range n.Effects().Uses {
					if v.Def == nil || !inBlock(v.Def, l.Body) {
						addUse(v)
					}
				}
				return true
			})
		}
	}
	s.Out = b.newVar(out, s)
	s.Eff.Defs = []*ir.Var{s.Out}
	b.add(s)
	return s
}

func inBlock(s ir.Stmt, blk *ir.Block) bool {
	for s != nil {
		if s.Block() == blk {
			return true
		}
		if s.Block() == nil || s.Block().Parent == nil {
			return false
		}
		s = s.Block().Parent
	}
	return false
}

func (b *irb) Map(out string, f lam, ins ...string) *ir.SOAC {
	name := "Map"
	if len(ins) > 1 {
		name = "Map" + string(rune('0'+len(ins)))
	}
	in := b.vs(ins)
	return b.soac(out, name, func(s *ir.SOAC) ir.Op { return &ir.Screma{Inputs: in, Map: b.lambda(f, s)} })
}

func (b *irb) Reduce(out, in string, f lam) *ir.SOAC {
	x := b.v(in)
	return b.soac(out, "Reduce", func(s *ir.SOAC) ir.Op {
		return &ir.Screma{Inputs: []*ir.Var{x}, Reduce: &ir.Operator{Op: b.lambda(f, s), Neutral: constOp(0)}}
	})
}

func (b *irb) Scan(out, in string, f lam) *ir.SOAC {
	x := b.v(in)
	return b.soac(out, "Scan", func(s *ir.SOAC) ir.Op {
		return &ir.Screma{Inputs: []*ir.Var{x}, Scan: &ir.Operator{Op: b.lambda(f, s), Neutral: constOp(0)}}
	})
}

func (b *irb) Filter(out, in string, f lam) *ir.SOAC {
	x := b.v(in)
	return b.soac(out, "Filter", func(s *ir.SOAC) ir.Op { return &ir.Filter{Input: x, Pred: b.lambda(f, s)} })
}

func (b *irb) StreamMap(out, in string, f lam) *ir.SOAC {
	x := b.v(in)
	return b.soac(out, "StreamMap", func(s *ir.SOAC) ir.Op {
		return &ir.Stream{Kind: ir.StreamMap, Input: x, Chunk: b.lambda(f, s)}
	})
}

func (b *irb) StreamRed(out, in string, f lam) *ir.SOAC {
	x := b.v(in)
	return b.soac(out, "StreamRed", func(s *ir.SOAC) ir.Op {
		return &ir.Stream{Kind: ir.StreamRed, Input: x, Chunk: b.lambda(f, s), Op: b.lambda(pure(), s)}
	})
}

// lenOf is the operand len(v); varOp the operand v.
func (b *irb) lenOf(v string) *ir.Operand {
	x := b.v(v)
	return &ir.Operand{Expr: &ast.CallExpr{Fun: ast.NewIdent("len"), Args: []ast.Expr{ast.NewIdent(v)}}, Uses: []*ir.Var{x}, Len: x}
}

func (b *irb) varOp(v string) *ir.Operand {
	return &ir.Operand{Expr: ast.NewIdent(v), Uses: []*ir.Var{b.v(v)}}
}

func constOp(n int64) *ir.Operand {
	tv := &types.TypeAndValue{Type: types.Typ[types.Int], Value: constant.MakeInt64(n)}
	return &ir.Operand{Expr: &ast.BasicLit{Kind: token.INT, Value: "0"}, Const: tv}
}

func (b *irb) Iota(out string, n *ir.Operand) *ir.SOAC {
	return b.soac(out, "Iota", func(s *ir.SOAC) ir.Op { return &ir.Iota{N: n} })
}

func (b *irb) Replicate(out string, n, v *ir.Operand) *ir.SOAC {
	return b.soac(out, "Replicate", func(s *ir.SOAC) ir.Op { return &ir.Replicate{N: n, Value: v} })
}

// plain adds a non-SOAC statement: spec is a list of "use:x", "def:x",
// "write:x", "global" (writes global state), "impure:why", "exit".
func (b *irb) plain(spec ...string) *ir.Plain {
	pos := b.pos()
	p := &ir.Plain{Node: &ast.ExprStmt{X: &ast.Ident{NamePos: pos, Name: "stmt"}}}
	var defs []string
	for _, s := range spec {
		kind, arg, _ := strings.Cut(s, ":")
		switch kind {
		case "use":
			p.Eff.Uses = append(p.Eff.Uses, b.v(arg))
		case "def":
			defs = append(defs, arg)
		case "write":
			p.Eff.Writes = append(p.Eff.Writes, b.v(arg))
			p.Eff.Uses = append(p.Eff.Uses, b.v(arg))
		case "global":
			p.Eff.WritesGlobal = true
		case "impure":
			p.Eff.Impure, p.Eff.ImpurePos = arg, pos
		case "exit":
			p.Eff.Exits = true
		default:
			panic("irb: bad spec " + s)
		}
	}
	for _, d := range defs {
		p.Eff.Defs = append(p.Eff.Defs, b.newVar(d, p))
	}
	b.add(p)
	return p
}

// nested builds the blocks of a compound statement and sums their effects.
func (b *irb) nested(owner ir.Stmt, eff *ir.Effects, bodies ...func()) []*ir.Block {
	var blocks []*ir.Block
	for _, body := range bodies {
		if body == nil {
			blocks = append(blocks, nil)
			continue
		}
		blk := &ir.Block{Parent: owner}
		saved := b.blk
		b.blk = blk
		body()
		b.blk = saved
		blocks = append(blocks, blk)
		ir.Walk(blk, func(n ir.Stmt) bool {
			e := n.Effects()
			for _, v := range e.Uses {
				if v.Def == nil || !inBlock(v.Def, blk) {
					eff.Uses = append(eff.Uses, v)
				}
			}
			eff.Defs = append(eff.Defs, e.Defs...)
			eff.Writes = append(eff.Writes, e.Writes...)
			eff.WritesGlobal = eff.WritesGlobal || e.WritesGlobal
			eff.Exits = eff.Exits || e.Exits
			if e.Impure != "" && eff.Impure == "" {
				eff.Impure, eff.ImpurePos = e.Impure, e.ImpurePos
			}
			return true
		})
	}
	return blocks
}

func (b *irb) If(cond string, then, els func()) *ir.If {
	pos := b.pos()
	s := &ir.If{Node: &ast.IfStmt{If: pos, Cond: ast.NewIdent(cond)}}
	if cond != "" {
		s.Eff.Uses = append(s.Eff.Uses, b.v(cond))
		s.Own.Uses = []*ir.Var{b.v(cond)}
	}
	bs := b.nested(s, &s.Eff, then, els)
	s.Then, s.Else = bs[0], bs[1]
	b.add(s)
	return s
}

func (b *irb) Switch(exhaustive bool, cases ...func()) *ir.Switch {
	pos := b.pos()
	s := &ir.Switch{Node: &ast.SwitchStmt{Switch: pos}, Exhaustive: exhaustive}
	s.Cases = b.nested(s, &s.Eff, cases...)
	b.add(s)
	return s
}

func (b *irb) Loop(body func()) *ir.Loop {
	pos := b.pos()
	s := &ir.Loop{Node: &ast.ForStmt{For: pos}}
	s.Body = b.nested(s, &s.Eff, body)[0]
	b.add(s)
	return s
}

func (b *irb) Closure(body func()) *ir.Closure {
	pos := b.pos()
	s := &ir.Closure{Lit: &ast.FuncLit{Type: &ast.FuncType{Func: pos}}}
	s.Body = b.nested(s, &s.Eff, body)[0]
	b.add(s)
	return s
}

// fuse runs Fuse and Check.
func (b *irb) fuse(t *testing.T, opts Options) *Plan {
	t.Helper()
	opts.Fset = b.fset
	plan := Fuse(b.fn, opts)
	if err := Check(plan); err != nil {
		t.Fatalf("Check: %v\n%s", err, plan)
	}
	return plan
}
