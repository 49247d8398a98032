package build

import (
	"go/ast"
	"go/types"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// TestStdlibRobustness builds the IR of every function of a few standard
// library packages (which use every construct of the language, but no
// SOACs): nothing may crash, every function must verify, and the builder
// must not trip over its own assumptions.
func TestStdlibRobustness(t *testing.T) {
	if testing.Short() {
		t.Skip("loads standard-library packages")
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, "strings", "sort", "encoding/json", "text/template/parse", "go/printer", "fmt", "bufio", "net/url", "net/http", "slices", "maps", "go/types", "regexp/syntax", "compress/flate", "math/big", "iter", "context")
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	internalHook = func(fn *ir.Function, m []string) { msgs = append(msgs, m...) }
	defer func() { internalHook = nil }()
	n := 0
	for _, pkg := range pkgs {
		if len(pkg.Errors) > 0 {
			t.Fatalf("%s: %v", pkg.PkgPath, pkg.Errors)
		}
		pur := fakePurity{pkg.TypesInfo}
		for _, f := range pkg.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				obj, _ := pkg.TypesInfo.Defs[fd.Name].(*types.Func)
				fn := buildFunc(pkg.Fset, pkg.TypesInfo, pur, fd, obj)
				n++
				if err := ir.Verify(fn); err != nil {
					t.Errorf("%s: %v", pkg.Fset.Position(fd.Pos()), err)
				}
				for _, m := range msgs {
					t.Errorf("%s: %s: internal: %s", pkg.PkgPath, fd.Name.Name, m)
				}
				msgs = nil
			}
		}
	}
	if n < 500 {
		t.Errorf("built only %d functions", n)
	}
}
