package rewrite

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/report"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// funcLine is the line of lowered.Dump that starts a generated function.
var funcLine = regexp.MustCompile(`^func \w+ -> (\w+)$`)

// TestDirectivePlans checks that every directive of a spec with several
// (testdata/directives) is generated from the plan Run fused for it, with
// the run's options, not from one fused again with default options: with
// a gas limit of one fusion, statsSpec's kernels stay apart in each of
// its three generated functions (the first directive names no option,
// the second names cluster=ilp, the third backend=opencl), and
// each output's plans are Run's. A refusal forced on SumSqPar, sumSqSpec's
// second directive, shows in the report as that function's fallback note
// and backend. Without the gas limit statsSpec fuses into one kernel,
// the case that shows the limit changes the plans.
func TestDirectivePlans(t *testing.T) {
	pkgs := casePkgs(t, "directives")
	refuseHook = func(fn *ir.Function, lk *lowered.Kernel) string {
		if fn.Fuse.Name == "SumSqPar" {
			return "forced by the test"
		}
		return ""
	}
	defer func() { refuseHook = nil }()
	for _, gas := range []int{0, 1} {
		results, err := RunPackages(pkgs, Options{Check: true, Gas: gas})
		if err != nil {
			t.Fatal(err)
		}
		res := results[0]
		if len(res.Outputs) != 1 {
			t.Fatalf("gas %d: %d outputs, want 1", gas, len(res.Outputs))
		}
		out := res.Outputs[0]
		if len(out.Plans) != len(res.Plans) {
			t.Fatalf("gas %d: %d plans generated, %d fused", gas, len(out.Plans), len(res.Plans))
		}
		for i, pl := range out.Plans {
			if pl != res.Plans[i] {
				t.Errorf("gas %d: %s is generated from a plan Run did not fuse", gas, out.Names[i])
			}
		}

		// The kernels of each generated function, from its lowered dump.
		kernels := map[string]int{}
		name := ""
		for _, line := range strings.Split(out.Lowered, "\n") {
			if m := funcLine.FindStringSubmatch(line); m != nil {
				name = m[1]
			} else if strings.HasPrefix(line, "  kernel ") {
				kernels[name]++
			}
		}
		for _, stats := range []string{"Stats", "StatsPar", "StatsCL"} {
			// The gas stops the fusion after one: the five SOACs cannot
			// all be one kernel.
			if gas == 0 && kernels[stats] != 1 || gas == 1 && kernels[stats] < 2 {
				t.Errorf("gas %d: %s has %d kernels, want 1 without gas, at least 2 with", gas, stats, kernels[stats])
			}
		}
		for i, pl := range out.Plans {
			if n := kernels[out.Names[i]]; n != len(pl.Kernels) {
				t.Errorf("gas %d: %s generates %d kernels, its plan has %d", gas, out.Names[i], n, len(pl.Kernels))
			}
		}

		// The report of SumSqPar carries its refusal.
		rep := res.Report(pkgs[0].Fset, pkgs[0].PkgPath, "", "")
		found := false
		for _, fn := range rep.Functions {
			var notes []string
			for _, n := range fn.Notes {
				if n.Rule == report.FallbackRule {
					notes = append(notes, n.Reason)
				}
			}
			var backends []string
			for _, k := range fn.Kernels {
				backends = append(backends, k.Backend)
			}
			if fn.Name != "SumSqPar" {
				if len(notes) > 0 && fn.Name != "StatsCL" {
					t.Errorf("gas %d: %s has fallback notes %q", gas, fn.Name, notes)
				}
				continue
			}
			found = true
			wantNotes := []string{
				"backend parallel does not generate this kernel: forced by the test; it falls back to cpu",
				"backend cpu does not generate this kernel: forced by the test; it falls back to reference",
			}
			if !slices.Equal(notes, wantNotes) || !slices.Equal(backends, []string{backend.Reference}) {
				t.Errorf("gas %d: SumSqPar's report: notes %q, backends %q; want %q, [reference]", gas, notes, backends, wantNotes)
			}
		}
		if !found {
			t.Errorf("gas %d: no SumSqPar in the report", gas)
		}
	}
}
