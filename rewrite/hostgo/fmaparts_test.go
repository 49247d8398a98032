package hostgo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
)

// partsSrc declares result types of every kind floatParts meets.
const partsSrc = `package p

type F float64

type inner struct{ a float32; n int }

type Moments struct{ Sum, SumSq float64 }

type nested struct {
	In  inner
	Arr [2]F
	C   complex128
	P   *Moments
	S   []float64
	I   any
}

type blank struct {
	_ float64
	X float64
}

type unexported struct{ x float64 }

type big [17]float64

type bigInts [100]int

type noFloats struct{ N int; S string }

type gen[T any] struct{ X T }

var (
	vMoments    Moments
	vNested     nested
	vBlank      blank
	vUnexported unexported
	vBig        big
	vBigInts    bigInts
	vNoFloats   noFloats
	vGen        gen[float64]
	vFloat      float64
	vSlice      []float64
)

func g[T ~float64](x T) struct{ V T } { return struct{ V T }{x} }

type Float interface{ ~float32 | ~float64 }

type Number interface{ int | Float }

func h[A Float, B Number, C int | string, D any, E interface{ complex64 }, G interface{ Number; ~float64 }]() {}
`

// TestFloatParts checks the parts floatParts names (as the generated
// code selects them) and the types it refuses: a blank field, an
// unexported field seen from another package, more than maxRoundedParts,
// a type parameter, and anything but a struct or an array.
func TestFloatParts(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", partsSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	other := types.NewPackage("q", "q")
	typ := func(name string) types.Type { return pkg.Scope().Lookup(name).Type() }
	for _, c := range []struct {
		name string
		from *types.Package
		want string // the parts, or "-" when refused
	}{
		{"vMoments", pkg, "r.Sum r.SumSq"},
		{"vMoments", other, "r.Sum r.SumSq"},
		{"vNested", pkg, "r.In.a r.Arr[0] r.Arr[1] r.C"},
		{"vNested", other, "-"},
		{"vBlank", pkg, "-"},
		{"vUnexported", pkg, "r.x"},
		{"vUnexported", other, "-"},
		{"vBig", pkg, "-"},
		{"vBigInts", pkg, ""},
		{"vNoFloats", pkg, ""},
		{"vGen", pkg, "r.X"},
		{"vFloat", pkg, "-"},
		{"vSlice", pkg, "-"},
	} {
		parts, ok := floatParts(c.from, typ(c.name))
		got := "-"
		if ok {
			var s []string
			for _, p := range parts {
				s = append(s, jen.Add(partExpr(jen.Id("r"), p)).GoString())
			}
			got = strings.Join(s, " ")
		}
		if got != c.want {
			t.Errorf("floatParts(%s) from %s = %q, want %q", c.name, c.from.Path(), got, c.want)
		}
	}
	sig := pkg.Scope().Lookup("g").Type().(*types.Signature)
	if _, ok := floatParts(pkg, sig.Results().At(0).Type()); ok {
		t.Errorf("floatParts accepts a struct with a type parameter field")
	}
}

// TestIsFloatTypeParam checks that a type parameter counts as float when
// its type set has a float or complex type, through named and nested
// constraints, and not otherwise.
func TestIsFloatTypeParam(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", partsSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tps := pkg.Scope().Lookup("h").Type().(*types.Signature).TypeParams()
	want := map[string]bool{"A": true, "B": true, "C": false, "D": false, "E": true, "G": true}
	for i := 0; i < tps.Len(); i++ {
		tp := tps.At(i)
		if got := isFloat(tp); got != want[tp.Obj().Name()] {
			t.Errorf("isFloat(%s %s) = %v, want %v", tp, tp.Constraint(), got, !got)
		}
	}
}
