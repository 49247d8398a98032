package randpipe

import (
	"fmt"
	"go/ast"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/soacgen/soacgen/analyzer/build"
	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// TestRandomPipelinesEngine runs the real analysis (soacir with the purity
// analyzer, fusion.Fuse, fusion.Check) on random specs: no crash, valid IR
// and plans, every SOAC of the source in the IR, no plan Fuse dropped for
// breaking the kernel order, every injected hazard decided as the
// Expected table says and every path shape as checkPath says; the specs
// of MoreConfig are the differential test's.
func TestRandomPipelinesEngine(t *testing.T) {
	pkgs := append(Batch(1000, Config{Specs: 10}), Batch(5000, MoreConfig)...)
	runEngine(t, append(pkgs, RegressPackages(t)...), 60)
}

// TestRandomShapesEngine is TestRandomPipelinesEngine on specs with
// reassignment shapes (the cpu differential test's seeds).
func TestRandomShapesEngine(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 30
	}
	cpu, _ := ShapeRunOf("cpu")
	runEngine(t, ShapePackages(cpu.Seed0, n, cpu.Config(nil)), n)
}

// runEngine analyses pkgs and checks every spec's plan; at least min
// specs must be analysed.
func runEngine(t *testing.T, pkgs []Package, min int) {
	start := time.Now()
	dir := t.TempDir()
	if err := WriteModule(dir, RepoRoot(), pkgs); err != nil {
		t.Fatal(err)
	}
	lpkgs := LoadModule(t, dir)
	graph, err := checker.Analyze([]*analysis.Analyzer{build.Analyzer}, lpkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Package{}
	for _, p := range pkgs {
		byName[ModulePath+"/"+p.Name] = p
	}
	var st engineStats
	st.hazards = map[string]int{}
	st.refusals = map[string]int{}
	st.rules = map[string]int{}
	st.shapes = map[string]int{}
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Errorf("%s: %v", act.Package.PkgPath, act.Err)
			continue
		}
		prog := act.Result.(*ir.Program)
		p := byName[act.Package.PkgPath]
		for _, pr := range prog.Problems {
			t.Errorf("%s: directive problem: %s", prog.Fset.Position(pr.Pos), pr.Msg)
		}
		for _, fn := range prog.Funcs {
			if fn.Fuse == nil {
				continue
			}
			var sp *Spec
			for i := range p.Specs {
				if p.Specs[i].Func == fn.Name {
					sp = &p.Specs[i]
				}
			}
			checkSpec(t, prog, fn, sp, p, &st)
		}
	}
	if st.specs < min {
		t.Errorf("only %d specs analysed", st.specs)
	}
	t.Logf("engine: %d specs, %d SOACs, %d kernels (passes %d -> %d), %d notes, in %v",
		st.specs, st.soacs, st.kernels, st.before, st.after, st.notes, time.Since(start).Round(time.Millisecond))
	t.Logf("hazards by kind: %s", FormatCounts(st.hazards))
	t.Logf("shapes: %s", FormatCounts(st.shapes))
	t.Logf("refusals (notes by rule): %s", FormatCounts(st.refusals))
	t.Logf("rules fired: %s", FormatCounts(st.rules))
}

// TestArgWriteRule (a bug randpipe found, since fixed in build): a call whose only effect is writing its slice
// argument must be refused as write-between.
func TestArgWriteRule(t *testing.T) {
	dir := t.TempDir()
	var pkgs []Package
	for _, p := range RegressPackages(t) {
		if p.Name == "argwrite" {
			pkgs = append(pkgs, p)
		}
	}
	if err := WriteModule(dir, RepoRoot(), pkgs); err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{build.Analyzer}, LoadModule(t, dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, act := range graph.Roots {
		prog := act.Result.(*ir.Program)
		for _, fn := range prog.Funcs {
			for _, sp := range pkgs[0].Specs {
				if sp.Func == fn.Name && sp.Hazard != nil {
					checkHazard(t, fn.Name, fusion.Fuse(fn, fusion.Options{Fset: prog.Fset}), sp.Hazard)
				}
			}
		}
	}
}

type engineStats struct {
	specs, soacs, kernels, notes, before, after int
	hazards, refusals, rules, shapes            map[string]int
}

// checkSpec analyses one spec and checks its plan.
func checkSpec(t *testing.T, prog *ir.Program, fn *ir.Function, sp *Spec, p Package, st *engineStats) {
	t.Helper()
	where := fmt.Sprintf("%s (seed %d) %s", p.Name, p.Seed, fn.Name)
	if err := ir.Verify(fn); err != nil {
		t.Errorf("%s: ir.Verify: %v", where, err)
		return
	}
	var plan *fusion.Plan
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: fusion.Fuse panicked: %v", where, r)
			}
		}()
		plan = fusion.Fuse(fn, fusion.Options{Fset: prog.Fset})
	}()
	if plan == nil {
		return
	}
	st.specs++
	if err := fusion.Check(plan); err != nil {
		t.Errorf("%s: fusion.Check: %v\n%s", where, err, fusion.Dump(plan))
	}
	n, sites := 0, 0
	ir.Walk(fn.Body, func(s ir.Stmt) bool {
		if so, ok := s.(*ir.SOAC); ok {
			n++
			if so.Site != nil {
				sites++ // a closure's call seen through: its literal's SOAC again
			}
		}
		return true
	})
	st.soacs += n
	st.kernels += len(plan.Kernels)
	st.notes += len(plan.Notes)
	st.before += plan.Stats.PassesBefore
	st.after += plan.Stats.PassesAfter
	for _, nt := range plan.Notes {
		st.refusals[nt.Rule]++
		if nt.Reason == "" || !strings.Contains(nt.Reason, ".go:") {
			t.Errorf("%s: note %s without a positioned reason: %q", where, nt.Rule, nt.Reason)
		}
	}
	for r, c := range plan.Stats.Rules {
		st.rules[r] += c
	}
	checkEdgeNotes(t, where, fn, plan)
	for _, d := range plan.Diagnostics {
		// Fuse's safety net: the plan the method chose broke the kernel
		// order and was replaced by one fusing nothing.
		if d.Category == "unsupported" && strings.HasPrefix(d.Message, "the fusion plan would break a dependency") {
			t.Errorf("%s: %s\n%s", where, d.Message, fusion.Dump(plan))
		}
	}
	if sp == nil {
		return // a regression file: no metadata
	}
	if got := n - sites + len(fn.Unsupported); got != sp.SOACs {
		t.Errorf("%s: IR has %d SOACs (%d of closures seen through, +%d unsupported), the source %d", where, n, sites, len(fn.Unsupported), sp.SOACs)
	}
	for _, u := range fn.Unsupported {
		t.Errorf("%s: unsupported %s: %s", where, prog.Fset.Position(u.Expr.Pos()), u.Reason)
	}
	for _, k := range sp.Shapes {
		st.shapes[k.String()]++
	}
	for _, ps := range sp.Paths {
		checkPath(t, where, plan, ps)
	}
	if sp.Hazard == nil {
		return
	}
	h := sp.Hazard
	st.hazards[h.Kind.String()]++
	checkHazard(t, where, plan, h)
}

// soacsNamed returns the SOACs (any depth) whose output variable is name.
func soacsNamed(fn *ir.Function, name string) []*ir.SOAC {
	var out []*ir.SOAC
	ir.Walk(fn.Body, func(s ir.Stmt) bool {
		if so, ok := s.(*ir.SOAC); ok && so.Out != nil && so.Out.Name == name {
			out = append(out, so)
		}
		return true
	})
	return out
}

// checkHazard checks the plan against Expected for the hazard.
func checkHazard(t *testing.T, where string, plan *fusion.Plan, h *Hazard) {
	t.Helper()
	exp := Expected[h.Kind]
	ps := soacsNamed(plan.Func, h.Producer)
	cs := soacsNamed(plan.Func, h.Consumer)
	if len(ps) != 1 {
		t.Errorf("%s: hazard %s: %d SOACs bind producer %s", where, h.Kind, len(ps), h.Producer)
		return
	}
	P := ps[0]
	var pk []*fusion.Kernel
	for _, k := range plan.Kernels {
		for _, m := range k.SOACs {
			if m == P {
				pk = append(pk, k)
			}
		}
	}
	for _, k := range pk {
		if k.Block == P.Parent && k.At.Pos() <= P.Pos() && slices.Contains(k.Rules, fusion.TagPlaced) {
			// Placement: the kernel runs where P is
			// written or before, so P crosses no hazard; its consumers
			// moved up past it, which the engine allows only where they
			// commute with it, and the differential test checks the
			// result.
			return
		}
		if h.Kind == BranchNoElse && slices.Contains(k.Rules, fusion.TagBranchCopy) && cannotPanic(P) {
			// The producer has no effect and cannot panic: leaving it
			// out on the path that does not consume it is unobservable,
			// so it runs only in the branch; the differential test
			// checks the result.
			return
		}
		if h.Kind == ReassignCapture && slices.Contains(k.Rules, fusion.TagCaptureCopy) {
			// The producer moved down reading a copy of the captured
			// variable taken where it is written (Kernel.Copies); the
			// differential test checks that it reads the old value and
			// the consumer the new one.
			return
		}
	}
	if exp.Rule != "" {
		found := false
		for _, nt := range plan.Notes {
			if nt.Rule == exp.Rule && nt.Producer == P {
				found = true
			}
		}
		if !found {
			var got []string
			for _, nt := range plan.Notes {
				if nt.Producer == P {
					got = append(got, nt.Rule+": "+nt.Reason)
				}
			}
			t.Errorf("%s: hazard %s: no %s note for producer %s; its notes: %q\n%s", where, h.Kind, exp.Rule, h.Producer, got, fusion.Dump(plan))
		}
	}
	if exp.Apart {
		for _, k := range pk {
			for _, m := range k.SOACs {
				for _, c := range cs {
					if m == c {
						t.Errorf("%s: hazard %s: producer %s fused into consumer %s\n%s", where, h.Kind, h.Producer, h.Consumer, fusion.Dump(plan))
					}
				}
			}
		}
	}
	if exp.Copied && len(pk) < 2 {
		t.Errorf("%s: hazard %s: producer %s in %d kernels, want a copy in each branch\n%s", where, h.Kind, h.Producer, len(pk), fusion.Dump(plan))
	}
}

// cannotPanic reports whether SOAC s is a Map of one input whose lambda is
// pure and cannot panic: evaluating it has no observable effect.
func cannotPanic(s *ir.SOAC) bool {
	op, ok := s.Op.(*ir.Screma)
	if !ok || op.Map == nil || op.Scan != nil || op.Reduce != nil || len(op.Inputs) != 1 {
		return false
	}
	return op.Map.Purity.Pure && !op.Map.Purity.MayPanic
}

// checkEdgeNotes checks that every producer-consumer edge the plan does not
// fuse is explained (docs/contract.md: notes explain each fusion that was
// possible in shape but not done): for each SOAC P whose output another
// SOAC C reads as an input array (itself, or as modified by writes in
// between: fusion.DerivedByWrites), either a kernel holds both, or a note
// names P as its producer.
func checkEdgeNotes(t *testing.T, where string, fn *ir.Function, plan *fusion.Plan) {
	t.Helper()
	var soacs []*ir.SOAC
	ir.Walk(fn.Body, func(s ir.Stmt) bool {
		if so, ok := s.(*ir.SOAC); ok {
			soacs = append(soacs, so)
		}
		return true
	})
	together := func(p, c *ir.SOAC) bool {
		for _, k := range plan.Kernels {
			hasP, hasC := false, false
			for _, m := range k.SOACs {
				hasP = hasP || m == p
				hasC = hasC || m == c
			}
			if hasP && hasC {
				return true
			}
		}
		return false
	}
	for _, p := range soacs {
		if p.Out == nil {
			continue
		}
		for _, c := range soacs {
			reads := slices.ContainsFunc(c.Inputs(), func(v *ir.Var) bool { return fusion.DerivedByWrites(v, p.Out) })
			if c == p || !reads || together(p, c) {
				continue
			}
			// The driver stops at a producer's first refusal: its note
			// names one consumer and explains them all.
			explained := slices.ContainsFunc(plan.Notes, func(nt fusion.Note) bool { return nt.Producer == p })
			if !explained {
				t.Errorf("%s: %s (%s) is not fused into %s (%s) and no note says why\n%s", where, p.Out.Name, p.Name, c.Name, plan.Fset.Position(c.Pos()), fusion.Dump(plan))
			}
		}
	}
}

// checkPath checks the engine's decision on a path shape: a return-arm
// producer is copied into the kernel of each path (fusion.TagBranchCopy),
// its twins are refused (consumed-twice, not-every-path), a called
// closure is seen through and its Map fused with the SOAC it is an
// argument of, and its twins are not seen through.
func checkPath(t *testing.T, where string, plan *fusion.Plan, ps PathShape) {
	t.Helper()
	kernelsOf := func(s *ir.SOAC) []*fusion.Kernel {
		var ks []*fusion.Kernel
		for _, k := range plan.Kernels {
			if slices.Contains(k.SOACs, s) {
				ks = append(ks, k)
			}
		}
		return ks
	}
	switch ps.Kind {
	case ReturnArm, ArmNoReturn, ReturnSkips:
		ps1 := soacsNamed(plan.Func, ps.Var)
		if len(ps1) != 1 {
			t.Errorf("%s: path shape %s: %d SOACs bind producer %s", where, ps.Kind, len(ps1), ps.Var)
			return
		}
		P := ps1[0]
		ks := kernelsOf(P)
		if ps.Kind == ReturnArm {
			copied := len(ks) >= 2
			for _, k := range ks {
				copied = copied && slices.Contains(k.Rules, fusion.TagBranchCopy)
			}
			if !copied {
				t.Errorf("%s: path shape %s: producer %s in %d kernels, want a branch copy on each path\n%s", where, ps.Kind, ps.Var, len(ks), fusion.Dump(plan))
			}
			return
		}
		rule := map[ShapeKind]string{ArmNoReturn: fusion.RefConsumedTwice, ReturnSkips: fusion.RefNotEveryPath}[ps.Kind]
		if !slices.ContainsFunc(plan.Notes, func(nt fusion.Note) bool { return nt.Rule == rule && nt.Producer == P }) || len(ks) > 1 {
			t.Errorf("%s: path shape %s: producer %s in %d kernels and no %s note for it\n%s", where, ps.Kind, ps.Var, len(ks), rule, fusion.Dump(plan))
		}
	default:
		var seen []*ir.SOAC
		ir.Walk(plan.Func.Body, func(s ir.Stmt) bool {
			if so, ok := s.(*ir.SOAC); ok && so.Site != nil {
				if id, ok := so.Site.Fun.(*ast.Ident); ok && id.Name == ps.Var {
					seen = append(seen, so)
				}
			}
			return true
		})
		if ps.Kind != ClosureCalled {
			if len(seen) > 0 {
				t.Errorf("%s: path shape %s: the call of %s is seen through\n%s", where, ps.Kind, ps.Var, fusion.Dump(plan))
			}
			return
		}
		if len(seen) != 1 {
			t.Errorf("%s: path shape %s: %d calls of %s seen through, want 1\n%s", where, ps.Kind, len(seen), ps.Var, fusion.Dump(plan))
			return
		}
		if ks := kernelsOf(seen[0]); len(ks) != 1 || len(ks[0].SOACs) < 2 {
			t.Errorf("%s: path shape %s: the Map of %s seen through is fused with nothing\n%s", where, ps.Kind, ps.Var, fusion.Dump(plan))
		}
	}
}
