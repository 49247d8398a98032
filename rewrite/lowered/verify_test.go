package lowered

import (
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// filterFold is a valid lowered loop: a filter whose kept elements a fold
// reads through a select, and a map over the root space.
func filterFold() *Kernel {
	flt := &ir.SOAC{Name: "Filter"}
	red := &ir.SOAC{Name: "Reduce"}
	mp := &ir.SOAC{Name: "Map"}
	return &Kernel{
		Src:    &PlanKernel{ID: 1, SOACs: []*ir.SOAC{flt, red, mp}},
		Form:   Loop,
		Length: Length{Var: &ir.Var{Name: "xs"}},
		Unroll: 1,
		Spaces: []Space{{Parent: -1, Filter: -1}, {Parent: Root, Filter: 0, Select: true}},
		Members: []Member{
			{SOAC: flt, Role: Filter, Space: Root, Kept: 1, Store: AtCount},
			{SOAC: red, Role: Fold, Space: 1, Kept: -1, NeutralSelect: true},
			{SOAC: mp, Role: Map, Space: Root, Kept: -1, Store: Indexed},
		},
	}
}

// TestVerifyKernel checks that a valid kernel passes and that each broken
// invariant is caught with a message naming it.
func TestVerifyKernel(t *testing.T) {
	if err := VerifyKernel(filterFold()); err != nil {
		t.Fatalf("valid kernel: %v", err)
	}
	// Unrolled with a split fold of kept elements none of which is
	// stored: the copies carry nothing between them.
	k := filterFold()
	k.Unroll, k.Members[0].Store, k.Members[1].Split = 4, NoStore, true
	if err := VerifyKernel(k); err != nil {
		t.Fatalf("unrolled kernel with a filter only folded: %v", err)
	}
	for _, tc := range []struct {
		name   string
		break_ func(k *Kernel)
		want   string
	}{
		{"member missing", func(k *Kernel) { k.Members = k.Members[:2] }, "2 members"},
		{"members reordered", func(k *Kernel) { k.Members[0], k.Members[2] = k.Members[2], k.Members[0] }, "not the plan's member"},
		{"no root", func(k *Kernel) { k.Spaces[0].Select = true }, "not the root"},
		{"sequence without reason", func(k *Kernel) { *k = Kernel{Src: k.Src, Members: k.Members, Spaces: k.Spaces[:1], Unroll: 1} }, "without a reason"},
		{"no length", func(k *Kernel) { k.Length = Length{} }, "length"},
		{"select below a filter", func(k *Kernel) { k.Spaces[1].Parent = 1 }, "parent"},
		{"kept space not its own", func(k *Kernel) { k.Members[0].Kept = -1 }, "kept space"},
		{"split without unroll", func(k *Kernel) { k.Members[1].Split = true }, "split"},
		{"unrolled filter", func(k *Kernel) { k.Unroll = 4 }, "unrolled 4"},
		{"neutral outside a select", func(k *Kernel) { k.Spaces[1].Select = false; k.Members[0].Store = Appended }, "neutral"},
		{"store at the index in a select", func(k *Kernel) { k.Members[0].Store = Indexed }, "want at-count"},
		{"fold stores", func(k *Kernel) { k.Members[1].Store = AtCount }, "stores an array"},
		{"map keeps", func(k *Kernel) { k.Members[2].Kept = 1 }, "keeps elements"},
		{"scan of the elements a select keeps", func(k *Kernel) { k.Members[1].Role = Scan; k.Members[1].NeutralSelect = false }, "scan"},
	} {
		k := filterFold()
		tc.break_(k)
		err := VerifyKernel(k)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: VerifyKernel = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// TestDumpKernel checks the text of a lowered kernel.
func TestDumpKernel(t *testing.T) {
	var b strings.Builder
	DumpKernel(&b, nil, filterFold())
	want := `  kernel 1 at - depth 0: loop over len(xs)
    space 1: kept by member 0, in space 0, select
    member 0: Filter@- filter in space 0, keeps space 1, stored at-count
    member 1: Reduce@- fold in space 1, neutral for dropped
    member 2: Map@- map in space 0, stored indexed
`
	if b.String() != want {
		t.Errorf("DumpKernel:\n%s\nwant:\n%s", b.String(), want)
	}
}
