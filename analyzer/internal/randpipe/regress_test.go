package randpipe

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"regexp"
	"strings"
	"testing"
)

var hazardComment = regexp.MustCompile(`has hazard ([a-z0-9-]+) \(producer (\w+), consumer (\w+)\)`)

var shapesComment = regexp.MustCompile(`has shapes ([a-z0-9, -]+)\.`)

// parseSpecs recovers the Spec metadata of a committed regression file:
// the specs, their signatures, SOAC counts and the hazard comment the
// generator writes above each spec.
func parseSpecs(t *testing.T, name string, src []byte) []Spec {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := func(n ast.Node) string {
		var b strings.Builder
		printer.Fprint(&b, fset, n)
		return b.String()
	}
	var specs []Spec
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Doc == nil {
			continue
		}
		var sp *Spec
		for _, c := range fd.Doc.List {
			if rest, ok := strings.CutPrefix(c.Text, "//soac:fuse "); ok {
				sp = &Spec{Func: fd.Name.Name, Name: strings.Fields(rest)[0]}
			}
		}
		if sp == nil {
			continue
		}
		if m := hazardComment.FindStringSubmatch(fd.Doc.Text()); m != nil {
			for _, k := range AllKinds() {
				if k.String() == m[1] {
					sp.Hazard = &Hazard{Kind: k, Producer: m[2], Consumer: m[3]}
				}
			}
		}
		if m := shapesComment.FindStringSubmatch(fd.Doc.Text()); m != nil {
			for _, n := range strings.Split(m[1], ", ") {
				if k, ok := ParseShape(n); ok {
					sp.Shapes = append(sp.Shapes, k)
				} else {
					t.Errorf("%s: %s: unknown shape %q", name, fd.Name.Name, n)
				}
			}
		}
		for _, fld := range fd.Type.Params.List {
			for _, n := range fld.Names {
				sp.Params = append(sp.Params, Param{n.Name, text(fld.Type)})
			}
		}
		for _, fld := range fd.Type.Results.List {
			k := max(1, len(fld.Names))
			for range k {
				sp.Results = append(sp.Results, text(fld.Type))
			}
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if se, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := se.X.(*ast.Ident); ok && id.Name == "soac" {
					sp.SOACs++
				}
			}
			return true
		})
		specs = append(specs, *sp)
	}
	return specs
}
