package rewrite

// This file holds the text form of generated code (code: text segments
// and qualified names) that parallel.go and openclemit.go still build
// with, and the adapters between it and the jennifer structure the rest
// of the generator builds (code.go). It goes when those files are built
// as structure too.

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// seg is one piece of text-built code: text, a qualified identifier, or
// jennifer structure.
type seg struct {
	text       string
	path, name string   // a reference to name in package path (text is empty)
	j          jen.Code // structure (text and path are empty)
}

// code is generated Go source under construction as text.
type code struct{ segs []seg }

// p appends text.
func (c *code) p(text string) *code {
	c.segs = append(c.segs, seg{text: text})
	return c
}

// pf appends formatted text.
func (c *code) pf(format string, args ...any) *code {
	return c.p(fmt.Sprintf(format, args...))
}

// q appends a reference to name in package path.
func (c *code) q(path, name string) *code {
	c.segs = append(c.segs, seg{path: path, name: name})
	return c
}

// add appends other: code, an expression, or a statement list (each
// statement followed by a newline).
func (c *code) add(other any) *code {
	switch o := other.(type) {
	case nil:
	case *code:
		if o != nil {
			c.segs = append(c.segs, o.segs...)
		}
	case stmts:
		for _, s := range o {
			c.segs = append(c.segs, seg{j: s}, seg{text: "\n"})
		}
	case *stmts:
		if o != nil {
			c.add(*o)
		}
	case jen.Code:
		c.segs = append(c.segs, seg{j: o})
	default:
		panic(fmt.Sprintf("internal error: code.add(%T)", other))
	}
	return c
}

// line appends other followed by a newline.
func (c *code) line(other any) *code {
	c.add(other)
	return c.p("\n")
}

func txt(text string) *code { return new(code).p(text) }

func txtf(format string, args ...any) *code { return new(code).pf(format, args...) }

// expr returns c as one jennifer item.
func (c *code) expr() *jen.Statement {
	st := jen.Null()
	for _, s := range c.segs {
		switch {
		case s.j != nil:
			st.Add(s.j)
		case s.path != "":
			st.Qual(s.path, s.name)
		case s.text != "":
			st.Op(s.text)
		}
	}
	return st
}

// stmts returns c, a statement list, as a stmts: its statements when it
// is built of structure alone, else one item holding its text (without
// its last newline).
func (c *code) stmts() stmts {
	if c == nil {
		return nil
	}
	var out stmts
	structured := len(c.segs)%2 == 0
	for i := 0; structured && i < len(c.segs); i += 2 {
		if c.segs[i].j == nil || c.segs[i+1].j != nil || c.segs[i+1].text != "\n" {
			structured = false
		}
		out = append(out, c.segs[i].j)
	}
	if structured {
		return out
	}
	segs := c.segs
	if n := len(segs); n > 0 && segs[n-1].j == nil && segs[n-1].path == "" {
		segs = append(segs[:n-1:n-1], seg{text: strings.TrimSuffix(segs[n-1].text, "\n")})
	}
	return stmts{(&code{segs}).expr()}
}

// exprs returns text-built arguments as jennifer items (nil stays nil).
func exprs(args []*code) []jen.Code {
	out := make([]jen.Code, len(args))
	for i, a := range args {
		if a != nil {
			out[i] = a.expr()
		}
	}
	return out
}

// apply is applyJ for text-built callers.
func (f *fgen) apply(c *code, l *ir.Lambda, args []*code, target string, at token.Pos) string {
	var list stmts
	why := f.applyJ(&list, l, exprs(args), target, at)
	c.add(list)
	return why
}

// assign is assignJ for text-built callers.
func (f *fgen) assign(c *code, v *ir.Var, value any) {
	var list stmts
	f.assignJ(&list, v, new(code).add(value).expr())
	c.add(list)
}

// unfused is unfusedJ for text-built callers.
func (f *fgen) unfused(k *fusion.Kernel, outs map[*ir.Var]string) *code {
	return new(code).line(f.unfusedJ(k, outs))
}

// qual appends a reference to a package-level name of another package.
func (f *fgen) qual(c *code, path, pkgName, name string) *code {
	return c.add(f.qualJ(path, pkgName, name))
}

// writeObjName appends the name of a type object.
func (g *gen) writeObjName(c *code, obj types.Object) {
	c.add(g.objName(obj))
}
