package smallbench

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/examples/prefixsum"
	"github.com/soacgen/soacgen/examples/sumsq"
	"github.com/soacgen/soacgen/examples/sumsqpos"
	"github.com/soacgen/soacgen/runtime/soac"
)

// TestControlsMatch checks that each spec of controls.go has the body of
// the example spec it copies, so that a control pair compares identical
// code.
func TestControlsMatch(t *testing.T) {
	for _, c := range []struct{ copyFn, file, fn string }{
		{"sumSqCopySpec", "../../sumsq/sumsq.go", "sumSqSpec"},
		{"sumSqPosCopySpec", "../../sumsqpos/sumsqpos.go", "sumSqPosSpec"},
		{"chunkedSumsCopySpec", "../../prefixsum/prefixsum.go", "chunkedSumsSpec"},
	} {
		got, want := funcBody(t, "controls.go", c.copyFn), funcBody(t, c.file, c.fn)
		if got != want {
			t.Errorf("%s differs from %s's %s:\n%s\nwant\n%s", c.copyFn, c.file, c.fn, got, want)
		}
	}
}

// funcBody returns the printed body and signature of the function named
// name in file.
func funcBody(t *testing.T, file, name string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
			var buf bytes.Buffer
			if err := printer.Fprint(&buf, fset, &ast.FuncLit{Type: fd.Type, Body: fd.Body}); err != nil {
				t.Fatal(err)
			}
			return buf.String()
		}
	}
	t.Fatalf("%s: no function %s", file, name)
	return ""
}

// TestControlsAgree checks the copies' results against the examples'
// functions and specs' combinators on one input.
func TestControlsAgree(t *testing.T) {
	xs := []float64{0.5, -2, 3, 0, -0.25, 7}
	is := []int{4, -1, 0, 9, -3}
	if a, b := sumsq.SumSq(xs), SumSqCopy(xs); a != b {
		t.Errorf("SumSqCopy = %v, SumSq = %v", b, a)
	}
	if a, b := sumsqpos.SumSqPos(xs), SumSqPosCopy(xs); a != b {
		t.Errorf("SumSqPosCopy = %v, SumSqPos = %v", b, a)
	}
	want := soac.Scan(soac.Map(is, func(x int) int { return 3*x + 1 }), 0, func(a, b int) int { return a + b })
	if got := ChunkedSumsCopy(is); !slices.Equal(got, want) || !slices.Equal(prefixsum.ChunkedSums(is), want) {
		t.Errorf("ChunkedSumsCopy = %v, want %v", got, want)
	}
}
