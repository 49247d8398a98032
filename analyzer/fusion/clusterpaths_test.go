package fusion

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/soacgen/soacgen/analyzer/internal/soactest"
)

// TestClusterPaths: on the corpus's producers consumed on paths a return
// separates and its local closures seen through (and their twins), every
// method, with placement and horizontal merges as Fuse runs them (not
// ModelOnly, under which TestClusterTestdata compares them: placement is
// where a kernel after an if could move before it), makes the decision
// the corpus expects (sourceCases), passes Check, keeps the plan it chose
// (no "unsupported" diagnostic), and costs no more than greedy under its
// own model.
func TestClusterPaths(t *testing.T) {
	var plans map[string]*Plan // greedy's, with their file set
	for _, r := range analysistest.Run(t, soactest.Dir(t, "testdata"), planAnalyzer, "quality") {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		plans = r.Result.(map[string]*Plan)
	}
	n := 0
	for _, c := range sourceCases {
		if c.pkg != "quality" || !strings.HasPrefix(c.fn, "return") && !strings.HasPrefix(c.fn, "arm") && !strings.HasPrefix(c.fn, "closure") {
			continue
		}
		g := plans[c.fn]
		if g == nil || g.Func == nil {
			t.Fatalf("no function %s", c.fn)
		}
		n++
		for _, m := range Methods() {
			t.Run(c.fn+"/"+m, func(t *testing.T) {
				p := Fuse(g.Func, Options{Cluster: m, Fset: g.Fset})
				if err := Check(p); err != nil {
					t.Fatal(err)
				}
				for _, d := range p.Diagnostics {
					if d.Category == "unsupported" {
						t.Errorf("%s\n%s", d.Message, p)
					}
				}
				verify(t, p, c.want)
				if m == MethodILP && p.Cost.Robinson > g.Cost.Robinson || m == MethodWSP && p.Cost.Bytes > g.Cost.Bytes {
					t.Errorf("costs %+v, greedy %+v", p.Cost, g.Cost)
				}
			})
		}
	}
	if n < 8 {
		t.Errorf("only %d path cases of the corpus compared", n)
	}
}
