package rewrite

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestFMAOpaque checks which lambdas of testdata/fma the generated code
// calls through soac.Opaque (mayFuse) and which it inlines: a product
// reaching an addition unrounded (in the lambda, or in a function it
// calls), a product of a product, a complex product and a method whose
// body may fuse are called; products that are only returned, compared,
// converted or passed to Sqrt or Abs, and integer code, are inlined.
func TestFMAOpaque(t *testing.T) {
	want := map[string]bool{
		"MethodMap": true, "MethodSum": true, "Named2": true, "Named3": true,
		"Captures": true, "CapturesSum": true, "Nested": true, "MethodNested": true,
		"Chain": true, "Keep": true, "Doubled": true, "Complex": true,
		"IntMethod": false, "ScanSq": false, "SumSqNamed": false, "Products": false,
		"Rounded": false, "Exact": false,
	}
	outs := generateDir(t, filepath.Join("testdata", "fma"))
	seen := map[string]bool{}
	for _, o := range outs {
		for _, fn := range strings.Split(string(o.Content), "\nfunc ")[1:] {
			name, _, _ := strings.Cut(fn, "(")
			w, ok := want[name]
			if !ok {
				continue
			}
			seen[name] = true
			if got := strings.Contains(fn, "soac.Opaque("); got != w {
				t.Errorf("%s calls a lambda through soac.Opaque: %v, want %v\n%s", name, got, w, fn)
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("no generated function %s", name)
		}
	}
}
