package hostgo

// This file holds the building blocks of generated code. Generated code
// is built as jennifer structure (github.com/dave/jennifer/jen) and
// printed once, when the file is rendered (File.Render, which
// gofmt-formats it): an expression or a statement is a *jen.Statement, a
// statement list is a Stmts, a block is Block(list). The spec's own code
// is copied as spans of its source between the nodes the generator
// replaces (subst.go's sub), so that its comments and layout
// survive. Types (go/types) become jennifer type expressions with
// qualified names of other packages. This file does not decide what is
// generated.

import (
	"go/types"

	"github.com/dave/jennifer/jen"
)

// Stmts is a list of generated statements, rendered one per line.
type Stmts []jen.Code

// Add appends statements.
func (s *Stmts) Add(c ...jen.Code) *Stmts {
	*s = append(*s, c...)
	return s
}

// Block returns list as a block statement. An empty block is printed
// with its braces on two lines, as the generator always has.
func Block(list Stmts) *jen.Statement {
	if len(list) == 0 {
		return jen.Custom(jen.Options{Open: "{\n", Close: "}"})
	}
	return jen.Block(list...)
}

// Id returns the identifier name.
func Id(name string) *jen.Statement { return jen.Id(name) }

// Define returns "lhs := rhs".
func Define(lhs string, rhs jen.Code) *jen.Statement { return jen.Id(lhs).Op(":=").Add(rhs) }

// AssignTo returns "lhs = rhs".
func AssignTo(lhs string, rhs jen.Code) *jen.Statement { return jen.Id(lhs).Op("=").Add(rhs) }

// Set returns "lhs = rhs" for any assignable lhs.
func Set(lhs, rhs jen.Code) *jen.Statement { return jen.Add(lhs).Op("=").Add(rhs) }

// VarDecl returns "var name typ", or "var name typ = value" when value
// is not nil.
func VarDecl(name string, typ jen.Code, value jen.Code) *jen.Statement {
	s := jen.Var().Id(name).Add(typ)
	if value != nil {
		s.Op("=").Add(value)
	}
	return s
}

// Index returns "x[i]".
func Index(x string, i jen.Code) *jen.Statement { return jen.Id(x).Index(i) }

// CountLoop returns "for i := lo; i < hi; i++ { body }".
func CountLoop(i string, lo, hi jen.Code, body Stmts) *jen.Statement {
	return jen.For(Define(i, lo), jen.Id(i).Op("<").Add(hi), jen.Id(i).Op("++")).Add(Block(body))
}

// Ids returns identifiers.
func Ids(names ...string) []jen.Code {
	out := make([]jen.Code, len(names))
	for i, n := range names {
		out[i] = jen.Id(n)
	}
	return out
}

// MakeSlice returns "make(typ, args...)".
func MakeSlice(typ jen.Code, args ...jen.Code) *jen.Statement {
	return jen.Make(append([]jen.Code{typ}, args...)...)
}

// Lit returns the integer literal n.
func Lit(n int) *jen.Statement { return jen.Lit(n) }

// Type returns t as a jennifer type expression, qualifying names of
// other packages (registered with the file's imports).
func (g *File) Type(t types.Type) *jen.Statement {
	switch t := t.(type) {
	case *types.Basic:
		return jen.Id(t.Name())
	case *types.Named:
		return g.ObjName(t.Obj()).Add(g.typeArgs(t.TypeArgs()))
	case *types.Alias:
		return g.ObjName(t.Obj()).Add(g.typeArgs(t.TypeArgs()))
	case *types.TypeParam:
		if r := g.rename[t.Obj()]; r != "" {
			return jen.Id(r)
		}
		return jen.Id(t.Obj().Name())
	case *types.Slice:
		return jen.Index().Add(g.Type(t.Elem()))
	case *types.Array:
		return jen.Index(Lit(int(t.Len()))).Add(g.Type(t.Elem()))
	case *types.Pointer:
		return jen.Op("*").Add(g.Type(t.Elem()))
	case *types.Map:
		return jen.Map(g.Type(t.Key())).Add(g.Type(t.Elem()))
	case *types.Chan:
		switch t.Dir() {
		case types.SendOnly:
			return jen.Chan().Op("<-").Add(g.Type(t.Elem()))
		case types.RecvOnly:
			return jen.Op("<-").Chan().Add(g.Type(t.Elem()))
		}
		return jen.Chan().Add(g.Type(t.Elem()))
	case *types.Signature:
		return jen.Func().Add(g.signature(t))
	case *types.Struct:
		// One line, fields separated by semicolons, as the spec's types
		// are usually written inline.
		var fields []jen.Code
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			fc := jen.Null()
			if !f.Embedded() {
				fc.Id(f.Name())
			}
			fc.Add(g.Type(f.Type()))
			if tag := t.Tag(i); tag != "" {
				fc.Lit(tag)
			}
			fields = append(fields, fc)
		}
		return jen.Custom(jen.Options{Open: "struct{", Close: "}", Separator: ";"}, fields...)
	case *types.Interface:
		var elems []jen.Code
		for i := 0; i < t.NumEmbeddeds(); i++ {
			elems = append(elems, g.Type(t.EmbeddedType(i)))
		}
		for i := 0; i < t.NumExplicitMethods(); i++ {
			m := t.ExplicitMethod(i)
			elems = append(elems, jen.Id(m.Name()).Add(g.signature(m.Type().(*types.Signature))))
		}
		return jen.Custom(jen.Options{Open: "interface{", Close: "}", Separator: ";"}, elems...)
	case *types.Union:
		u := jen.Null()
		for i := 0; i < t.Len(); i++ {
			if i > 0 {
				u.Op("|")
			}
			if t.Term(i).Tilde() {
				u.Op("~")
			}
			u.Add(g.Type(t.Term(i).Type()))
		}
		return u
	}
	// Anything else (no such type occurs in a spec today): the type
	// checker's spelling, qualified by the package's own import names.
	return jen.Id(types.TypeString(t, func(p *types.Package) string {
		if p == g.pkg {
			return ""
		}
		return g.importName(p)
	}))
}

// typeArgs returns "[a, b]", or nothing for no arguments.
func (g *File) typeArgs(args *types.TypeList) *jen.Statement {
	var list []jen.Code
	for i := 0; i < args.Len(); i++ {
		list = append(list, g.Type(args.At(i)))
	}
	return jen.Types(list...)
}

// signature returns a function type's parameters and results.
func (g *File) signature(s *types.Signature) *jen.Statement {
	tuple := func(t *types.Tuple, variadic bool) []jen.Code {
		var list []jen.Code
		for i := 0; i < t.Len(); i++ {
			if variadic && i == t.Len()-1 {
				list = append(list, jen.Op("...").Add(g.Type(t.At(i).Type().(*types.Slice).Elem())))
				continue
			}
			list = append(list, g.Type(t.At(i).Type()))
		}
		return list
	}
	sig := jen.Params(tuple(s.Params(), s.Variadic())...)
	if s.Results().Len() > 0 {
		sig.Params(tuple(s.Results(), false)...)
	}
	return sig
}

// ObjName returns the name of a type object: qualified when it belongs
// to another package, bare when it is the package's own or universal.
func (g *File) ObjName(obj types.Object) *jen.Statement {
	if r := g.rename[obj]; r != "" {
		return jen.Id(r)
	}
	if obj.Pkg() == nil || obj.Pkg() == g.pkg {
		return jen.Id(obj.Name())
	}
	g.usePkg(obj.Pkg())
	return jen.Qual(obj.Pkg().Path(), obj.Name())
}

// labelStmt returns the label "name:", on its own line before the
// statement it labels.
func labelStmt(name string) *jen.Statement { return jen.Id(name).Op(":") }
