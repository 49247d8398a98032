package build

import (
	"strings"
	"testing"
)

// TestDirectiveCluster: cluster= names a clustering method of the fusion
// engine; any other value, or the key twice, is refused with a reason.
func TestDirectiveCluster(t *testing.T) {
	for _, tc := range []struct {
		args, cluster, backend, bad string
	}{
		{args: "F cluster=wsp", cluster: "wsp"},
		{args: "F cluster=ilp backend=cpu", cluster: "ilp", backend: "cpu"},
		{args: "F backend=parallel cluster=greedy", cluster: "greedy", backend: "parallel"},
		{args: "F", cluster: ""},
		{args: "F cluster=best", bad: `unknown cluster method "best" (want greedy, ilp or wsp)`},
		{args: "F cluster=ilp cluster=wsp", bad: "key cluster given twice"},
		{args: "F cluster=", bad: `unknown cluster method ""`},
		{args: "F level=3", bad: `unknown key "level" (the keys are backend and cluster)`},
	} {
		d, msg := parseFuse(tc.args)
		if tc.bad != "" {
			if d != nil || !strings.Contains(msg, tc.bad) {
				t.Errorf("parseFuse(%q) = %v, %q; want the problem %q", tc.args, d, msg, tc.bad)
			}
			continue
		}
		if d == nil || d.Cluster != tc.cluster || d.Backend != tc.backend {
			t.Errorf("parseFuse(%q) = %+v, %q; want cluster %q backend %q", tc.args, d, msg, tc.cluster, tc.backend)
		}
	}
}
