package fusion

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// expect is the structure a test asserts of a plan, like Futhark's
// `structure { }` tests.
type expect struct {
	// kernels maps a depth to its number of kernels (depths not listed are
	// not checked; list 0 always).
	kernels map[int]int
	// together lists groups of SOACs (by output variable name) that share a
	// kernel; apart lists pairs that must not.
	together [][]string
	apart    [][]string
	// internal lists arrays that must not be materialised; outputs arrays
	// that must stay kernel outputs.
	internal, outputs []string
	// rules must all have fired; refusals must all appear as notes, each
	// with a reason naming the variable given after "/" (rule/var) and a
	// position.
	rules    []string
	refusals []string
	// diags are diagnostic categories that must appear.
	diags []string
	// noNotes asserts the plan has no notes at all.
	noNotes bool
	// copies lists SOACs (by output) that must be in several kernels.
	copies []string
	// passes, when not zero, is the plan's statistics: passes before and
	// after fusion.
	passes [2]int
}

func kernelsOf(plan *Plan, out string) []*Kernel {
	var ks []*Kernel
	for _, k := range plan.Kernels {
		for _, m := range k.SOACs {
			if m.Out != nil && m.Out.Name == out {
				ks = append(ks, k)
				break
			}
		}
	}
	return ks
}

func verify(t *testing.T, plan *Plan, e expect) {
	t.Helper()
	if err := Check(plan); err != nil {
		t.Fatalf("Check: %v\n%s", err, plan)
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s\nplan:\n%s", fmt.Sprintf(format, args...), plan)
	}
	counts := map[int]int{}
	for _, k := range plan.Kernels {
		counts[k.Depth]++
	}
	for d, n := range e.kernels {
		if counts[d] != n {
			fail("depth %d: %d kernels, want %d", d, counts[d], n)
		}
	}
	for _, g := range e.together {
		ks := kernelsOf(plan, g[0])
		if len(ks) == 0 {
			fail("no kernel computes %s", g[0])
			continue
		}
		for _, o := range g[1:] {
			if os := kernelsOf(plan, o); len(os) == 0 || !containsKernel(os, ks[0]) {
				fail("%s and %s are not in one kernel", g[0], o)
			}
		}
	}
	for _, g := range e.apart {
		a, b := kernelsOf(plan, g[0]), kernelsOf(plan, g[1])
		for _, k := range a {
			if containsKernel(b, k) {
				fail("%s and %s share kernel %d", g[0], g[1], k.ID)
			}
		}
	}
	for _, v := range e.internal {
		if !varIn(plan, v, func(k *Kernel) []*ir.Var { return k.Internal }) {
			fail("%s is not internal to a kernel", v)
		}
	}
	for _, v := range e.outputs {
		if !varIn(plan, v, func(k *Kernel) []*ir.Var { return k.Outputs }) {
			fail("%s is not a kernel output", v)
		}
	}
	for _, r := range e.rules {
		if plan.Stats.Rules[r] == 0 {
			fail("rule %s did not fire", r)
		}
	}
	for _, spec := range e.refusals {
		rule, v, _ := strings.Cut(spec, "/")
		found := false
		for _, n := range plan.Notes {
			if n.Rule != rule {
				continue
			}
			if v != "" && !strings.Contains(n.Reason, v) {
				continue
			}
			if !strings.Contains(n.Reason, ".go:") || n.Var == nil || n.Producer == nil {
				fail("note %s does not name a position, variable and producer: %q", rule, n.Reason)
			}
			found = true
		}
		if !found {
			fail("no %s note naming %q", rule, v)
		}
	}
	if e.noNotes && len(plan.Notes) > 0 {
		fail("unexpected notes")
	}
	for _, c := range e.diags {
		found := false
		for _, d := range plan.Diagnostics {
			if d.Category == c {
				found = true
			}
		}
		if !found {
			fail("no %s diagnostic", c)
		}
	}
	if got := [2]int{plan.Stats.PassesBefore, plan.Stats.PassesAfter}; e.passes != [2]int{} && got != e.passes {
		fail("passes %d -> %d, want %d -> %d", got[0], got[1], e.passes[0], e.passes[1])
	}
	for _, c := range e.copies {
		if n := len(kernelsOf(plan, c)); n < 2 {
			fail("%s is in %d kernels, want a copy in each branch", c, n)
		}
	}
}

func containsKernel(ks []*Kernel, k *Kernel) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

func varIn(plan *Plan, name string, f func(*Kernel) []*ir.Var) bool {
	for _, k := range plan.Kernels {
		for _, v := range f(k) {
			if v.Name == name {
				return true
			}
		}
	}
	return false
}

// declared collects the rule names and refusal ids that some test case
// declares (and so checks).
func declared(es []expect, rules, refusals map[string]bool) {
	for _, e := range es {
		for _, r := range e.rules {
			rules[r] = true
		}
		for _, r := range e.refusals {
			id, _, _ := strings.Cut(r, "/")
			refusals[id] = true
		}
	}
}

// TestEveryRuleTested fails when a rule of the table, a tag or a refusal id
// has no test case that expects it.
func TestEveryRuleTested(t *testing.T) {
	rules, refusals := map[string]bool{}, map[string]bool{}
	var es []expect
	for _, c := range handCases {
		es = append(es, c.want)
	}
	for _, c := range sourceCases {
		es = append(es, c.want)
	}
	for _, c := range indexReadCases { // gather_test.go
		es = append(es, c.want)
	}
	declared(es, rules, refusals)
	for _, id := range append(clusterRefusals, orderRefusals...) { // cluster_test.go, order_test.go
		refusals[id] = true
	}
	var missing []string
	for _, r := range Rules() {
		if !rules[r.Name] {
			missing = append(missing, "rule "+r.Name)
		}
	}
	for _, tag := range Tags() {
		if !rules[tag] {
			missing = append(missing, "tag "+tag)
		}
	}
	for _, id := range Refusals() {
		if !refusals[id] {
			missing = append(missing, "refusal "+id)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no test case exercises: %s", strings.Join(missing, ", "))
	}
}
