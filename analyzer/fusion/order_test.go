package fusion

import (
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// orderRefusals are the refusal ids this file exercises (counted by
// TestEveryRuleTested).
var orderRefusals = []string{RefKernelOrder}

// crossCapture builds two chains that depend on each other through
// captured scalars:
//
//	v0 := Map(xs); v1 := Reduce(v0); v3 := Reduce(xs)
//	v4 := Map(v0) capturing v3; t := Map(v0) capturing v1; v6 := Reduce(t)
func crossCapture() *irb {
	b := newIRB("crossCapture")
	b.param("xs")
	b.Map("v0", pure(), "xs")
	b.Reduce("v1", "v0", pure())
	b.Reduce("v3", "xs", pure())
	b.Map("v4", pure("v3"), "v0")
	b.Map("t", pure("v1"), "v0")
	b.Reduce("v6", "t", pure())
	b.plain("use:v6", "use:v4")
	return b
}

// soacsNamed returns the SOACs of fn defining the named outputs.
func soacsNamed(fn *ir.Function, outs ...string) []*ir.SOAC {
	var ss []*ir.SOAC
	for _, o := range outs {
		ir.Walk(fn.Body, func(s ir.Stmt) bool {
			if soac, ok := s.(*ir.SOAC); ok && soac.Out != nil && soac.Out.Name == o {
				ss = append(ss, soac)
			}
			return true
		})
	}
	return ss
}

// cyclicPlan is the plan that placed {v3, t, v6} at v3's Reduce and moved
// {v0, v1, v4} down to v4's Map: each kernel alone passes every move it
// makes, but the first reads v0 and v1 from the second, which captures v3
// from the first.
type cyclicPlan struct{}

func (cyclicPlan) Name() string { return "cyclic" }

func (cyclicPlan) Partition(fn *ir.Function, opts Options) *Plan {
	a := soacsNamed(fn, "v3", "t", "v6")
	b := soacsNamed(fn, "v0", "v1", "v4")
	return &Plan{Func: fn, Fset: opts.Fset, Partitioner: "cyclic", Kernels: []*Kernel{
		{ID: 1, SOACs: a, Block: fn.Body, At: a[0]},
		{ID: 2, SOACs: b, Block: fn.Body, At: b[2]},
	}}
}

// TestKernelOrderCycle: the greedy plan keeps every dependency in order;
// the cyclic plan does not, and the check names the array it breaks.
func TestKernelOrderCycle(t *testing.T) {
	b := crossCapture()
	plan := b.fuse(t, Options{})
	g := NewGraph(b.fn, b.fset)
	if r := kernelOrder(plan, g); r != nil {
		t.Fatalf("greedy plan out of order: %v\n%s", r, plan)
	}
	verify(t, plan, expect{apart: [][]string{{"v3", "v6"}, {"v0", "v6"}}})
	bad := cyclicPlan{}.Partition(b.fn, Options{Fset: b.fset})
	r := kernelOrder(bad, g)
	if r == nil || r.Rule != RefKernelOrder {
		t.Fatalf("cyclic plan accepted: %v", r)
	}
	if !strings.Contains(r.Reason, "v0") && !strings.Contains(r.Reason, "v1") || !strings.Contains(r.Reason, "t.go:") {
		t.Errorf("reason does not name the array and positions: %s", r.Reason)
	}
	if err := Check(bad); err == nil || !strings.Contains(err.Error(), "dependency order") {
		t.Errorf("Check accepted the cyclic plan: %v", err)
	}
}

// TestFuseRefusesCyclicPlan: whatever the partitioner returns, Fuse never
// hands on a plan out of dependency order; it fuses nothing instead and
// says why.
func TestFuseRefusesCyclicPlan(t *testing.T) {
	b := crossCapture()
	plan := b.fuse(t, Options{Partitioner: cyclicPlan{}})
	if len(plan.Kernels) != 6 {
		t.Errorf("%d kernels, want one per SOAC (6)\n%s", len(plan.Kernels), plan)
	}
	found := false
	for _, d := range plan.Diagnostics {
		if d.Category == "unsupported" && strings.Contains(d.Message, "would break a dependency") {
			found = true
		}
	}
	if !found {
		t.Errorf("no diagnostic says why nothing was fused: %v", plan.Diagnostics)
	}
}

// TestMergeRefusesKernelOrder: the driver's own check refuses the merge
// that makes the cycle, with a kernel-order refusal.
func TestMergeRefusesKernelOrder(t *testing.T) {
	b := crossCapture()
	st := newState(b.fn, Options{Fset: b.fset})
	s := map[string]*ir.SOAC{}
	for _, soac := range soacsNamed(b.fn, "v0", "v1", "v3", "v4", "t", "v6") {
		s[soac.Out.Name] = soac
	}
	second := st.newKernel(s["v4"])
	for _, m := range []string{"v1", "v0"} {
		st.newKernel(s[m])
		st.join(s[m], second, nil)
	}
	first := st.newKernel(s["v6"])
	st.newKernel(s["t"])
	st.join(s["t"], first, nil)
	v3 := st.newKernel(s["v3"])
	_, r := st.mergePos(v3, first)
	if r == nil || r.Rule != RefKernelOrder {
		t.Fatalf("merge of v3's kernel with v6's not refused for kernel order: %v", r)
	}
	// Without the other kernel the same merge is legal.
	st2 := newState(b.fn, Options{Fset: b.fset})
	k6 := st2.newKernel(s["v6"])
	st2.newKernel(s["t"])
	st2.join(s["t"], k6, nil)
	if _, r := st2.mergePos(st2.newKernel(s["v3"]), k6); r != nil {
		t.Errorf("merge refused although v0 is still computed at its own statement: %v", r)
	}
}
