package randpipe

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDeterministic: the same seed gives the same bytes; another seed
// another package.
func TestDeterministic(t *testing.T) {
	a, b := Generate(7, Config{}), Generate(7, Config{})
	if !bytes.Equal(a.Source, b.Source) {
		t.Fatal("same seed, different source")
	}
	if c := Generate(8, Config{}); bytes.Equal(a.Source, c.Source) {
		t.Fatal("different seeds, same source")
	}
}

// moreConstructs are what the specs of MoreConfig must hold, by a
// pattern of their source.
var moreConstructs = map[string]*regexp.Regexp{
	"a branch on flag":                   regexp.MustCompile(regexp.QuoteMeta("flag {")),
	"a zip with an Iota in the call":     regexp.MustCompile(regexp.QuoteMeta("soac.Map2(soac.Iota(len(")),
	"a zip with a Replicate in the call": regexp.MustCompile(regexp.QuoteMeta(", soac.Replicate(len(")),
	"a chunk read by index":              regexp.MustCompile(regexp.QuoteMeta("v := ch[i]")),
	"a division that may panic":          regexp.MustCompile(`%[345] ?\+ ?1\)`),
	"an operator not associative":        regexp.MustCompile(regexp.QuoteMeta("a*3 + b")),
	"a start that is not neutral":        regexp.MustCompile(regexp.QuoteMeta("-1<<40")),
}

// TestGeneratedTypeChecks type-checks generated packages, without and
// with reassignment shapes and with MoreConfig's constructs, against the
// real runtime and checks that the recorded SOAC count matches the
// source, and that every shape kind (the path shapes in MoreConfig's
// specs) and every construct of MoreConfig is generated.
func TestGeneratedTypeChecks(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 10
	}
	dir := t.TempDir()
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil) // one importer: its packages are cached
	shapes := map[string]int{}
	more := map[string]int{}
	for seed := int64(0); seed < int64(3*n); seed++ {
		cfg := Config{Specs: 10}
		switch {
		case seed >= int64(2*n):
			cfg = MoreConfig
		case seed >= int64(n):
			cfg.ShapeRate = 1
		}
		p := Generate(seed, cfg)
		if seed >= int64(2*n) {
			for what, sub := range moreConstructs {
				more[what] += len(sub.FindAllIndex(p.Source, -1))
			}
		}
		for _, s := range p.Specs {
			for _, k := range s.Shapes {
				shapes[k.String()]++
			}
		}
		f, err := parser.ParseFile(fset, "p.go", p.Source, parser.ParseComments)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		conf := types.Config{Importer: imp}
		if _, err := conf.Check(p.Name, fset, []*ast.File{f}, nil); err != nil {
			os.WriteFile(filepath.Join(dir, "bad.go"), p.Source, 0o644)
			t.Fatalf("seed %d: %v\n%s", seed, err, p.Source)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !strings.HasPrefix(fd.Name.Name, "spec") {
				continue
			}
			var sp *Spec
			for i := range p.Specs {
				if p.Specs[i].Func == fd.Name.Name {
					sp = &p.Specs[i]
				}
			}
			calls := 0
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if se, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := se.X.(*ast.Ident); ok && id.Name == "soac" {
						calls++
					}
				}
				return true
			})
			if sp == nil || calls != sp.SOACs {
				t.Errorf("seed %d %s: %d soac calls in source, spec records %v", seed, fd.Name.Name, calls, sp)
			}
		}
	}
	t.Logf("shapes: %s", FormatCounts(shapes))
	for _, k := range append(AllShapes(), PathShapes()...) {
		if shapes[k.String()] == 0 {
			t.Errorf("no spec has shape %s", k)
		}
	}
	t.Logf("constructs of MoreConfig: %s", FormatCounts(more))
	for what := range moreConstructs {
		if more[what] == 0 {
			t.Errorf("no spec of MoreConfig has %s", what)
		}
	}
}

// TestPathShapesKeepSpecs: the path shapes draw from a source of their
// own, so turning them on leaves every spec that gets none as it was,
// byte for byte (and so the programs of the seeds other tests and
// regression files name), while each spec that gets one holds its
// variable.
func TestPathShapesKeepSpecs(t *testing.T) {
	funcs := func(p Package) map[string]string {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", p.Source, parser.ParseComments)
		if err != nil {
			t.Fatalf("seed %d: %v", p.Seed, err)
		}
		out := map[string]string{}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
				out[fd.Name.Name] = string(p.Source[fset.Position(fd.Doc.Pos()).Offset:fset.Position(fd.End()).Offset])
			}
		}
		return out
	}
	kept, changed := 0, 0
	for seed := int64(0); seed < 20; seed++ {
		for _, cfg := range []Config{ShapeConfig, MoreConfig} {
			off := cfg
			off.ReturnPathRate, off.ClosureCallRate = 0, 0
			on, was := Generate(seed, cfg), Generate(seed, off)
			fon, fwas := funcs(on), funcs(was)
			for _, sp := range on.Specs {
				if len(sp.Paths) == 0 {
					kept++
					if fon[sp.Func] != fwas[sp.Func] {
						t.Errorf("seed %d %s: no path shape, but the spec changed:\n%s\nwas\n%s", seed, sp.Func, fon[sp.Func], fwas[sp.Func])
					}
					continue
				}
				changed++
				for _, ps := range sp.Paths {
					if !strings.Contains(fon[sp.Func], ps.Var+" := ") || strings.Contains(fwas[sp.Func], ps.Var+" := ") {
						t.Errorf("seed %d %s: path shape %s does not define %s", seed, sp.Func, ps.Kind, ps.Var)
					}
				}
			}
		}
	}
	if kept == 0 || changed == 0 {
		t.Errorf("%d specs kept, %d with path shapes", kept, changed)
	}
}
