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
// converted or passed to Sqrt or Abs, and integer code, are inlined, and
// so are products that fill the float fields and elements of a returned
// struct or array literal (Moments, MomentsNamed, Spread), whose parts
// the generated code then rounds (roundParts). A product reaching a
// struct result through a variable, a struct conversion or an interface
// field is called (MomentsVar, MomentsConv, Boxed), as is one added to
// inside the literal (MomentsSum).
func TestFMAOpaque(t *testing.T) {
	want := map[string]bool{
		"MethodMap": true, "MethodSum": true, "Named2": true, "Named3": true,
		"Captures": true, "CapturesSum": true, "Nested": true, "MethodNested": true,
		"Chain": true, "Keep": true, "Doubled": true, "Complex": true,
		"MomentsSum": true, "MomentsVar": true, "MomentsConv": true, "Boxed": true,
		"IntMethod": false, "ScanSq": false, "SumSqNamed": false, "Products": false,
		"Rounded": false, "Exact": false, "Moments": false, "MomentsNamed": false, "Spread": false,
	}
	// The parts each inlined or called lambda's result has rounded.
	rounds := map[string][]string{
		"Moments":      {".Sum = float64(", ".SumSq = float64("},
		"MomentsNamed": {".Sum = float64(", ".SumSq = float64("},
		"Spread":       {".In.Sum = float64(", ".In.SumSq = float64(", ".Arr[0] = float64(", ".Arr[1] = float64("},
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
			if got := strings.Contains(fn, " = float64(") && strings.Contains(fn, "Sum = float64("); w && got {
				t.Errorf("%s rounds the parts of a result it calls through soac.Opaque\n%s", name, fn)
			}
			for _, r := range rounds[name] {
				if !strings.Contains(fn, r) {
					t.Errorf("%s does not round %q\n%s", name, r, fn)
				}
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("no generated function %s", name)
		}
	}
}
