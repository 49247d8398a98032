package fusion

// This file checks the engine against Futhark's own fusion test suite
// (diku-dk/futhark tests/fusion), translated into the Go specs of
// testdata/src/futhark: on every program, at most as many depth-0 kernels
// as Futhark's stated structure, except the gaps listed with their reason.

import (
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/soacgen/soacgen/analyzer/build"
	"github.com/soacgen/soacgen/analyzer/internal/soactest"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// quietPlans runs the greedy engine on every modelled function and
// returns the plans by name, reporting nothing (the Futhark specs carry no
// // want comments; their notes are checked through expect.refusals).
// TestFutharkSuite runs the other methods itself.
var quietPlans = &analysis.Analyzer{
	Name:       "fusionquiet",
	Doc:        "returns the fusion engine's plans without reporting",
	Requires:   []*analysis.Analyzer{build.Analyzer},
	ResultType: reflect.TypeOf(map[string]*Plan{}),
	Run: func(pass *analysis.Pass) (any, error) {
		prog := pass.ResultOf[build.Analyzer].(*ir.Program)
		plans := map[string]*Plan{}
		for _, fn := range prog.Funcs {
			plans[fn.Name] = Fuse(fn, Options{Fset: pass.Fset, Cluster: MethodGreedy})
		}
		return plans, nil
	},
}

// futharkCase is one translated Futhark program.
type futharkCase struct {
	fn string
	// futhark is the number of depth-0 Scremas in Futhark's structure
	// (stated, or where the program states none, what its fusion gives:
	// see the spec's comment).
	futhark int
	// got is the number of depth-0 kernels soacgen reaches, counting only
	// kernels with a member other than Iota and Replicate: Futhark counts
	// those as Iota and Replicate statements, not Scremas (a Replicate
	// used as a reduction's neutral element is a value, not a pass).
	got int
	// gap, when got > futhark, says why (a Go safety rule or a missing
	// engine feature).
	gap string
	// want holds further expectations (refusals, rules).
	want expect
}

var futharkCases = []futharkCase{
	{fn: "mapomap0", futhark: 1, got: 1, want: expect{rules: []string{"map->map", "horizontal"}}},
	{fn: "mapomap1", futhark: 1, got: 1},
	{fn: "mapored0", futhark: 1, got: 1},
	{fn: "mapored1", futhark: 1, got: 1},
	{fn: "maposcan0", futhark: 1, got: 1, want: expect{outputs: []string{"sa"}}},
	{fn: "maposcanomaposcan", futhark: 2, got: 1},
	{fn: "redomap0", futhark: 1, got: 1},
	{fn: "redomap1", futhark: 1, got: 1},
	{fn: "redoredomapomap0", futhark: 2, got: 2},
	{fn: "consumption1", futhark: 1, got: 1, want: expect{kernels: map[int]int{1: 1}}},
	{fn: "consumption2", futhark: 1, got: 1},
	{fn: "consumption3", futhark: 2, got: 2, want: expect{refusals: []string{"write-between/xs"}}},
	{fn: "filterFilter1", futhark: 1, got: 1},
	{fn: "fuseComplex1", futhark: 1, got: 1},
	{fn: "fuseEasy1", futhark: 1, got: 1},
	{fn: "fuseEasy2", futhark: 1, got: 1},
	{fn: "fuseEasy3", futhark: 3, got: 3},
	{fn: "fuseEasy4", futhark: 1, got: 1, want: expect{internal: []string{"x"}, rules: []string{"merge"}}}, // both Map2 length checks may panic: one kernel asserts both before its loop and runs them unfused, in spec order, when one fails
	{fn: "fuseFilter1", futhark: 1, got: 1},
	{fn: "fuseFilter2", futhark: 1, got: 1},
	{fn: "fusion1", futhark: 1, got: 1},
	{fn: "fusion2", futhark: 2, got: 2, want: expect{outputs: []string{"b"}, rules: []string{"map-out"}, refusals: []string{"used-before/x"}}},
	{fn: "fusion3", futhark: 1, got: 1, want: expect{kernels: map[int]int{1: 1}}},
	{fn: "fusion4", futhark: 1, got: 1},
	{fn: "fusion6", futhark: 2, got: 2, want: expect{outputs: []string{"bins", "offsets"}, rules: []string{"map-out", "map->scanomap"}}},
	{fn: "fusion7", futhark: 1, got: 1, want: expect{rules: []string{"placed"}}}, // the second map moves up past the indexing of the first's result
	{fn: "horizontal0", futhark: 2, got: 2},
	{fn: "iswim1", futhark: 1, got: 1},
	{fn: "iswim2", futhark: 1, got: 1},
	{fn: "mapScan1", futhark: 1, got: 1},
	{fn: "mapScan2", futhark: 1, got: 1},
	{fn: "mapScan3", futhark: 1, got: 1, want: expect{kernels: map[int]int{1: 1}}},
	{fn: "mapScan4", futhark: 1, got: 1},
	{fn: "noFusion1", futhark: 2, got: 2, want: expect{refusals: []string{"loop-boundary/x"}}},
	{fn: "noFusion2", futhark: 1, got: 1},
	{fn: "noFusion3", futhark: 3, got: 3, want: expect{refusals: []string{"used-before/x", "used-before/y"}}},
	{fn: "noFusion4", futhark: 2, got: 1, want: expect{internal: []string{"x"}, rules: []string{"placed"}}}, // y moves up past the write to arr, which it does not read
	{fn: "noFusion5", futhark: 2, got: 2, want: expect{refusals: []string{"no-rule"}}},
	{fn: "redRedFusion", futhark: 1, got: 1},
	{fn: "scanomapScanomap1", futhark: 1, got: 1, want: expect{outputs: []string{"a"}}},
	{fn: "scanomapScanomap2", futhark: 1, got: 1},
	{fn: "scanreduce0", futhark: 1, got: 1},
	{fn: "scanreduce1", futhark: 1, got: 1},
	{fn: "tabulate0", futhark: 1, got: 1, want: expect{internal: []string{"ys"}, rules: []string{"index-read"}}},
	{fn: "tabulate1", futhark: 1, got: 1, want: expect{internal: []string{"ys"}, rules: []string{"index-read"}}},
	{fn: "tabulate2", futhark: 1, got: 1, want: expect{internal: []string{"_soac1"}, rules: []string{"iota->any"}}},
	{fn: "bugCalib", futhark: 1, got: 1},
	{fn: "iswim3", futhark: 1, got: 1, want: expect{kernels: map[int]int{1: 2, 2: 1}, rules: []string{"map->scanomap"}}}, // depth 1: the map over iota and the scan operator's Map2
	// Futhark's transposed replicate is a view that stops tv6 from fusing
	// down; in Go it is a map that fuses. At depth 1 each member keeps its
	// own inner map (seven kernels, the Replicate's among them) where
	// Futhark fuses all into one: the engine fuses SOACs within one lambda,
	// not across the lambdas of a kernel's members.
	{fn: "fusion5", futhark: 3, got: 2, want: expect{kernels: map[int]int{0: 2, 1: 7}, internal: []string{"tv6", "tv18", "tv27", "masked"}}},
	// Futhark: one Screma at each of depths 0, 1 and 2. At depth 1 the
	// maps over at and wht, in the lambdas of two members, stay apart (the
	// engine fuses within one lambda; nor are their lengths known equal
	// before the last Map2 checks them), so the dot products at depth 2
	// do too.
	{fn: "horizontalSharedInput", futhark: 1, got: 1, want: expect{kernels: map[int]int{0: 1, 1: 3, 2: 2}, internal: []string{"wta", "wtwh"}}},
	{fn: "inner0", futhark: 1, got: 1, want: expect{kernels: map[int]int{0: 1, 1: 1}, internal: []string{"cmp"}, rules: []string{"map->redomap"}}}, // depth 1: first_some's reduce with the comparison's Map2
}

// scremaKernels counts the depth-0 kernels with a member other than a
// generator.
func scremaKernels(plan *Plan) int {
	n := 0
	for _, k := range plan.Kernels {
		if k.Depth != 0 {
			continue
		}
		for _, m := range k.SOACs {
			if !m.IsGenerator() {
				n++
				break
			}
		}
	}
	return n
}

func TestFutharkSuite(t *testing.T) {
	results := analysistest.Run(t, soactest.Dir(t, "testdata"), quietPlans, "futhark")
	plans := results[0].Result.(map[string]*Plan)
	seen := map[string]bool{}
	for _, c := range futharkCases {
		seen[c.fn] = true
		t.Run(c.fn, func(t *testing.T) {
			plan := plans[c.fn]
			if plan == nil {
				t.Fatalf("no plan for %s", c.fn)
			}
			verify(t, plan, c.want)
			got := scremaKernels(plan)
			if got != c.got {
				t.Errorf("%d depth-0 kernels (besides generators), the table says %d (Futhark: %d)\n%s", got, c.got, c.futhark, plan)
			}
			if c.got > c.futhark && c.gap == "" {
				t.Errorf("more kernels than Futhark's %d and no gap stated", c.futhark)
			}
			if c.got <= c.futhark && c.gap != "" {
				t.Errorf("gap stated but Futhark's count is met")
			}
			// The optimal methods reach greedy's count too (so Futhark's
			// where greedy does); want describes greedy's plan only.
			for _, m := range []string{MethodILP, MethodWSP} {
				p := Fuse(plan.Func, Options{Fset: plan.Fset, Cluster: m})
				if err := Check(p); err != nil {
					t.Errorf("%s: %v", m, err)
				}
				if got := scremaKernels(p); got > c.got {
					t.Errorf("%s: %d depth-0 kernels (besides generators), Futhark %d, greedy %d\n%s", m, got, c.futhark, c.got, p)
				}
			}
		})
	}
	for name := range plans {
		if !seen[name] {
			t.Errorf("spec %s has no case", name)
		}
	}
}
