package fusion

import (
	"math/rand/v2"
	"reflect"
	"runtime"
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
// papers' optimal clusterings (Robinson et al., "Clustering for Array-Backed Streams" (2014) [Robinson-ILP] Table 1.1's loop counts:
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
		t.Errorf("normalize2: Robinson objective %d, [Robinson-ILP] Fig. 1.16 gives 51", c)
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
// that possible, prices the array as materialised ([Robinson-ILP]'s c_i = 1,
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

// TestScopeCache: scopeOf computes a function's panic scope once and
// shares it; a function whose declaration changed gets a new one; and the
// cache does not keep a function alive (its entry goes when it is
// collected).
func TestScopeCache(t *testing.T) {
	fn := testdataFuncs(t, "papers")["papers"]["normalize2"]
	a, b := scopeOf(fn), scopeOf(fn)
	if len(a.safe) == 0 && len(a.soacs) == 0 {
		t.Fatalf("normalize2: empty scope")
	}
	if reflect.ValueOf(a.soacs).Pointer() != reflect.ValueOf(b.soacs).Pointer() {
		t.Errorf("scopeOf computed normalize2's scope twice")
	}
	copied := *fn
	if c := scopeOf(&copied); c.safe == nil || reflect.ValueOf(c.soacs).Pointer() == reflect.ValueOf(a.soacs).Pointer() {
		t.Errorf("a copy of normalize2 shares its scope, or has no safe indexes")
	}
	copied.Decl = nil
	if c := scopeOf(&copied); c.safe != nil {
		t.Errorf("the scope cached before the declaration changed is returned")
	}
	count := func() int {
		scopes.Lock()
		defer scopes.Unlock()
		return len(scopes.m)
	}
	before := count()
	func() {
		tmp := &ir.Function{Name: "tmp", Body: &ir.Block{}}
		scopeOf(tmp)
	}()
	if count() != before+1 {
		t.Fatalf("scopeOf did not cache a new function")
	}
	for i := 0; i < 100 && count() > before; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if count() > before {
		t.Errorf("the scope cache keeps a collected function's entry")
	}
}

// TestClusterGroupLocal: on every function of the testdata packages, the
// replay treats each group of a clustering alone (GroupLocal: every set
// partition up to 7 SOACs, the possible ones up to 9), the premise of the
// group cuts of ilp and wsp; and a clustering holding a group that one
// replay split is known unrealised (knownSplit) and is not realised.
func TestClusterGroupLocal(t *testing.T) {
	pkgs := append([]string{"cluster", "papers"}, sourcePkgs...)
	checked, splits := 0, 0
	for pkg, fns := range testdataFuncs(t, pkgs...) {
		for name, fn := range fns {
			n := len(NewGraph(fn, nil).SOACs)
			if n > 9 {
				continue
			}
			c, err := GroupLocal(fn, Options{}, 200000, n <= 7)
			if err != nil {
				t.Errorf("%s.%s: %v", pkg, name, err)
			}
			checked += c
			pr := newProblem(fn, Options{})
			cands, _ := pr.candidates(200000, false)
			for _, ls := range cands {
				pr.replay(ls, "test")
			}
			fresh := newProblem(fn, Options{})
			for _, ls := range cands {
				if g := pr.knownSplit(ls); g != nil {
					splits++
					if _, ok := fresh.replay(ls, "test"); ok {
						t.Errorf("%s.%s: %s realised, though group %s was split", pkg, name, pr.clusteringNames(ls), pr.groupNames(g))
					}
				}
			}
		}
	}
	if checked < 1000 || splits == 0 {
		t.Errorf("only %d clusterings checked, %d known split", checked, splits)
	}
	t.Logf("%d clusterings checked, %d with a known split group", checked, splits)
}

// TestClusterGroupLocalGas: with gas the replay is not group-local (one
// group's fusions spend another's), and no group is recorded as split.
func TestClusterGroupLocalGas(t *testing.T) {
	fn := testdataFuncs(t, "papers")["papers"]["normalize2"]
	pr := newProblem(fn, Options{Gas: 1})
	cands, _ := pr.candidates(1000, false)
	for _, ls := range cands {
		pr.replay(ls, "test")
	}
	if len(pr.split) != 0 {
		t.Errorf("with gas, %d groups recorded as split", len(pr.split))
	}
	for _, m := range []string{MethodILP, MethodWSP} {
		if err := Check(Fuse(fn, Options{Cluster: m, Gas: 1})); err != nil {
			t.Errorf("%s with gas 1: %v", m, err)
		}
	}
}

// bytesRef is Kristensen et al., "Fusion of Array Operations at Runtime" (2016) [Bohrium-WSP] Def. 13's cost of labels computed directly on the
// graph, group by group: the reference for bytes.
func bytesRef(pr *problem, labels []int) int64 {
	var c int64
	groups := map[int][]int{}
	for i, l := range labels {
		groups[l] = append(groups[l], i)
	}
	for l, members := range groups {
		in := func(s ir.Stmt) bool {
			soac, ok := s.(*ir.SOAC)
			if !ok {
				return false
			}
			i, ok := pr.idx[soac]
			return ok && labels[i] == l
		}
		seen := map[*ir.Var]bool{}
		for _, i := range members {
			s := pr.nodes[i]
			for _, v := range s.Inputs() {
				if seen[v] || v.Def != nil && in(v.Def) && producedBy(v) {
					continue
				}
				seen[v] = true
				c += elemSize(v)
			}
			if s.Out == nil || !holdsArray(s.Out) {
				continue
			}
			for _, u := range pr.g.Uses[s.Out] {
				if u.Kind != ArrayFlow || !in(u.Stmt) {
					c += elemSize(s.Out)
					break
				}
			}
		}
	}
	return c
}

// TestClusterBytes: bytes, on its per-node data, equals the reference on
// every clustering of the small testdata functions and on random ones
// (canonical or not) of the others.
func TestClusterBytes(t *testing.T) {
	pkgs := append([]string{"cluster", "papers"}, sourcePkgs...)
	rng := rand.New(rand.NewPCG(15, 15))
	compared := 0
	for pkg, fns := range testdataFuncs(t, pkgs...) {
		for name, fn := range fns {
			pr := newProblem(fn, Options{})
			n := len(pr.nodes)
			cands, ok := pr.candidates(2000, true)
			if !ok {
				cands = nil
			}
			for range 200 {
				ls := make([]int, n)
				k := 1 + rng.IntN(max(n, 1))
				for i := range ls {
					ls[i] = rng.IntN(k)
				}
				cands = append(cands, ls)
			}
			for _, ls := range cands {
				if got, want := pr.bytes(ls), bytesRef(pr, ls); got != want {
					t.Fatalf("%s.%s: bytes(%v) = %d, reference %d", pkg, name, ls, got, want)
				}
				compared++
			}
		}
	}
	t.Logf("%d clusterings priced", compared)
}

// TestUnionFind: the zero forest holds singletons and grows as union
// needs; union keeps the first argument's root; labels are canonical.
func TestUnionFind(t *testing.T) {
	var u unionFind
	if u.find(7) != 7 || len(u) != 0 {
		t.Fatalf("zero forest: find(7) = %d, len %d", u.find(7), len(u))
	}
	u.union(9, 3)
	u.union(3, 12)
	if r := u.find(12); r != 9 || u.find(3) != 9 || u.find(4) != 4 || u.find(100) != 100 {
		t.Errorf("after union(9,3), union(3,12): find(12) = %d, find(3) = %d, find(4) = %d", r, u.find(3), u.find(4))
	}
	u.union(12, 9) // already one set
	if u.find(9) != 9 {
		t.Errorf("union of one set moved its root to %d", u.find(9))
	}
	v := newUnionFind(5)
	v.union(3, 1)
	v.union(4, 0)
	if got, want := v.labels(), []int{0, 1, 2, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
}

// TestWSPMustCut: of a pair that can never share a group, wsp branches on
// the free edges of the path joining it with the fewest of them (kept
// edges cost nothing), prunes a node whose kept edges join it, and
// prefers the smallest such set over all pairs and split groups.
func TestWSPMustCut(t *testing.T) {
	// 0 - 1 - 3 and 0 - 2 - 3, and 3 - 4; 0 and 3 may never share a group.
	pr := &problem{nodes: make([]*ir.SOAC, 5)}
	pr.possible = make([][]bool, 5)
	for i := range pr.possible {
		pr.possible[i] = []bool{true, true, true, true, true}
	}
	pr.possible[0][3], pr.possible[3][0] = false, false
	w := &wsp{pr: pr, edges: [][2]int{{0, 1}, {1, 3}, {0, 2}, {2, 3}, {3, 4}}}
	labels := []int{0, 0, 0, 0, 0}
	state := func(s ...int8) []int8 { return s }
	for _, c := range []struct {
		state []int8
		want  []int
	}{
		{state(edgeFree, edgeFree, edgeFree, edgeFree, edgeFree), []int{0, 1}},
		{state(edgeFree, edgeFree, edgeKept, edgeFree, edgeFree), []int{3}},
		{state(edgeKept, edgeKept, edgeFree, edgeFree, edgeFree), []int{}},
		{state(edgeCut, edgeFree, edgeFree, edgeKept, edgeFree), []int{2}},
	} {
		ks, bad := w.mustCut(c.state, labels)
		if !bad || !slices.Equal(ks, c.want) && !(len(ks) == 0 && len(c.want) == 0) {
			t.Errorf("state %v: mustCut %v (bad %v), want %v", c.state, ks, bad, c.want)
		}
	}
	// A split group {0, 1, 2} with one free edge inside beats the pair's
	// path of two.
	pr.possible[0][3], pr.possible[3][0] = true, true
	if _, bad := w.mustCut(state(edgeFree, edgeFree, edgeFree, edgeFree, edgeFree), labels); bad {
		t.Errorf("a legal node is called illegal")
	}
	pr.possible[1][4], pr.possible[4][1] = false, false
	pr.split = map[string]bool{intsKey([]int{0, 1, 2}): true}
	ks, bad := w.mustCut(state(edgeKept, edgeFree, edgeFree, edgeCut, edgeFree), []int{0, 0, 0, 1, 1})
	if !bad || !slices.Equal(ks, []int{2}) {
		t.Errorf("split group: mustCut %v (bad %v), want [2]", ks, bad)
	}
}
