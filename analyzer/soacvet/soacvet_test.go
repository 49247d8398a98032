package soacvet_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/soacgen/soacgen/analyzer/internal/soactest"
	"github.com/soacgen/soacgen/analyzer/soacvet"
)

// testPackages are the testdata packages with `// want` expectations, and
// the categories of the findings each must produce. They are analysed in
// one run, since loading is the slow part.
var testPackages = map[string][]string{
	"firsttry":    {"unfused"},     // a new user's first try
	"unfused":     {"unfused"},     // fusable pipelines outside specs, and ones that are not
	"blocked":     {"blocked"},     // refused fusions in specs
	"size":        {"size"},        // zipped arrays of unequal lengths
	"impure":      {"impure"},      // impure lambdas in specs
	"unsupported": {"unsupported"}, // SOAC calls the IR does not model
	"directive":   {"directive"},   // malformed directives
	"lochain":     {"lochain"},     // multi-pass samber/lo pipelines
}

// TestAnalyzer checks every `// want` expectation of testPackages, the
// suggested fixes against the .golden files, and the Category of every
// finding (the `// want` comments match messages only). The stale category
// is off (its analyzer, package rewrite/stale, is tested there).
func TestAnalyzer(t *testing.T) {
	var others []string
	for _, c := range soacvet.Categories {
		if c != soacvet.Stale {
			others = append(others, c)
		}
	}
	setFlag(t, "categories", strings.Join(others, ","))
	var patterns []string
	for p := range testPackages {
		patterns = append(patterns, p)
	}
	slices.Sort(patterns)
	results := analysistest.RunWithSuggestedFixes(t, soactest.Dir(t, "testdata"), soacvet.Analyzer, patterns...)
	seen := map[string][]string{}
	for _, r := range results {
		path := r.Action.Package.PkgPath
		for _, d := range r.Diagnostics {
			if !slices.Contains(seen[path], d.Category) {
				seen[path] = append(seen[path], d.Category)
			}
			if !slices.Contains(soacvet.Categories, d.Category) {
				t.Errorf("%s: category %q of %q is not one of soacvet.Categories", path, d.Category, d.Message)
			}
			if path == "firsttry" && len(d.SuggestedFixes) != 1 {
				t.Errorf("firsttry: finding %q has %d fixes, want 1", d.Message, len(d.SuggestedFixes))
			}
		}
		if path == "firsttry" && len(r.Diagnostics) != 1 {
			t.Errorf("firsttry: %d findings, want exactly 1", len(r.Diagnostics))
		}
	}
	for pkg, want := range testPackages {
		got := seen[pkg]
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: categories %v, want %v", pkg, got, want)
		}
	}
}

// finding is a diagnostic reduced to what the driver tests compare.
type finding struct {
	Line     int
	Category string
	Message  string
}

// TestDriver runs soacvet with the checker driver on packages loaded once,
// so that its subtests see each diagnostic's Category (analysistest
// compares messages only) and can change the analyzer's flags.
func TestDriver(t *testing.T) {
	dir := soactest.Dir(t, "testdata")
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off"),
	}
	loaded, err := packages.Load(cfg, "categories", "gas", "typeerr")
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]*packages.Package{}
	for _, p := range loaded {
		byPath[p.PkgPath] = p
	}
	// analyze runs soacvet on one package and returns its findings in
	// position order.
	analyze := func(t *testing.T, path string) []finding {
		t.Helper()
		g, err := checker.Analyze([]*analysis.Analyzer{soacvet.Analyzer}, []*packages.Package{byPath[path]}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []finding
		for _, act := range g.Roots {
			if act.Err != nil {
				t.Fatalf("%s: %v", act, act.Err)
			}
			for _, d := range act.Diagnostics {
				out = append(out, finding{act.Package.Fset.Position(d.Pos).Line, d.Category, d.Message})
			}
		}
		slices.SortFunc(out, func(a, b finding) int { return a.Line - b.Line })
		return out
	}

	// A package with type errors is analysed as far as its types allow:
	// the well-typed SumSquares, and brokenPipeline whose error is inside a
	// lambda, get their unfused findings; brokenInput, whose input array is
	// undefined, is reported as not analysed.
	t.Run("TypeErrors", func(t *testing.T) {
		p := byPath["typeerr"]
		if len(p.TypeErrors) == 0 {
			t.Fatalf("typeerr has no type errors")
		}
		g, err := checker.Analyze([]*analysis.Analyzer{soacvet.Analyzer}, []*packages.Package{p}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, act := range g.Roots {
			if act.Err != nil {
				t.Fatalf("%s: %v", act, act.Err)
			}
			var got []string
			for _, d := range act.Diagnostics {
				got = append(got, d.Category+": "+d.Message)
			}
			slices.Sort(got)
			want := []string{
				"unfused: pipeline of 2 SOACs makes 2 passes and allocates 1 intermediate slice; //soac:fuse would make it 1 pass", // SumSquares
				"unfused: pipeline of 2 SOACs makes 2 passes and allocates 1 intermediate slice; //soac:fuse would make it 1 pass", // brokenPipeline: the error is inside a lambda
				"unsupported: brokenInput is not analysed: its type information is incomplete (fix the type errors first)",
			}
			if !slices.Equal(got, want) {
				t.Errorf("findings = %q, want %q", got, want)
			}
		}
	})

	// -categories selects categories.
	t.Run("CategoriesFlag", func(t *testing.T) {
		all := analyze(t, "categories")
		var cats []string
		for _, f := range all {
			cats = append(cats, f.Category)
		}
		// The stale finding (no generated file) is the stale analyzer's
		// (package rewrite/stale), not this one's.
		if !slices.Equal(cats, []string{"unfused", "size", "blocked"}) {
			t.Fatalf("findings = %v, want one unfused, one size, one blocked", all)
		}
		for _, tc := range []struct {
			flag string
			want []string
		}{
			{"size", []string{"size"}},
			{"unfused,blocked", []string{"unfused", "blocked"}},
			{" blocked , size ", []string{"size", "blocked"}},
			{"directive", nil},
			{"stale", nil},
			{"all", []string{"unfused", "size", "blocked"}},
		} {
			setFlag(t, "categories", tc.flag)
			var got []string
			for _, f := range analyze(t, "categories") {
				got = append(got, f.Category)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("-categories=%q: got %v, want %v", tc.flag, got, tc.want)
			}
		}
		if err := soacvet.Analyzer.Flags.Set("categories", "unfused,bogus"); err == nil || !strings.Contains(err.Error(), "bogus") {
			t.Errorf("-categories=unfused,bogus: error %v, want one naming bogus", err)
		}
	})

	// -fuse.gas reaches the engine: with a limit of one fusion, the three
	// SOACs become a kernel of two and a kernel of one.
	t.Run("Gas", func(t *testing.T) {
		check := func(want string) {
			t.Helper()
			got := analyze(t, "gas")
			if len(got) != 1 || !strings.HasPrefix(got[0].Message, want) {
				t.Errorf("findings %v, want one starting %q", got, want)
			}
		}
		check("pipeline of 3 SOACs makes 3 passes and allocates 2 intermediate slices")
		setFlag(t, "fuse.gas", "1")
		check("pipeline of 2 SOACs makes 2 passes and allocates 1 intermediate slice")
	})
}

// setFlag sets an analyzer flag for the rest of the test.
func setFlag(t *testing.T, name, value string) {
	t.Helper()
	old := soacvet.Analyzer.Flags.Lookup(name).Value.String()
	if err := soacvet.Analyzer.Flags.Set(name, value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { soacvet.Analyzer.Flags.Set(name, old) })
}
