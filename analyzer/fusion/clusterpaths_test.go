package fusion

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/soacgen/soacgen/analyzer/internal/soactest"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// qualityPlans returns greedy's plans of the quality corpus, with their
// file set, by function name.
func qualityPlans(t *testing.T) map[string]*Plan {
	t.Helper()
	var plans map[string]*Plan
	for _, r := range analysistest.Run(t, soactest.Dir(t, "testdata"), planAnalyzer, "quality") {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		plans = r.Result.(map[string]*Plan)
	}
	return plans
}

// TestClusterPaths: on the corpus's producers consumed on paths a return
// separates or copied into branches, and its local closures seen through
// (and their twins), every method, with placement and horizontal merges
// as Fuse runs them (not ModelOnly, under which TestClusterTestdata
// compares them: placement is where a kernel after an if could move
// before it), makes the decision the corpus expects (sourceCases), passes
// Check, keeps the plan it chose (no "unsupported" diagnostic), and costs
// no more than greedy under its own model.
func TestClusterPaths(t *testing.T) {
	plans := qualityPlans(t)
	n := 0
	for _, c := range sourceCases {
		if c.pkg != "quality" || !slices.ContainsFunc([]string{"return", "arm", "branches", "closure"}, func(p string) bool { return strings.HasPrefix(c.fn, p) }) {
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
	if n < 11 {
		t.Errorf("only %d path cases of the corpus compared", n)
	}
}

// TestClusterQualityKernels: on every function of the quality corpus, ilp
// and wsp form no more depth-0 passes (kernels with a member other than a
// generator) than greedy: no method loses a fusion greedy makes.
func TestClusterQualityKernels(t *testing.T) {
	n := 0
	for name, g := range qualityPlans(t) {
		if g.Func == nil {
			continue
		}
		n++
		want := scremaKernels(g)
		for _, m := range []string{MethodILP, MethodWSP} {
			p := Fuse(g.Func, Options{Cluster: m, Fset: g.Fset})
			if got := scremaKernels(p); got > want {
				t.Errorf("%s/%s: %d depth-0 passes, greedy %d\n%s", name, m, got, want, p)
			}
		}
	}
	if n < 40 {
		t.Errorf("only %d functions of the corpus compared", n)
	}
}

// TestCheckCopiedInput: Check rejects the plan that fuses a into one of
// the kernels m is copied into (a feeds m, which each path computes):
// the other paths' kernels read a, which only that path writes out.
func TestCheckCopiedInput(t *testing.T) {
	plans := qualityPlans(t)
	for _, name := range []string{"returnArmFed", "branchesFed"} {
		good := plans[name]
		if good == nil || len(good.Kernels) < 3 || len(good.Kernels[0].SOACs) != 1 || good.Kernels[0].SOACs[0].Out.Name != "a" {
			t.Fatalf("%s: want a alone in the first kernel:\n%s", name, good)
		}
		if err := Check(good); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a := good.Kernels[0].SOACs[0]
		first := *good.Kernels[1]
		first.SOACs = append([]*ir.SOAC{a}, first.SOACs...)
		first.Inputs, first.Outputs = a.Inputs(), append(slices.Clone(first.Outputs), a.Out)
		bad := *good
		bad.Kernels = nil
		for i, k := range append([]*Kernel{&first}, good.Kernels[2:]...) {
			c := *k
			c.ID = i + 1
			bad.Kernels = append(bad.Kernels, &c)
		}
		if err := Check(&bad); err == nil || !strings.Contains(err.Error(), "reads a, which no kernel of") {
			t.Errorf("%s: Check accepts a fused into one copy of m: %v\n%s", name, err, &bad)
		}
	}
}
