package build

import (
	"fmt"
	"go/ast"
	gobuild "go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// genPackage returns the source of a package of n spec functions with 5 to
// 10 SOAC calls each, in the shapes users write: chains bound to variables,
// nested calls, literal and named lambdas, SOACs inside lambdas, branches
// and loops. The same seed gives the same source.
func genPackage(n int, seed int64) string {
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	b.WriteString(`package gen

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

func add(a, b float64) float64 { return a + b }
func sq(x float64) float64     { return x * x }

var scale = 2.0
`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\n//soac:fuse Gen%d\nfunc spec%d(xs, ys []float64, k float64) (float64, []float64) {\n", i, i)
		live := []string{"xs", "ys"}
		pick := func() string { return live[r.Intn(len(live))] }
		nsoac := 5 + r.Intn(6)
		made := 0
		v := 0
		for made < nsoac {
			v++
			name := fmt.Sprintf("a%d", v)
			switch r.Intn(8) {
			case 0:
				fmt.Fprintf(&b, "\t%s := soac.Map(%s, func(x float64) float64 { return x*k + scale })\n", name, pick())
				made++
			case 1:
				fmt.Fprintf(&b, "\t%s := soac.Map(soac.Map(%s, sq), math.Sqrt)\n", name, pick())
				made += 2
			case 2:
				fmt.Fprintf(&b, "\t%s := soac.Map2(%s, %s, add)\n", name, pick(), pick())
				fmt.Fprintf(&b, "\tif len(%s) > len(%s) {\n\t\t%s = %s\n\t}\n", name, pick(), name, name)
				made++
			case 3:
				fmt.Fprintf(&b, "\ts%d := soac.Reduce(soac.Filter(%s, func(x float64) bool { return x > k }), 0, add)\n", v, pick())
				fmt.Fprintf(&b, "\t%s := soac.Map(%s, func(x float64) float64 { return x / s%d })\n", name, pick(), v)
				made += 3
			case 4:
				fmt.Fprintf(&b, "\t%s := soac.Scan(%s[1:], 0, add)\n", name, pick())
				made++
			case 5:
				fmt.Fprintf(&b, "\t%s := soac.Map(soac.Iota(len(%s)), func(i int) float64 { return soac.Reduce(soac.Map(%s, sq), 0, add) + float64(i) })\n", name, pick(), pick())
				made += 4
			case 6:
				fmt.Fprintf(&b, "\t%s := %s\n\tfor j := 0; j < 2; j++ {\n\t\t%s = soac.Map(%s, sq)\n\t}\n", name, pick(), name, name)
				made++
			case 7:
				fmt.Fprintf(&b, "\t%s := soac.StreamMap(%s, func(c []float64) []float64 { return soac.Map(c, sq) })\n\t%s[0] = 1\n", name, pick(), name)
				made += 2
			}
			fmt.Fprintf(&b, "\t_ = %s\n", name)
			live = append(live, name)
		}
		fmt.Fprintf(&b, "\treturn soac.Reduce(%s, 0, add), %s\n}\n", live[len(live)-1], live[len(live)-1])
	}
	return b.String()
}

// soacImporter imports runtime/soac from source and everything else from
// export data.
type soacImporter struct {
	fset *token.FileSet
	std  types.Importer
	soac *types.Package
}

func (im *soacImporter) Import(path string) (*types.Package, error) {
	if path != SOACPath {
		return im.std.Import(path)
	}
	if im.soac != nil {
		return im.soac, nil
	}
	dir := filepath.Join("..", "..", "runtime", "soac")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		if ok, err := gobuild.Default.MatchFile(dir, e.Name()); err != nil || !ok {
			continue // another target's file (fma_fused.go or fma_unfused.go)
		}
		f, err := parser.ParseFile(im.fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: im.std}
	im.soac, err = conf.Check(SOACPath, im.fset, files, nil)
	return im.soac, err
}

// typecheck parses and type-checks one generated file.
func typecheck(t testing.TB, src string) (*token.FileSet, []*ast.File, *types.Package, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "src.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types:      make(map[ast.Expr]types.TypeAndValue),
		Defs:       make(map[*ast.Ident]types.Object),
		Uses:       make(map[*ast.Ident]types.Object),
		Implicits:  make(map[ast.Node]types.Object),
		Selections: make(map[*ast.SelectorExpr]*types.Selection),
		Instances:  make(map[*ast.Ident]types.Instance),
		Scopes:     make(map[ast.Node]*types.Scope),
	}
	conf := types.Config{Importer: &soacImporter{fset: fset, std: importer.Default()}}
	pkg, err := conf.Check(f.Name.Name, fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return fset, []*ast.File{f}, pkg, info
}

// countSOACs returns the number of SOAC statements of fn at any depth.
func countSOACs(fn *ir.Function) int {
	n := 0
	ir.Walk(fn.Body, func(s ir.Stmt) bool {
		if _, ok := s.(*ir.SOAC); ok {
			n++
		}
		return true
	})
	return n
}

// countCalls returns the number of combinator calls in n's source.
func countCalls(info *types.Info, n ast.Node) int {
	c := 0
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id := calleeIdent(call.Fun); id != nil && combinatorName(info.Uses[id]) != "" {
				c++
			}
		}
		return true
	})
	return c
}

// TestGenerated builds a generated package: every function verifies, every
// combinator call of the source is one SOAC statement, every spec has its
// directive.
func TestGenerated(t *testing.T) {
	collectInternal(t)
	fset, files, pkg, info := typecheck(t, genPackage(60, 1))
	prog := Build(fset, files, pkg, info, fakePurity{info})
	if len(prog.Funcs) != 60 {
		t.Fatalf("built %d functions, want 60", len(prog.Funcs))
	}
	if len(prog.Problems) != 0 {
		t.Errorf("problems: %v", prog.Problems)
	}
	for _, fn := range prog.Funcs {
		if err := ir.Verify(fn); err != nil {
			t.Error(err)
		}
		if fn.Fuse == nil || fn.Fuse.Name != "Gen"+strings.TrimPrefix(fn.Name, "spec") {
			t.Errorf("%s: directive %+v", fn.Name, fn.Fuse)
		}
		if got, want := countSOACs(fn), countCalls(info, fn.Decl.Body); got != want || len(fn.Unsupported) != 0 {
			t.Errorf("%s: %d SOAC statements, %d unsupported, for %d calls", fn.Name, got, len(fn.Unsupported), want)
		}
	}
}

// BenchmarkBuild builds a generated package of 500 specs with 5 to 10 SOAC
// calls each (the analysis of such a package must take under 2 s).
func BenchmarkBuild(b *testing.B) {
	fset, files, pkg, info := typecheck(b, genPackage(500, 1))
	pur := fakePurity{info}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		prog := Build(fset, files, pkg, info, pur)
		if len(prog.Funcs) != 500 {
			b.Fatalf("built %d functions", len(prog.Funcs))
		}
	}
}
