package clc

import (
	"errors"
	"strings"
	"testing"
)

// TestRefusals checks that every lambda of testdata/refusals is refused
// with a Refusal whose text names what its function's doc comment says
// after "want:", and a position inside the lambda's function.
func TestRefusals(t *testing.T) {
	pkg := load(t, "./testdata/refusals")[0]
	seen := map[string]bool{}
	for _, l := range lambdas(pkg) {
		want := ""
		if l.decl.Doc != nil {
			_, want, _ = strings.Cut(l.decl.Doc.Text(), "want:")
			want = strings.TrimSpace(want)
		}
		if want == "" {
			t.Errorf("%s has no want: comment", l.decl.Name.Name)
			continue
		}
		seen[l.decl.Name.Name] = true
		_, _, _, err := translateOne(pkg, l)
		if err == nil {
			t.Errorf("%s: translated, want a refusal naming %q", l.decl.Name.Name, want)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: refusal %q does not name %q", l.decl.Name.Name, err, want)
		}
		var r *Refusal
		if !errors.As(err, &r) {
			t.Errorf("%s: %v is not a *Refusal", l.decl.Name.Name, err)
			continue
		}
		pos := pkg.Fset.Position(l.decl.Pos())
		end := pkg.Fset.Position(l.decl.End())
		inside := r.Pos.Filename == pos.Filename && r.Pos.Line >= pos.Line && r.Pos.Line <= end.Line
		if !inside && !strings.Contains(r.Construct, "recursive") {
			t.Errorf("%s: refusal at %v, outside the function (lines %d-%d)", l.decl.Name.Name, r.Pos, pos.Line, end.Line)
		}
	}
	if len(seen) < 25 {
		t.Errorf("only %d refusal cases found", len(seen))
	}
}
