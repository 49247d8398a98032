package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCluster: -cluster chooses the method of every spec whose directive
// names none, the report names it with the clustering's cost, and an
// unknown method is a usage error.
func TestCluster(t *testing.T) {
	mod := writeModule(t, map[string]string{"p/n.go": readFile(t, filepath.Join("testdata", "mod", "p", "n.go"))})
	for _, m := range []string{"greedy", "ilp", "wsp"} {
		code, stdout, stderr := soacgen(mod, "-json", "-cluster="+m, "./...")
		if code != 0 {
			t.Fatalf("-cluster=%s: exit %d, stderr:\n%s", m, code, stderr)
		}
		var rep struct {
			Packages []struct {
				Functions []struct {
					Spec    string
					Kernels []struct{}
					Cluster struct {
						Method          string
						Robinson, Bytes int64
						Optimal         bool
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		n := rep.Packages[0].Functions[0]
		if n.Spec != "normalize2Spec" || n.Cluster.Method != m || len(n.Kernels) != 2 {
			t.Errorf("-cluster=%s: %+v", m, n)
		}
		// Robinson et al., "Clustering for Array-Backed Streams" (2014) [Robinson-ILP] Fig. 1.16: the optimal clustering costs 51.
		if n.Cluster.Robinson != 51 || n.Cluster.Optimal != (m != "greedy") {
			t.Errorf("-cluster=%s: cost %+v, want robinson 51, optimal for ilp and wsp", m, n.Cluster)
		}
	}
	code, _, stderr := soacgen(mod, "-cluster=best", "./...")
	if code != 2 || !strings.Contains(stderr, `invalid -cluster "best"`) {
		t.Errorf("-cluster=best: exit %d, stderr %q; want 2 and the reason", code, stderr)
	}
}
