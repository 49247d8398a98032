package hostgo

// This file renames the spec's local objects (parameters, results,
// receivers, type parameters, variables, constants and types declared in
// the spec, closures included) whose names generated code may need for
// something else: the builtins and predeclared types it calls and declares
// with (len, make, min, append, panic, int, ...), the packages it
// qualifies names with (fmt, soac, the spec file's imports, the packages
// of the types it spells), and the package-level names a kernel may refer
// to where the spec has declared a local of the same name (a named
// function called by a kernel, a global read by an inlined literal). A
// renamed object gets a fresh name at every reference, found by its
// types.Object, so that no local of the generated function shadows what
// generated code means by those names.
//
// It does not rename struct fields, methods or labels (selectors and
// labels are never shadowed by a local), and it gives up (the spec is
// then generated unfused) on an embedded field whose type it would rename,
// since the field's name would change with it.

import (
	"fmt"
	"go/ast"
	"go/types"
)

// qualifiers are the packages generated code qualifies names with on its
// own: fmt.Sprintf formats the runtime's panic messages, math's bit
// conversions select floats, soac is the runtime, launch and skel the
// OpenCL runtime (rewrite/backend/opencl). A qualifier not reserved is an
// internal error (File.unreserved).
var qualifiers = []string{"fmt", "launch", "math", "skel", "soac"}

// renameLocals fills f.rename and f.renameIdent for the spec being
// generated, and f.reserved.
func (f *Func) renameLocals() error {
	reserved := f.reservedNames()
	f.File.reserved = reserved
	decl := f.fn.Decl
	local := func(obj types.Object) bool {
		if obj == nil || obj.Pkg() != f.pkg || obj.Parent() == nil || obj.Parent() == f.pkg.Scope() {
			return false
		}
		if obj.Pos() < decl.Pos() || obj.Pos() >= decl.End() {
			return false
		}
		switch obj := obj.(type) {
		case *types.Var:
			return !obj.IsField()
		case *types.Const, *types.TypeName:
			return true
		}
		return false
	}
	var err error
	ast.Inspect(decl, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			obj := f.info.Defs[n]
			if local(obj) && reserved[obj.Name()] && f.rename[obj] == "" {
				f.rename[obj] = f.Fresh(obj.Name())
			}
		case *ast.TypeSwitchStmt:
			// The symbolic variable of "switch t := x.(type)" has no
			// object; each clause has an implicit one of the same name.
			as, ok := n.Assign.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 {
				return true
			}
			id, ok := as.Lhs[0].(*ast.Ident)
			if !ok || !reserved[id.Name] {
				return true
			}
			name := f.Fresh(id.Name)
			f.renameIdent[id] = name
			for _, cl := range n.Body.List {
				if obj := f.info.Implicits[cl]; obj != nil {
					f.rename[obj] = name
				}
			}
		}
		return true
	})
	// An embedded field is named by its type: renaming the type would
	// rename the field, which selectors name by the field's object.
	ast.Inspect(decl, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && err == nil {
			if v, ok := f.info.Defs[id].(*types.Var); ok && v.Embedded() && f.rename[f.info.Uses[id]] != "" {
				err = fmt.Errorf("cannot rename %s, the type of an embedded field at %s", id.Name, f.fset.Position(id.Pos()))
			}
		}
		return err == nil
	})
	return err
}

// reservedNames returns the names no local of the generated function may
// have: the universe's, the package's, the spec file's (imports and
// dot-imported names), the qualifiers, and those of the packages whose
// types generated code may spell.
func (f *Func) reservedNames() map[string]bool {
	r := map[string]bool{}
	for _, n := range qualifiers {
		r[n] = true
	}
	for _, n := range types.Universe.Names() {
		r[n] = true
	}
	for _, n := range f.pkg.Scope().Names() {
		r[n] = true
	}
	if fs := f.info.Scopes[f.file]; fs != nil {
		for _, n := range fs.Names() {
			r[n] = true
		}
	}
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	named := func(obj *types.TypeName, args *types.TypeList) {
		if p := obj.Pkg(); p != nil && p != f.pkg {
			r[p.Name()] = true
		}
		for i := 0; i < args.Len(); i++ {
			walk(args.At(i))
		}
	}
	tuple := func(t *types.Tuple) {
		for i := 0; i < t.Len(); i++ {
			walk(t.At(i).Type())
		}
	}
	walk = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			named(t.Obj(), t.TypeArgs())
		case *types.Alias:
			named(t.Obj(), t.TypeArgs())
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Signature:
			tuple(t.Params())
			tuple(t.Results())
		case *types.Tuple:
			tuple(t)
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				walk(t.Field(i).Type())
			}
		case *types.Interface:
			for i := 0; i < t.NumExplicitMethods(); i++ {
				walk(t.ExplicitMethod(i).Type())
			}
			for i := 0; i < t.NumEmbeddeds(); i++ {
				walk(t.EmbeddedType(i))
			}
		case *types.Union:
			for i := 0; i < t.Len(); i++ {
				walk(t.Term(i).Type())
			}
		}
	}
	ast.Inspect(f.fn.Decl, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok {
			walk(f.info.TypeOf(e))
		}
		return true
	})
	return r
}

// renamed returns the name of a renamed local an identifier of the spec
// defines or refers to, or "".
func (f *Func) renamed(id *ast.Ident) string {
	if n, ok := f.renameIdent[id]; ok {
		return n
	}
	if obj := f.info.Defs[id]; obj != nil {
		return f.rename[obj]
	}
	return f.rename[f.info.Uses[id]]
}

// localName returns the name of the object an identifier of the spec
// defines or refers to, in generated code.
func (f *Func) localName(id *ast.Ident) string {
	if n := f.renamed(id); n != "" {
		return n
	}
	return id.Name
}
