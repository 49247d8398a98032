package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestDeterministicOrder runs soacgen several times on packages with specs
// in several files: the -json report's functions, the directive errors
// and the warnings come out in the same order every time, sorted by file
// and position (the loader parses files in parallel, so token positions
// across files are not in source order).
func TestDeterministicOrder(t *testing.T) {
	files := map[string]string{}
	const nfiles = 8
	for i := range nfiles {
		files[fmt.Sprintf("p/f%d.go", i)] = fmt.Sprintf("package p\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\n//soac:fuse F%d backend=parallel\nfunc f%dSpec(xs []int) []int { return soac.Map(xs, func(x int) int { return x + %d }) }\n", i, i, i)
		files[fmt.Sprintf("q/f%d.go", i)] = fmt.Sprintf("package q\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\n//soac:fuse G%d backend=gpu\nfunc g%dSpec(xs []int) []int { return soac.Map(xs, func(x int) int { return x }) }\n", i, i)
	}
	mod := writeModule(t, files)
	var first [3]string
	for run := range 3 {
		code, stdout, stderr := soacgen(mod, "-json", "./p")
		if code != 0 {
			t.Fatalf("soacgen -json ./p: exit %d\n%s", code, stderr)
		}
		code, _, errs := soacgen(mod, "./q")
		if code != 1 {
			t.Fatalf("soacgen ./q: exit %d, want 1", code)
		}
		got := [3]string{stdout, stderr, errs}
		if run == 0 {
			first = got
			// Source order: f0.go before f1.go ...
			last := -1
			for i := range nfiles {
				at := strings.Index(stdout, fmt.Sprintf(`"name": "F%d"`, i))
				if at < last {
					t.Fatalf("functions not in file order:\n%s", stdout)
				}
				last = at
				if !strings.Contains(errs, fmt.Sprintf("q/f%d.go:5:1: malformed", i)) || !strings.Contains(stderr, fmt.Sprintf("p/f%d.go:6:1: f%dSpec: backend parallel", i, i)) {
					t.Fatalf("missing error or warning for file %d:\n%s\n%s", i, errs, stderr)
				}
			}
			if !sortedLines(errs) || !sortedLines(stderr) {
				t.Fatalf("errors or warnings not sorted:\n%s\n%s", errs, stderr)
			}
			continue
		}
		for i, what := range []string{"-json report", "warnings", "errors"} {
			if got[i] != first[i] {
				t.Fatalf("run %d: %s differ from the first run's:\n%s\nfirst:\n%s", run, what, got[i], first[i])
			}
		}
	}
}

// sortedLines reports whether the lines of s are in increasing order.
func sortedLines(s string) bool {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] < lines[i-1] {
			return false
		}
	}
	return true
}
