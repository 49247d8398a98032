package fusion

import (
	"slices"
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
	pr := newProblem(fn, Options{ModelOnly: true})
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
			plan := Fuse(fn, Options{ModelOnly: true, Cluster: m})
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
	if c := Fuse(fns["normalize2"], Options{ModelOnly: true, Cluster: MethodILP}).Cost.Robinson; c != 51 {
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
		plan := Fuse(fn, Options{ModelOnly: true, Cluster: m, Budget: time.Nanosecond})
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
		g := Fuse(fn, Options{ModelOnly: true, Cluster: MethodGreedy})
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
	pr := newProblem(fn, Options{ModelOnly: true})
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
			g := Fuse(fn, Options{ModelOnly: true, Cluster: MethodGreedy})
			ilp := Fuse(fn, Options{ModelOnly: true, Cluster: MethodILP})
			wsp := Fuse(fn, Options{ModelOnly: true, Cluster: MethodWSP})
			for _, p := range []*Plan{ilp, wsp} {
				if err := Check(p); err != nil {
					t.Errorf("%s.%s/%s: %v", pkg, name, p.Partitioner, err)
				}
				// Deterministic: the same input gives the same plan.
				if again := Fuse(fn, Options{ModelOnly: true, Cluster: p.Partitioner}); Dump(again) != Dump(p) {
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

// nodeOf returns the index of the SOAC whose output is named out.
func nodeOf(t *testing.T, pr *problem, out string) int {
	t.Helper()
	for i, s := range pr.nodes {
		if s.Out != nil && s.Out.Name == out {
			return i
		}
	}
	t.Fatalf("%s: no SOAC defines %s", pr.fn.Name, out)
	return -1
}

// groupsOf returns labels putting each list of outputs in one group.
func groupsOf(t *testing.T, pr *problem, groups ...[]string) []int {
	t.Helper()
	labels := make([]int, len(pr.nodes))
	for i := range labels {
		labels[i] = -1
	}
	for g, outs := range groups {
		for _, o := range outs {
			labels[nodeOf(t, pr, o)] = g
		}
	}
	for i, l := range labels {
		if l < 0 {
			t.Fatalf("%s: %s in no group", pr.fn.Name, pr.nodes[i].Name)
		}
	}
	return labels
}

// TestClusterMapOut: a producer shares a group with the consumers that
// run first and is written out for a later one (map-out): the model calls
// that possible, prices the array as materialised (paper 001's c_i = 1,
// and its write in the bytes model), the replay realises it, and ilp and
// wsp choose it; a producer joined with a later consumer but not an
// earlier one is ruled out and not realised.
func TestClusterMapOut(t *testing.T) {
	fns := testdataFuncs(t, "issue", "cluster")
	// twice: x := Map(a); s := Reduce(x); w := Map(x, e / s).
	pr := newProblem(fns["issue"]["twice"], Options{ModelOnly: true})
	x, s, w := nodeOf(t, pr, "x"), nodeOf(t, pr, "s"), nodeOf(t, pr, "w")
	// x and w, s and w: w starts only after s, which needs all of x.
	if !pr.possible[x][s] || pr.possible[x][w] || pr.possible[s][w] {
		t.Errorf("twice: possible x-s %v, x-w %v, s-w %v; want true, false, false", pr.possible[x][s], pr.possible[x][w], pr.possible[s][w])
	}
	good := groupsOf(t, pr, []string{"x", "s"}, []string{"w"})
	if a, b, bad := pr.impossiblePair(good); bad {
		t.Errorf("twice: {x, s}, {w} ruled out by %s, %s", pr.nodes[a].Name, pr.nodes[b].Name)
	}
	plan, ok := pr.replay(good, "test")
	if !ok || plan.Stats.Rules[TagMapOut] != 1 {
		t.Errorf("twice: {x, s}, {w} not realised with map-out:\n%s", plan)
	}
	if !hasNote(plan, RefConsumedTwice, pr.nodes[w], "x") {
		t.Errorf("twice: no %s note on the edge x -> w that map-out leaves unfused:\n%s", RefConsumedTwice, plan)
	}
	n := int64(len(pr.nodes))
	if c := pr.cost(good); c.Robinson != n || c.Bytes != 32 {
		t.Errorf("twice: map-out costs %+v; want Robinson %d (x materialised) and 32 bytes (a, x written, x read, w written)", c, n)
	}
	bad := groupsOf(t, pr, []string{"x", "w"}, []string{"s"})
	if _, _, isBad := pr.impossiblePair(bad); !isBad {
		t.Errorf("twice: {x, w}, {s} not ruled out")
	}
	if plan, ok := pr.replay(bad, "test"); ok {
		t.Errorf("twice: {x, w}, {s} realised:\n%s", plan)
	}
	for _, m := range []string{MethodILP, MethodWSP} {
		p := Fuse(pr.fn, Options{ModelOnly: true, Cluster: m})
		if got := pr.labelsOf(p); !slices.Equal(got, canonical(good)) || !p.Optimal {
			t.Errorf("twice/%s: groups %v (optimal %v), want %v\n%s", m, got, p.Optimal, canonical(good), p)
		}
	}

	// mapOutThree: x := Map(a); s := Reduce(x); v := Map(x); w := Map(x,
	// e / s). v joins x's group before w; the clustering that keeps v with
	// w instead is legal, dearer under Robinson's model and no cheaper in
	// bytes.
	pr = newProblem(fns["cluster"]["mapOutThree"], Options{ModelOnly: true})
	best := groupsOf(t, pr, []string{"x", "s", "v"}, []string{"w"})
	other := groupsOf(t, pr, []string{"x", "s"}, []string{"v", "w"})
	for _, ls := range [][]int{best, other} {
		if plan, ok := pr.replay(ls, "test"); !ok || plan.Stats.Rules[TagMapOut] != 1 {
			t.Errorf("mapOutThree: %v not realised with map-out:\n%s", ls, plan)
		}
	}
	if cb, co := pr.cost(best), pr.cost(other); cb.Robinson >= co.Robinson || cb.Bytes > co.Bytes {
		t.Errorf("mapOutThree: %v costs %+v, %v costs %+v", best, cb, other, co)
	}
	// v apart by choice, w by necessity: each edge left unfused has its
	// note, naming why.
	split := groupsOf(t, pr, []string{"x", "s"}, []string{"v"}, []string{"w"})
	plan, ok = pr.replay(split, "test")
	v, w3 := pr.nodes[nodeOf(t, pr, "v")], pr.nodes[nodeOf(t, pr, "w")]
	if !ok || !hasNote(plan, RefClustering, v, "x") || !hasNote(plan, RefConsumedTwice, w3, "x") {
		t.Errorf("mapOutThree: %v not realised, or no %s note on x -> v and %s note on x -> w:\n%s", split, RefClustering, RefConsumedTwice, plan)
	}
	// x with v but not s: s, before v, would read x before the kernel
	// that computes it runs.
	late := groupsOf(t, pr, []string{"x", "v"}, []string{"s"}, []string{"w"})
	if _, _, isBad := pr.impossiblePair(late); !isBad {
		t.Errorf("mapOutThree: {x, v}, {s}, {w} not ruled out")
	}
	if plan, ok := pr.replay(late, "test"); ok {
		t.Errorf("mapOutThree: {x, v}, {s}, {w} realised:\n%s", plan)
	}
	for _, m := range []string{MethodILP, MethodWSP} {
		p := Fuse(pr.fn, Options{ModelOnly: true, Cluster: m})
		if got := pr.labelsOf(p); !slices.Equal(got, canonical(best)) {
			t.Errorf("mapOutThree/%s: groups %v, want %v\n%s", m, got, canonical(best), p)
		}
	}
}

// TestClusterEffects: an impure Map may share a group with the Reduce it
// fuses into with its effects in order, and with nothing else; where
// effects.go refuses (a statement between, an operator that may panic),
// the pair is impossible.
func TestClusterEffects(t *testing.T) {
	fns := testdataFuncs(t, "issue", "cluster")
	for _, c := range []struct {
		fn   string
		want bool
	}{{"effectsReduce", true}, {"effectsReduceApart", false}, {"effectsReducePanics", false}, {"effectsReduceReads", false}} {
		pr := newProblem(fns["issue"][c.fn], Options{ModelOnly: true})
		const m, r = 0, 1 // the Map and the Reduce, in preorder
		if len(pr.nodes) != 2 || pr.nodes[m].Name != "Map" || pr.nodes[r].Name != "Reduce" {
			t.Fatalf("%s: nodes %v, want a Map and a Reduce", c.fn, pr.nodes)
		}
		if pr.possible[m][r] != c.want {
			t.Errorf("%s: possible Map-Reduce %v, want %v", c.fn, pr.possible[m][r], c.want)
		}
	}
	pr := newProblem(fns["cluster"]["effectsBeside"], Options{ModelOnly: true})
	x, s, tt := nodeOf(t, pr, "x"), nodeOf(t, pr, "s"), nodeOf(t, pr, "t")
	if !pr.possible[x][s] || pr.possible[x][tt] || !pr.possible[s][tt] {
		t.Errorf("effectsBeside: possible x-s %v, x-t %v, s-t %v; want true, false, true", pr.possible[x][s], pr.possible[x][tt], pr.possible[s][tt])
	}
	all := groupsOf(t, pr, []string{"x", "s", "t"})
	if _, _, bad := pr.impossiblePair(all); !bad {
		t.Errorf("effectsBeside: one group of all three not ruled out")
	}
	if plan, ok := pr.replay(all, "test"); ok {
		t.Errorf("effectsBeside: one group of all three realised:\n%s", plan)
	}
	want := groupsOf(t, pr, []string{"x", "s"}, []string{"t"})
	for _, m := range Methods() {
		p := Fuse(pr.fn, Options{ModelOnly: true, Cluster: m})
		if got := pr.labelsOf(p); !slices.Equal(got, canonical(want)) || p.Stats.Rules[TagEffects] != 1 {
			t.Errorf("effectsBeside/%s: groups %v, want %v with %s\n%s", m, got, canonical(want), TagEffects, p)
		}
	}
}

// hasNote reports whether plan has a note of rule on the edge of variable
// x into consumer c.
func hasNote(plan *Plan, rule string, c *ir.SOAC, x string) bool {
	for _, n := range plan.Notes {
		if n.Rule == rule && n.Consumer == c && n.Var != nil && n.Var.Name == x {
			return true
		}
	}
	return false
}
