package fusion

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/soacgen/soacgen/analyzer/internal/soactest"
)

// TestIndexReads checks the index reads of testdata/src/gathers: the
// positives fuse ys's producer into its consumer (tag index-read, ys
// internal unless it is also returned); every negative keeps two kernels,
// ys materialised for the literal that reads it whole (no flow: no note).
func TestIndexReads(t *testing.T) {
	results := analysistest.Run(t, soactest.Dir(t, "testdata"), quietPlans, "gathers")
	plans := results[0].Result.(map[string]*Plan)
	for _, c := range indexReadCases {
		t.Run(c.fn, func(t *testing.T) {
			plan := plans[c.fn]
			if plan == nil {
				t.Fatalf("no plan for %s", c.fn)
			}
			verify(t, plan, c.want)
			var gathers int
			for _, k := range plan.Kernels {
				gathers += len(k.Gathers)
			}
			if fusedCase := c.want.kernels[0] == 1; fusedCase != (gathers > 0) {
				t.Errorf("%d index reads in the plan's kernels\n%s", gathers, plan)
			}
		})
	}
}

var (
	fusedRead = expect{kernels: map[int]int{0: 1}, internal: []string{"ys"}, rules: []string{TagIndexRead}}
	apartRead = expect{kernels: map[int]int{0: 2}, outputs: []string{"ys"}}
)

// indexReadCases are the plans of testdata/src/gathers.
var indexReadCases = []struct {
	fn   string
	want expect
}{
	{"tabulate", fusedRead},
	{"overXs", expect{kernels: map[int]int{0: 1}, internal: []string{"ys", "zs"}, rules: []string{TagIndexRead, "map->redomap"}}},
	{"sameN", fusedRead},
	{"filtered", fusedRead},
	{"mapOut", expect{kernels: map[int]int{0: 1}, outputs: []string{"ys"}, rules: []string{TagIndexRead, TagMapOut}}},
	{"shifted", apartRead},
	{"otherLen", apartRead},
	{"unknownLen", apartRead},
	{"reassigned", apartRead},
	{"whole", apartRead},
	{"nested", apartRead},
	{"written", apartRead},
}
