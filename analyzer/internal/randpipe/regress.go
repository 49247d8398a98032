package randpipe

// This file reads the committed regression specs of testdata/regress,
// which the tests of this package and the backends' runs of the shapes
// (package shapes) run beside the random ones.

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// PendingPrefix starts the first line of a regression file whose specs
// the generator is known to get wrong: the rest of the line says what
// goes wrong, and deleting the line enables the file.
const PendingPrefix = "//randpipe:pending "

// RegressDir is the directory of the committed regression files, one
// package of specs each.
func RegressDir() string {
	return filepath.Join(RepoRoot(), "analyzer", "internal", "randpipe", "testdata", "regress")
}

// regressFiles returns the paths of the regression files, in order.
func regressFiles() []string {
	files, _ := filepath.Glob(filepath.Join(RegressDir(), "*.go"))
	return files
}

// RegressPackages returns the committed regression specs of
// testdata/regress, one package per file (package name = file name),
// but for the pending files (PendingPrefix), which it logs.
func RegressPackages(t testing.TB) []Package {
	t.Helper()
	var ps []Package
	for _, f := range regressFiles() {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(string(src), "\n"); strings.HasPrefix(first, PendingPrefix) {
			t.Logf("skipping %s: %s", filepath.Join("testdata", "regress", filepath.Base(f)), strings.TrimPrefix(first, PendingPrefix))
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".go")
		ps = append(ps, Package{Name: name, Source: src, Specs: ParseSpecs(t, f, src)})
	}
	return ps
}

// PendingFiles returns the pending regression files (PendingPrefix) by
// file name, with the bug their first line describes.
func PendingFiles(t testing.TB) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, f := range regressFiles() {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(string(src), "\n"); strings.HasPrefix(first, PendingPrefix) {
			m[filepath.Base(f)] = strings.TrimPrefix(first, PendingPrefix)
		}
	}
	return m
}

var hazardComment = regexp.MustCompile(`has hazard ([a-z0-9-]+) \(producer (\w+), consumer (\w+)\)`)

var shapesComment = regexp.MustCompile(`has shapes ([a-z0-9, -]+)\.`)

var pathComment = regexp.MustCompile(`has path shape ([a-z-]+) on (\w+)\.`)

// ParseSpecs recovers the Spec metadata of a committed regression file:
// the specs, their signatures, SOAC counts and the hazard, shapes and
// path shape comments the generator writes above each spec.
func ParseSpecs(t testing.TB, name string, src []byte) []Spec {
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
		for _, m := range pathComment.FindAllStringSubmatch(fd.Doc.Text(), -1) {
			if k, ok := ParseShape(m[1]); ok && k >= numShapes {
				sp.Paths = append(sp.Paths, PathShape{k, m[2]})
			} else {
				t.Errorf("%s: %s: unknown path shape %q", name, fd.Name.Name, m[1])
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
