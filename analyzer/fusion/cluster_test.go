package fusion

import (
	"testing"
	"time"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/soacgen/soacgen/analyzer/internal/soactest"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// testdataFuncs loads the functions of the testdata packages, through
// planAnalyzer so that their // want comments hold.
func testdataFuncs(t *testing.T, pkgs ...string) map[string]map[string]*ir.Function {
	t.Helper()
	out := map[string]map[string]*ir.Function{}
	for _, r := range analysistest.Run(t, soactest.Dir(t, "testdata"), planAnalyzer, pkgs...) {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Pass.Pkg.Path(), r.Err)
		}
		fns := map[string]*ir.Function{}
		for name, p := range r.Result.(map[string]*Plan) {
			if p.Func != nil {
				fns[name] = p.Func
			}
		}
		out[r.Pass.Pkg.Path()] = fns
	}
	return out
}

// exhaustive is the oracle: every clustering whose pairs may share a
// group, replayed; it returns the least cost of the realised ones under
// each model and how many were realised. With all set, it enumerates
// every set partition, and fails the test when one with an impossible
// pair is realised (possible must be a relaxation).
func exhaustive(t *testing.T, fn *ir.Function, all bool) (robinson, bytes int64, realised int) {
	t.Helper()
	pr := newProblem(fn, Options{})
	n := len(pr.nodes)
	labels := make([]int, n)
	robinson, bytes = -1, -1
	var rec func(i, groups int)
	rec = func(i, groups int) {
		if i == n {
			plan, ok := pr.replay(labels, "exhaustive")
			if !ok {
				return
			}
			if err := Check(plan); err != nil {
				t.Fatalf("%s: replay of %v fails Check: %v", fn.Name, labels, err)
			}
			if a, b, bad := pr.impossiblePair(labels); bad {
				t.Errorf("%s: realised %v joins %s and %s, which possible says never share a group", fn.Name, labels, pr.nodes[a].Name, pr.nodes[b].Name)
			}
			realised++
			c := pr.cost(labels)
			if robinson < 0 || c.Robinson < robinson {
				robinson = c.Robinson
			}
			if bytes < 0 || c.Bytes < bytes {
				bytes = c.Bytes
			}
			return
		}
	next:
		for g := 0; g <= groups; g++ {
			if !all {
				for j := 0; j < i; j++ {
					if labels[j] == g && !pr.possible[i][j] {
						continue next
					}
				}
			}
			labels[i] = g
			rec(i+1, max(groups, g+1))
		}
	}
	rec(0, 0)
	return robinson, bytes, realised
}

// TestClusterPapers: on the papers' programs each method finds the
// papers' optimal clusterings (paper 001 Table 1.1's loop counts:
// normalize2 2, closest points 4 with 2 for the filters here, quadtree 1+1,
// quickhull 1), normalize2's objective is Fig. 1.16's 51, and ilp and wsp
// equal the exhaustive search.
func TestClusterPapers(t *testing.T) {
	fns := testdataFuncs(t, "papers")["papers"]
	loops := map[string]int{"normalize2": 2, "normalizeInc": 2, "filterMax": 1, "initialBounds": 1, "partition": 1, "closestSteps": 3, "diamond": 1}
	for name, want := range loops {
		fn := fns[name]
		if fn == nil {
			t.Fatalf("no function %s", name)
		}
		rob, byt, _ := exhaustive(t, fn, false)
		for _, m := range Methods() {
			plan := Fuse(fn, Options{Cluster: m})
			if err := Check(plan); err != nil {
				t.Fatalf("%s/%s: %v", name, m, err)
			}
			if plan.Partitioner != m {
				t.Errorf("%s: Partitioner %q, want %q", name, plan.Partitioner, m)
			}
			if got := len(plan.Kernels); got != want {
				t.Errorf("%s/%s: %d kernels, want %d\n%s", name, m, got, want, plan)
			}
			switch m {
			case MethodILP:
				if plan.Cost.Robinson != rob || !plan.Optimal {
					t.Errorf("%s/ilp: cost %d (optimal %v), exhaustive %d", name, plan.Cost.Robinson, plan.Optimal, rob)
				}
			case MethodWSP:
				if plan.Cost.Bytes != byt || !plan.Optimal {
					t.Errorf("%s/wsp: bytes %d (optimal %v), exhaustive %d", name, plan.Cost.Bytes, plan.Optimal, byt)
				}
			}
		}
	}
	if c := Fuse(fns["normalize2"], Options{Cluster: MethodILP}).Cost.Robinson; c != 51 {
		t.Errorf("normalize2: Robinson objective %d, paper 001 Fig. 1.16 gives 51", c)
	}
}

// clusterRefusals are the refusal ids that TestClusterRefusalNote and
// TestClusterBudget expect (counted by TestEveryRuleTested).
var clusterRefusals = []string{RefClustering, RefBudget}

// TestClusterBudget: a budget too small to search falls back to greedy's
// clustering (or better) and says so in a note.
func TestClusterBudget(t *testing.T) {
	fn := testdataFuncs(t, "papers")["papers"]["normalize2"]
	for _, m := range []string{MethodILP, MethodWSP} {
		plan := Fuse(fn, Options{Cluster: m, Budget: time.Nanosecond})
		if err := Check(plan); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, n := range plan.Notes {
			found = found || n.Rule == RefBudget
		}
		if !found || plan.Optimal {
			t.Errorf("%s with a 1ns budget: no %s note (optimal %v)", m, RefBudget, plan.Optimal)
		}
		g := Fuse(fn, Options{Cluster: MethodGreedy})
		if plan.Cost.Robinson > g.Cost.Robinson || plan.Cost.Bytes > g.Cost.Bytes {
			t.Errorf("%s fallback costs %+v, greedy %+v", m, plan.Cost, g.Cost)
		}
	}
}

// TestClusterRefusalNote: a legal fusion that the chosen clustering does
// not make carries a "clustering" note naming the producer, and the plan
// keeps the two apart.
func TestClusterRefusalNote(t *testing.T) {
	fn := testdataFuncs(t, "papers")["papers"]["normalize2"]
	pr := newProblem(fn, Options{})
	labels := make([]int, len(pr.nodes))
	for i, s := range pr.nodes {
		labels[i] = i // every SOAC alone
		if s.Out != nil && s.Out.Name == "gts" {
			labels[i] = 100
		}
	}
	plan, ok := pr.replay(labels, "test")
	if !ok {
		t.Fatalf("singletons not realised:\n%s", plan)
	}
	var found bool
	for _, n := range plan.Notes {
		if n.Rule == RefClustering && n.Var != nil && n.Var.Name == "gts" {
			found = true
		}
	}
	if !found || len(plan.Kernels) != 5 {
		t.Errorf("want 5 kernels and a %s note on gts:\n%s", RefClustering, plan)
	}
	// The greedy labels replay to greedy's plan, without such notes.
	pr.seed()
	again, ok := pr.replay(pr.greedyLabels, "test")
	if !ok || len(again.Kernels) != len(pr.greedy.Kernels) {
		t.Errorf("greedy's clustering not realised by the replay:\n%s", again)
	}
	for _, n := range again.Notes {
		if n.Rule == RefClustering {
			t.Errorf("unexpected note %s", n.Reason)
		}
	}
}

// TestClusterTestdata: on every function of the testdata packages, ilp and
// wsp equal the exhaustive search and never cost more than greedy; for
// functions of up to 7 SOACs the search covers every set partition and
// checks that no realised clustering joins a pair possible rules out (the
// relaxation the solvers rely on is sound).
func TestClusterTestdata(t *testing.T) {
	pkgs := append([]string{"cluster"}, sourcePkgs...)
	for pkg, fns := range testdataFuncs(t, pkgs...) {
		for name, fn := range fns {
			n := len(NewGraph(fn, nil).SOACs)
			if n > 9 {
				continue
			}
			rob, byt, realised := exhaustive(t, fn, n <= 7)
			if realised == 0 {
				t.Errorf("%s.%s: no clustering realised", pkg, name)
				continue
			}
			g := Fuse(fn, Options{Cluster: MethodGreedy})
			ilp := Fuse(fn, Options{Cluster: MethodILP})
			wsp := Fuse(fn, Options{Cluster: MethodWSP})
			for _, p := range []*Plan{ilp, wsp} {
				if err := Check(p); err != nil {
					t.Errorf("%s.%s/%s: %v", pkg, name, p.Partitioner, err)
				}
				// Deterministic: the same input gives the same plan.
				if again := Fuse(fn, Options{Cluster: p.Partitioner}); Dump(again) != Dump(p) {
					t.Errorf("%s.%s/%s: two runs differ:\n%s\n%s", pkg, name, p.Partitioner, p, again)
				}
			}
			if ilp.Cost.Robinson != rob || ilp.Cost.Robinson > g.Cost.Robinson {
				t.Errorf("%s.%s: ilp %d, exhaustive %d, greedy %d\n%s", pkg, name, ilp.Cost.Robinson, rob, g.Cost.Robinson, ilp)
			}
			if wsp.Cost.Bytes != byt || wsp.Cost.Bytes > g.Cost.Bytes {
				t.Errorf("%s.%s: wsp %d bytes, exhaustive %d, greedy %d\n%s", pkg, name, wsp.Cost.Bytes, byt, g.Cost.Bytes, wsp)
			}
		}
	}
}
