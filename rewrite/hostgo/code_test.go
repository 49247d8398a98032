package hostgo

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
)

// typesSrc declares a variable of every kind of type typeCode renders,
// with names of other packages (qualified), the package's own (bare),
// type arguments, tags, embedded fields and directions.
const typesSrc = `package p

import (
	"fmt"
	"strings"
	"time"
)

type S[T any] struct{ X T }

type Named int

type Num interface{ ~int | ~float64 }

func G[T Num](x T) T { var v T = x; return v }

var (
	a []int
	b [3]float64
	c *strings.Builder
	d map[string][]time.Duration
	e chan<- int
	f <-chan []byte
	g chan int
	h func(int, ...string) (bool, error)
	i struct {
		A int ` + "`json:\"a\"`" + `
		time.Time
	}
	j interface {
		M(int) string
		fmt.Stringer
	}
	k S[time.Duration]
	l Named
	m func()
	n struct{}
	o interface{}
	p map[S[int]]*[2]chan<- S[string]
)
`

// TestTypeCode renders the type of every variable of typesSrc with
// typeCode into a generated file of the same package, declaring a second
// variable of that type, and type-checks both files together: each
// rendered type must be identical to the one it was rendered from, its
// packages imported by the file.
func TestTypeCode(t *testing.T) {
	fset := token.NewFileSet()
	orig, err := parser.ParseFile(fset, "p.go", typesSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	check := func(files ...*ast.File) *types.Package {
		t.Helper()
		conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
		pkg, err := conf.Check("example.com/p", fset, files, nil)
		if err != nil {
			t.Fatal(err)
		}
		return pkg
	}
	pkg := check(orig)
	g := &File{pkg: pkg, imports: map[string]string{}, used: map[string]bool{}, jf: jen.NewFilePathName("example.com/p", "p")}
	var names []string
	for _, name := range pkg.Scope().Names() {
		v, ok := pkg.Scope().Lookup(name).(*types.Var)
		if !ok {
			continue
		}
		names = append(names, name)
		g.jf.Var().Id(name + "2").Add(g.Type(v.Type()))
	}
	// The type parameter of G, by its name where G's body is copied.
	tp := pkg.Scope().Lookup("G").Type().(*types.Signature).TypeParams().At(0)
	g.jf.Func().Id("G2").Types(jen.Id("T").Id("Num")).Params(jen.Id("x").Add(g.Type(tp))).Add(g.Type(tp)).Block(jen.Return(jen.Id("x")))
	var buf bytes.Buffer
	if err := g.jf.Render(&buf); err != nil {
		t.Fatal(err)
	}
	out, err := parser.ParseFile(fset, "p_soac.go", buf.Bytes(), 0)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	both := check(orig, out)
	if len(names) != 16 {
		t.Fatalf("%d variables, want 16", len(names))
	}
	for _, name := range names {
		want, got := both.Scope().Lookup(name).Type(), both.Scope().Lookup(name+"2").Type()
		if !types.Identical(want, got) {
			t.Errorf("%s: rendered %s, want %s", name, got, want)
		}
	}
	if g1, g2 := both.Scope().Lookup("G").Type(), both.Scope().Lookup("G2").Type(); !types.Identical(g1, g2) {
		t.Errorf("G2 is %s, want %s", g2, g1)
	}
	// Types of other packages are qualified with their import names; the
	// package's own are not.
	for _, want := range []string{`"fmt"`, `"strings"`, `"time"`, "time.Duration", "k2 S[time.Duration]", "l2 Named"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the generated file has no %s:\n%s", want, buf.String())
		}
	}
}

// TestBlock checks the two spellings of a block: an empty one keeps its
// braces on two lines, as the text generator wrote it, and a non-empty
// one holds its statements one a line.
func TestBlock(t *testing.T) {
	for _, c := range []struct {
		list Stmts
		want string
	}{
		{nil, "func f() {\n}"},
		{Stmts{Define("x", Lit(1)), AssignTo("_", Id("x"))}, "func f() {\n\tx := 1\n\t_ = x\n}"},
	} {
		var buf bytes.Buffer
		if err := jen.Func().Id("f").Params().Add(Block(c.list)).Render(&buf); err != nil {
			t.Fatal(err)
		}
		if buf.String() != c.want {
			t.Errorf("got %q, want %q", buf.String(), c.want)
		}
	}
}
