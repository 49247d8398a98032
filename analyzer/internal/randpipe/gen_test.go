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

// TestGeneratedTypeChecks type-checks generated packages, without and
// with reassignment shapes, against the real runtime and checks that the
// recorded SOAC count matches the source, and that every shape kind is
// generated.
func TestGeneratedTypeChecks(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 10
	}
	dir := t.TempDir()
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil) // one importer: its packages are cached
	shapes := map[string]int{}
	for seed := int64(0); seed < int64(2*n); seed++ {
		cfg := Config{Specs: 10}
		if seed >= int64(n) {
			cfg.ShapeRate = 1
		}
		p := Generate(seed, cfg)
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
	t.Logf("shapes: %s", fmtCounts(shapes))
	for _, k := range AllShapes() {
		if shapes[k.String()] == 0 {
			t.Errorf("no spec has shape %s", k)
		}
	}
}
