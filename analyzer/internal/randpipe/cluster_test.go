package randpipe

import (
	"fmt"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/soacgen/soacgen/analyzer/build"
	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// exhaustiveLimit bounds the clusterings the oracle replays per spec; a
// spec with more candidates is skipped (and counted), so that the test
// stays within seconds on the 2-core machines.
const exhaustiveLimit = 20000

// TestClusterOptimal runs every clustering method on random specs of up to
// 10 SOACs (hazards included) and compares them with the exhaustive search
// of legal clusterings: ilp's Robinson cost and wsp's bytes equal the
// oracle's least (optimality), no method's plan fails Check, neither
// ever costs more than greedy under its own model, and the replay treats
// each group of every clustering alone (fusion.GroupLocal, every set
// partition up to 6 SOACs), which the searches' group cuts rely on.
func TestClusterOptimal(t *testing.T) {
	nPkgs := 40
	if testing.Short() {
		nPkgs = 8
	}
	var pkgs []Package
	for i := range nPkgs {
		pkgs = append(pkgs, Generate(int64(7000+i), Config{Specs: 10, MaxOps: 8}))
	}
	dir := t.TempDir()
	if err := WriteModule(dir, RepoRoot(), pkgs); err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{build.Analyzer}, LoadModule(t, dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	var compared, skipped, timedOut, better, bySize, local int
	start := time.Now()
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act.Package.PkgPath, act.Err)
		}
		prog := act.Result.(*ir.Program)
		for _, fn := range prog.Funcs {
			if fn.Fuse == nil {
				continue
			}
			n := 0
			ir.Walk(fn.Body, func(s ir.Stmt) bool {
				if _, ok := s.(*ir.SOAC); ok {
					n++
				}
				return true
			})
			if n > 10 {
				bySize++
				continue
			}
			where := fmt.Sprintf("%s.%s (%d SOACs)", act.Package.PkgPath, fn.Name, n)
			plans := map[string]*fusion.Plan{}
			for _, m := range fusion.Methods() {
				p := fusion.Fuse(fn, fusion.Options{ModelOnly: true, Fset: prog.Fset, Cluster: m})
				if err := fusion.Check(p); err != nil {
					t.Errorf("%s: %s plan fails Check: %v\n%s", where, m, err, p)
				}
				plans[m] = p
			}
			g, ilp, wsp := plans["greedy"].Cost, plans["ilp"], plans["wsp"]
			if ilp.Cost.Robinson > g.Robinson || wsp.Cost.Bytes > g.Bytes {
				t.Errorf("%s: costlier than greedy %+v: ilp %+v, wsp %+v", where, g, ilp.Cost, wsp.Cost)
			}
			if ilp.Cost.Robinson < g.Robinson || wsp.Cost.Bytes < g.Bytes {
				better++
			}
			if !ilp.Optimal || !wsp.Optimal {
				timedOut++
				continue
			}
			best, _, ok := fusion.Exhaustive(fn, fusion.Options{ModelOnly: true, Fset: prog.Fset}, exhaustiveLimit)
			if !ok {
				skipped++
				continue
			}
			compared++
			c, err := fusion.GroupLocal(fn, fusion.Options{Fset: prog.Fset}, exhaustiveLimit, n <= 6)
			if err != nil {
				t.Errorf("%s: the replay is not group-local: %v", where, err)
			}
			local += c
			if ilp.Cost.Robinson != best.Robinson {
				t.Errorf("%s: ilp costs %d, the exhaustive search finds %d\n%s", where, ilp.Cost.Robinson, best.Robinson, ilp)
			}
			if wsp.Cost.Bytes != best.Bytes {
				t.Errorf("%s: wsp costs %d bytes, the exhaustive search finds %d\n%s", where, wsp.Cost.Bytes, best.Bytes, wsp)
			}
		}
	}
	t.Logf("%d specs compared with the exhaustive search, %d skipped (over %d candidates), %d over 10 SOACs, %d budgets run out; ilp or wsp cheaper than greedy on %d; %d clusterings checked group-local; %v",
		compared, skipped, exhaustiveLimit, bySize, timedOut, better, local, time.Since(start).Round(time.Millisecond))
	if compared < nPkgs*5 {
		t.Errorf("only %d specs compared", compared)
	}
}

// TestClusterExamples runs every clustering method on every spec of the
// repository's examples: each plan passes Check, ilp and wsp never cost
// more than greedy under their models, and where the oracle can enumerate
// the clusterings they equal it.
func TestClusterExamples(t *testing.T) {
	graph, err := checker.Analyze([]*analysis.Analyzer{build.Analyzer}, LoadPatterns(t, RepoRoot(), "./examples/..."), nil)
	if err != nil {
		t.Fatal(err)
	}
	specs, compared, better := 0, 0, 0
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act.Package.PkgPath, act.Err)
		}
		prog := act.Result.(*ir.Program)
		for _, fn := range prog.Funcs {
			if fn.Fuse == nil {
				continue
			}
			specs++
			where := act.Package.PkgPath + "." + fn.Name
			plans := map[string]*fusion.Plan{}
			for _, m := range fusion.Methods() {
				p := fusion.Fuse(fn, fusion.Options{ModelOnly: true, Fset: prog.Fset, Cluster: m})
				if err := fusion.Check(p); err != nil {
					t.Errorf("%s: %s plan fails Check: %v", where, m, err)
				}
				plans[m] = p
			}
			g, ilp, wsp := plans["greedy"].Cost, plans["ilp"].Cost, plans["wsp"].Cost
			if ilp.Robinson > g.Robinson || wsp.Bytes > g.Bytes {
				t.Errorf("%s: costlier than greedy %+v: ilp %+v, wsp %+v", where, g, ilp, wsp)
			}
			if ilp.Robinson < g.Robinson || wsp.Bytes < g.Bytes {
				better++
			}
			if best, _, ok := fusion.Exhaustive(fn, fusion.Options{ModelOnly: true, Fset: prog.Fset}, exhaustiveLimit); ok {
				compared++
				if ilp.Robinson != best.Robinson || wsp.Bytes != best.Bytes {
					t.Errorf("%s: ilp %d, wsp %d bytes; the exhaustive search %+v", where, ilp.Robinson, wsp.Bytes, best)
				}
			}
		}
	}
	t.Logf("%d example specs, %d compared with the exhaustive search; ilp or wsp cheaper than greedy on %d", specs, compared, better)
	if specs == 0 {
		t.Fatal("no example specs found")
	}
}
