package soacvet

import (
	"strings"
	"testing"
)

// TestClusterFlag: -cluster accepts the fusion engine's methods and
// refuses anything else with the list of methods.
func TestClusterFlag(t *testing.T) {
	f := Analyzer.Flags.Lookup("cluster")
	if f == nil {
		t.Fatal("no -cluster flag")
	}
	defer f.Value.Set("greedy")
	for _, m := range []string{"greedy", "ilp", "wsp"} {
		if err := f.Value.Set(m); err != nil || f.Value.String() != m {
			t.Errorf("-cluster=%s: %v, value %q", m, err, f.Value.String())
		}
	}
	if err := f.Value.Set("best"); err == nil || !strings.Contains(err.Error(), "greedy, ilp, wsp") {
		t.Errorf("-cluster=best: %v, want an error listing the methods", err)
	}
}
