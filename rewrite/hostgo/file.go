package hostgo

// This file holds File, the generated file of one spec file: its imports
// (the spec file's names for the packages it imports), the fresh names
// of its functions, and its printing. It does not generate a spec's
// function (func.go and body.go do) nor decide where the file goes (package
// rewrite does).

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// SOACPath is the import path of the combinator package.
const SOACPath = "github.com/soacgen/soacgen/runtime/soac"

// Source is what the host generator reads of the package whose specs it
// generates: its files, types and positions.
type Source struct {
	Fset  *token.FileSet
	Files []*ast.File
	Pkg   *types.Package
	Info  *types.Info
}

// File generates the file for one source file.
type File struct {
	files   []*ast.File
	fset    *token.FileSet
	info    *types.Info
	pkg     *types.Package
	file    *ast.File
	tf      *token.File
	src     []byte
	jf      *jen.File
	imports map[string]string // path -> local name in the spec file ("." for dot imports)
	used    map[string]bool   // paths registered with jf
	taken   map[string]bool   // identifiers a fresh name must avoid
	base    map[string]bool   // taken before any function was generated
	// rename maps the spec's locals renamed in the function being
	// generated to their names there; reserved are the names no local
	// there has (rename.go); unreserved is a package name generated code
	// qualified a reference with that is not among them, an internal
	// error.
	rename     map[types.Object]string
	reserved   map[string]bool
	unreserved string
	// vec and scalar are the declarations of the file's companions
	// (vector.go): kernels' vector forms and their scalar stubs.
	vec, scalar []jen.Code
	// vecFuncs names the vector function of each kernel that has one.
	vecFuncs map[any]string
}

// NewFile starts the generated file of spec file f of package src,
// whose source text is text; header is the file's leading comment
// (soacgen's header, then the spec file's build constraints).
func NewFile(src Source, f *ast.File, text []byte, header string) *File {
	g := &File{
		files: src.Files, fset: src.Fset, info: src.Info, pkg: src.Pkg, file: f, src: text,
		tf: src.Fset.File(f.Pos()), imports: map[string]string{}, used: map[string]bool{}, taken: map[string]bool{},
	}
	g.jf = jen.NewFilePathName(src.Pkg.Path(), src.Pkg.Name())
	g.jf.HeaderComment(header)
	for _, is := range f.Imports {
		path, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			continue
		}
		if is.Name != nil {
			if is.Name.Name != "_" {
				g.imports[path] = is.Name.Name
			}
			continue
		}
		if obj, ok := src.Info.Implicits[is].(*types.PkgName); ok {
			g.imports[path] = obj.Imported().Name()
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			g.taken[id.Name] = true
		}
		return true
	})
	for _, n := range src.Pkg.Scope().Names() {
		g.taken[n] = true
	}
	for _, n := range types.Universe.Names() {
		g.taken[n] = true
	}
	g.base = g.taken
	return g
}

// usePkg registers p's import under the spec file's name for it, or its
// own name when the spec file does not import it.
func (g *File) usePkg(p *types.Package) {
	g.usePath(p.Path(), p.Name())
}

func (g *File) usePath(path, name string) {
	q := name
	if local, ok := g.imports[path]; ok {
		q = local
	}
	if g.reserved != nil && q != "." && !g.reserved[q] && g.unreserved == "" {
		g.unreserved = q
	}
	if g.used[path] {
		return
	}
	g.used[path] = true
	if local, ok := g.imports[path]; ok {
		if local == name {
			g.jf.ImportName(path, name)
		} else {
			g.jf.ImportAlias(path, local)
		}
		return
	}
	g.jf.ImportName(path, name)
}

// importName is the name through which generated code refers to p.
func (g *File) importName(p *types.Package) string {
	g.usePkg(p)
	if local, ok := g.imports[p.Path()]; ok && local != "." {
		return local
	}
	return p.Name()
}

// soacQ returns a reference to a runtime/soac name.
func (g *File) soacQ(name string) *jen.Statement {
	return g.Qual(SOACPath, "soac", name)
}

// Qual returns a reference to a package-level name of another package,
// registering its import.
func (g *File) Qual(path, pkgName, name string) *jen.Statement {
	g.usePath(path, pkgName)
	return jen.Qual(path, name)
}

// Fresh returns an identifier starting with base that appears nowhere in
// the spec file, the package scope, the universe or earlier generated code.
func (g *File) Fresh(base string) string {
	name := base
	for i := 2; g.taken[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	g.taken[name] = true
	return name
}

// Render assembles the file from the declarations of each spec and
// prints it.
func (g *File) Render(decls [][]jen.Code) ([]byte, error) {
	for i, d := range decls {
		if i > 0 {
			g.jf.Line()
		}
		for _, item := range d {
			g.jf.Add(item)
		}
	}
	var buf bytes.Buffer
	if err := g.jf.Render(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// text returns the source text of [pos, end).
func (g *File) text(pos, end token.Pos) string {
	return string(g.src[g.tf.Offset(pos):g.tf.Offset(end)])
}

// sortedKernels returns ks ordered by ID (deterministic).
func sortedKernels(ks []*lowered.PlanKernel) []*lowered.PlanKernel {
	out := append([]*lowered.PlanKernel(nil), ks...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Verbatim returns NAME with the spec's body as written: the reference
// semantics, unfused.
func (g *File) Verbatim(fn *ir.Function) []jen.Code {
	g.resetTaken()
	g.rename, g.reserved = nil, nil
	f := &Func{File: g, fn: fn}
	return []jen.Code{
		jen.Commentf("%s runs the code of %s unfused (the generator could not generate its kernels).", fn.Fuse.Name, fn.Name),
		f.signature().Add(f.sub(fn.Decl.Body, nil)),
	}
}

// resetTaken starts the fresh names of a function from the names of the
// file: fresh names are unique per function.
func (g *File) resetTaken() {
	g.taken = clone(g.base)
}

// PackageVar returns a package-level name starting with base, taken for
// every function of the file.
func (g *File) PackageVar(base string) string {
	n := g.Fresh(base)
	g.base[n] = true
	return n
}
