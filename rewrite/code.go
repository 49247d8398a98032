package rewrite

// This file holds the code buffer the generator writes into: text copied
// or composed by the generator, interleaved with package-qualified names
// that jennifer renders with the import names the generated file
// registers.

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"
)

// seg is one piece of generated code: text, or a qualified identifier.
type seg struct {
	text       string
	path, name string // a reference to name in package path (text is empty)
}

// code is generated Go source under construction.
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

// add appends other.
func (c *code) add(other *code) *code {
	if other != nil {
		c.segs = append(c.segs, other.segs...)
	}
	return c
}

// line appends other followed by a newline.
func (c *code) line(other *code) *code {
	c.add(other)
	return c.p("\n")
}

// text returns c with qualified names written path.name, for tests and
// error messages.
func (c *code) String() string {
	var b strings.Builder
	for _, s := range c.segs {
		if s.path != "" {
			b.WriteString(s.path + "." + s.name)
		} else {
			b.WriteString(s.text)
		}
	}
	return b.String()
}

// jen converts c into one jennifer statement.
func (c *code) jen() *jen.Statement {
	st := jen.Null()
	for _, s := range c.segs {
		if s.path != "" {
			st.Qual(s.path, s.name)
		} else if s.text != "" {
			st.Op(s.text)
		}
	}
	return st
}

func txt(text string) *code { return new(code).p(text) }

func txtf(format string, args ...any) *code { return new(code).pf(format, args...) }

// typeCode renders t as Go source, qualifying names of other packages.
func (g *gen) typeCode(t types.Type) *code {
	c := new(code)
	g.writeType(c, t)
	return c
}

func (g *gen) writeType(c *code, t types.Type) {
	switch t := t.(type) {
	case *types.Basic:
		c.p(t.Name())
	case *types.Named:
		g.writeObjName(c, t.Obj())
		g.writeTypeArgs(c, t.TypeArgs())
	case *types.Alias:
		g.writeObjName(c, t.Obj())
		g.writeTypeArgs(c, t.TypeArgs())
	case *types.TypeParam:
		if r := g.rename[t.Obj()]; r != "" {
			c.p(r)
		} else {
			c.p(t.Obj().Name())
		}
	case *types.Slice:
		c.p("[]")
		g.writeType(c, t.Elem())
	case *types.Array:
		c.pf("[%d]", t.Len())
		g.writeType(c, t.Elem())
	case *types.Pointer:
		c.p("*")
		g.writeType(c, t.Elem())
	case *types.Map:
		c.p("map[")
		g.writeType(c, t.Key())
		c.p("]")
		g.writeType(c, t.Elem())
	case *types.Chan:
		switch t.Dir() {
		case types.SendRecv:
			c.p("chan ")
		case types.SendOnly:
			c.p("chan<- ")
		case types.RecvOnly:
			c.p("<-chan ")
		}
		g.writeType(c, t.Elem())
	case *types.Signature:
		c.p("func")
		g.writeSig(c, t)
	case *types.Struct:
		c.p("struct{")
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			if i > 0 {
				c.p("; ")
			}
			if !f.Embedded() {
				c.p(f.Name() + " ")
			}
			g.writeType(c, f.Type())
			if tag := t.Tag(i); tag != "" {
				c.pf(" %q", tag)
			}
		}
		c.p("}")
	case *types.Interface:
		c.p("interface{")
		sep := ""
		for i := 0; i < t.NumEmbeddeds(); i++ {
			c.p(sep)
			g.writeType(c, t.EmbeddedType(i))
			sep = "; "
		}
		for i := 0; i < t.NumExplicitMethods(); i++ {
			m := t.ExplicitMethod(i)
			c.p(sep + m.Name())
			g.writeSig(c, m.Type().(*types.Signature))
			sep = "; "
		}
		c.p("}")
	case *types.Union:
		for i := 0; i < t.Len(); i++ {
			if i > 0 {
				c.p(" | ")
			}
			if t.Term(i).Tilde() {
				c.p("~")
			}
			g.writeType(c, t.Term(i).Type())
		}
	default:
		// Anything else: the type checker's spelling, qualified by the
		// package's own import names.
		c.p(types.TypeString(t, func(p *types.Package) string {
			if p == g.pkg {
				return ""
			}
			return g.importName(p)
		}))
	}
}

func (g *gen) writeTypeArgs(c *code, args *types.TypeList) {
	if args.Len() == 0 {
		return
	}
	c.p("[")
	for i := 0; i < args.Len(); i++ {
		if i > 0 {
			c.p(", ")
		}
		g.writeType(c, args.At(i))
	}
	c.p("]")
}

func (g *gen) writeSig(c *code, s *types.Signature) {
	tuple := func(t *types.Tuple, variadic bool) {
		c.p("(")
		for i := 0; i < t.Len(); i++ {
			if i > 0 {
				c.p(", ")
			}
			if variadic && i == t.Len()-1 {
				c.p("...")
				g.writeType(c, t.At(i).Type().(*types.Slice).Elem())
				continue
			}
			g.writeType(c, t.At(i).Type())
		}
		c.p(")")
	}
	tuple(s.Params(), s.Variadic())
	if s.Results().Len() > 0 {
		c.p(" ")
		tuple(s.Results(), false)
	}
}

// writeObjName writes the name of a type object: qualified when it belongs
// to another package, bare when it is the package's own or universal.
func (g *gen) writeObjName(c *code, obj types.Object) {
	if r := g.rename[obj]; r != "" {
		c.p(r)
		return
	}
	if obj.Pkg() == nil || obj.Pkg() == g.pkg {
		c.p(obj.Name())
		return
	}
	g.usePkg(obj.Pkg())
	c.q(obj.Pkg().Path(), obj.Name())
}
