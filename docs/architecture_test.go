package docs

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is the project's module path.
const module = "github.com/soacgen/soacgen/"

// documentedImports parses the imports block of architecture.md: one
// line "pkg: imported imported ..." per package, paths relative to the
// module.
func documentedImports(t *testing.T, md string) map[string][]string {
	t.Helper()
	m := regexp.MustCompile("(?s)```imports\n(.*?)```").FindStringSubmatch(md)
	if m == nil {
		t.Fatal("architecture.md has no ```imports block")
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(m[1]), "\n") {
		pkg, imps, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("architecture.md: imports line %q has no colon", line)
		}
		list := strings.Fields(imps)
		slices.Sort(list)
		deps[strings.TrimSpace(pkg)] = list
	}
	return deps
}

// actualImports returns, for every package of the module that is not a
// test helper, an example or this package, the module's packages it
// imports (tests aside), as go list reports them.
func actualImports(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	// Test helpers: analyzer/internal/ (the random pipelines), internal/
	// (what tests share) and rewrite/internal/ (the differential test's
	// runner and shards); imported by tests only.
	skip := regexp.MustCompile(`^(examples/|docs$|analyzer/internal/|internal/|rewrite/internal/)|/testdata/`)
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		if skip.MatchString(pkg) {
			continue
		}
		list := []string{}
		for _, imp := range f[1:] {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				list = append(list, rel)
			}
		}
		slices.Sort(list)
		deps[pkg] = list
	}
	return deps
}

// diffImports returns a sentence for each package whose imports differ
// between doc and actual, and for each package only one of them lists.
func diffImports(doc, actual map[string][]string) []string {
	var diffs []string
	for pkg, imps := range actual {
		d, ok := doc[pkg]
		switch {
		case !ok:
			diffs = append(diffs, pkg+" is missing from the list")
		case !slices.Equal(d, imps):
			diffs = append(diffs, pkg+": documented "+strings.Join(d, " ")+"; go list: "+strings.Join(imps, " "))
		}
	}
	for pkg := range doc {
		if _, ok := actual[pkg]; !ok {
			diffs = append(diffs, pkg+" is listed but is no package of the module")
		}
	}
	slices.Sort(diffs)
	return diffs
}

// TestArchitectureImports fails when architecture.md's list of imports
// between the project's packages differs from what go list reports.
func TestArchitectureImports(t *testing.T) {
	md, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diffImports(documentedImports(t, string(md)), actualImports(t)) {
		t.Error(d)
	}
}

// TestArchitectureImportsDiff checks that a missing arrow, an extra one
// and an unlisted package are reported.
func TestArchitectureImportsDiff(t *testing.T) {
	actual := map[string][]string{"a": {"b"}, "b": {}, "c": {"a", "b"}}
	doc := map[string][]string{"a": {}, "b": {"a"}, "d": {}}
	got := diffImports(doc, actual)
	want := []string{"a: documented ; go list: b", "b: documented a; go list: ", "c is missing from the list", "d is listed but is no package of the module"}
	if !slices.Equal(got, want) {
		t.Errorf("diffImports = %q, want %q", got, want)
	}
}
