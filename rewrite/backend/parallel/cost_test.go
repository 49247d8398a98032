package parallel

// The work estimate of the parallel backend's grain: measured math costs,
// calls of the package's functions counted through their bodies (and
// recursion cut; a call charged only where the compiler does not inline
// it), and the uncertainty that makes a map time its first element
// (nested SOACs, loops of unknown length).

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
)

const costSrc = `package p

import "math"

func cnd(x float64) float64 { return 0.5 * (1 + math.Erf(x/math.Sqrt2)) }

func twice(x float64) float64 { return cnd(x) + cnd(-x) }

func loop(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func rec(n int) int {
	if n == 0 {
		return 0
	}
	return rec(n - 1)
}

var lits = []any{
	func(x float64) float64 { return math.Exp(x) },
	func(x float64) float64 { return math.Pow(x, 2) },
	func(x float64) float64 { return twice(x) },
	func(x float64) float64 { return x + 1 },
	func(xs []float64) float64 { return loop(xs) },
	func(n int) int { return rec(n) },
}
`

func TestCostEstimate(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", costSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("p", fset, []*ast.File{file}, info); err != nil {
		t.Fatal(err)
	}
	var lits []*ast.FuncLit
	ast.Inspect(file, func(n ast.Node) bool {
		if l, ok := n.(*ast.FuncLit); ok {
			lits = append(lits, l)
		}
		return true
	})
	named := func(name string) *ir.Lambda {
		for id, obj := range info.Defs {
			if fn, ok := obj.(*types.Func); ok && id.Name == name {
				return &ir.Lambda{Func: fn}
			}
		}
		t.Fatalf("no function %s", name)
		return nil
	}
	erf := mathNanos["Erf"]
	for _, c := range []struct {
		name      string
		l         *ir.Lambda
		min, max  int // nanoseconds
		uncertain bool
	}{
		{"math.Exp", &ir.Lambda{Lit: lits[0]}, mathNanos["Exp"], mathNanos["Exp"] + 2, false},
		{"math.Pow", &ir.Lambda{Lit: lits[1]}, mathNanos["Pow"], mathNanos["Pow"] + 2, false},
		{"twice through cnd", &ir.Lambda{Lit: lits[2]}, 2 * erf, 2*erf + 30, false},
		{"named twice", named("twice"), 2 * erf, 2*erf + 30, false},
		{"named cnd", named("cnd"), erf, erf + 10, false},
		{"x + 1", &ir.Lambda{Lit: lits[3]}, 1, 1, false},
		{"a loop in a callee", &ir.Lambda{Lit: lits[4]}, unitsLoop / unitsPerNanos, unitsLoop, true},
		{"recursion", &ir.Lambda{Lit: lits[5]}, 1, 3 * unitsCall * costDepth, false},
		{"a function without a body", &ir.Lambda{}, unitsCall / unitsPerNanos, unitsCall / unitsPerNanos, false},
	} {
		cs := newCosts(info, []*ast.File{file})
		got := cs.lambdaNanos(c.l, false)
		if got < c.min || got > c.max {
			t.Errorf("%s: %d ns, want %d..%d", c.name, got, c.min, c.max)
		}
		if cs.uncertain != c.uncertain {
			t.Errorf("%s: uncertain %v, want %v", c.name, cs.uncertain, c.uncertain)
		}
	}
	// Without the package's bodies a call counts as one call.
	if got := newCosts(nil, nil).lambdaNanos(&ir.Lambda{Lit: lits[2]}, false); got != unitsCall/unitsPerNanos {
		t.Errorf("twice without bodies: %d ns, want about one call", got)
	}
}

const chunkSrc = `package p

func per(c []int) []int {
	bins := make([]int, 8)
	for _, i := range c {
		bins[i]++
	}
	return bins
}

func whole(c []int) int { return len(c) + 1 }

var lits = []any{
	func(c []int) []int {
		out := make([]int, len(c))
		for i, x := range c {
			out[i] = x * 3
		}
		return out
	},
}
`

// TestChunkUnits: a stream's chunk function counts, per element, the
// bodies of its loops over the chunk, not the statements around them
// (its result's allocation runs once per chunk); without a loop it
// counts whole.
func TestChunkUnits(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", chunkSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{file}, info); err != nil {
		t.Fatal(err)
	}
	fn := func(name string) *ir.Lambda {
		for id, obj := range info.Defs {
			if f, ok := obj.(*types.Func); ok && id.Name == name {
				return &ir.Lambda{Func: f}
			}
		}
		t.Fatalf("no function %s", name)
		return nil
	}
	var lit *ast.FuncLit
	ast.Inspect(file, func(n ast.Node) bool {
		if l, ok := n.(*ast.FuncLit); ok {
			lit = l
		}
		return true
	})
	cs := newCosts(info, []*ast.File{file})
	for _, c := range []struct {
		name string
		l    *ir.Lambda
		want int // units
	}{
		{"bins[i]++ in a loop after a make", fn("per"), unitsOp},
		{"out[i] = x * 3 in a loop after a make", &ir.Lambda{Lit: lit}, 2 * unitsOp},
		{"no loop", fn("whole"), cs.lambdaUnits(fn("whole"), true)},
	} {
		if got := cs.chunkUnits(c.l); got != c.want {
			t.Errorf("%s: %d units, want %d", c.name, got, c.want)
		}
	}
	if whole := cs.lambdaUnits(fn("per"), true); whole <= cs.chunkUnits(fn("per")) {
		t.Errorf("the whole chunk function counts %d units, no more than its loop", whole)
	}
}

const inlineCostSrc = `package p

var lo, hi = -1.0, 1.0

func bin(x, lo, hi float64, nbins int) int {
	i := int((x - lo) / (hi - lo) * float64(nbins))
	return min(max(i, 0), nbins-1)
}

func large(x float64) float64 {
	a := x*x + 2*x + 1
	b := a*a - 3*a + 2
	c := b*b + 4*b - 5
	d := c*c - 6*c + 7
	e := d*d + 8*d - 9
	f := e*e - 10*e + 11
	return a + b + c + d + e + f
}

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func deferred(x int) (r int) {
	defer func() { r++ }()
	return x + 1
}

func double[T int | float64](x T) T { return x * 2 }

var lits = []any{
	func(x float64) int { return bin(x, lo, hi, 256) },
	func(x float64) float64 { return large(x) },
	func(n int) int { return fib(n) },
	func(x int) int { return deferred(x) },
	func(x float64) float64 { return double(x) },
}
`

// TestInlinedCallCosts: a call of a package function the compiler
// inlines (examples/histogram's bin) costs its body alone, from a
// literal and as a named lambda; one over the inliner's budget, a
// recursive one and one with a defer cost their bodies and a call. A
// generic function's call counts its declaration's body.
func TestInlinedCallCosts(t *testing.T) {
	cs, funcs, file := inlineCosts(t, inlineCostSrc)
	var lits []*ast.FuncLit
	ast.Inspect(file, func(n ast.Node) bool {
		if l, ok := n.(*ast.FuncLit); ok && len(l.Body.List) == 1 {
			if _, ok := l.Body.List[0].(*ast.ReturnStmt); ok {
				lits = append(lits, l)
			}
		}
		return true
	})
	for i, c := range []struct {
		name    string
		inlined bool
	}{{"bin", true}, {"large", false}, {"fib", false}, {"deferred", false}, {"double", true}} {
		fn := funcs[c.name]
		body := cs.bodyUnits(cs.decls[fn].Body, false, 1, map[*types.Func]bool{fn: true})
		want := body
		if !c.inlined {
			want += unitsCall
		}
		if got := cs.lambdaUnits(&ir.Lambda{Lit: lits[i]}, false); got != want {
			t.Errorf("a literal calling %s: %d units, want %d (its body %d, inlined %v)", c.name, got, want, body, c.inlined)
		}
		if got := cs.lambdaUnits(&ir.Lambda{Kind: ir.NamedFunc, Func: fn}, false); got != want {
			t.Errorf("%s as the lambda: %d units, want %d (its body %d, inlined %v)", c.name, got, want, body, c.inlined)
		}
		// As a chunk function it is called once per chunk: no call per
		// element, inlined or not.
		chunkBody := cs.bodyUnits(cs.decls[fn].Body, true, 1, map[*types.Func]bool{fn: true})
		if got := cs.lambdaUnits(&ir.Lambda{Kind: ir.NamedFunc, Func: fn}, true); got != chunkBody {
			t.Errorf("%s as a chunk function: %d units, want its body's %d", c.name, got, chunkBody)
		}
		// A method value is called through the value: a call still.
		if got := cs.lambdaUnits(&ir.Lambda{Kind: ir.MethodValue, Func: fn}, false); got != body+unitsCall {
			t.Errorf("%s as a method value: %d units, want %d", c.name, got, body+unitsCall)
		}
	}
	// bin's body is 10 units (5 ns): histogram's map element without the
	// 5 ns call that the compiler inlines away.
	if got := cs.lambdaNanos(&ir.Lambda{Lit: lits[0]}, false); got != 5 {
		t.Errorf("the literal calling bin: %d ns, want 5", got)
	}
}
