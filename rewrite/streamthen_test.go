package rewrite

import (
	"slices"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend"
)

// TestStreamThenBackends generates testdata/streamrules with the parallel
// and the opencl backend: every kernel whose StreamMap feeds scans,
// filters, maps or folds in its chunk loop (lower.ChunkedThen, at depth
// 0) falls back
// to the cpu backend with the backend's reason; the cpu backend renders
// each of them with no fallback.
func TestStreamThenBackends(t *testing.T) {
	pkgs := casePkgs(t, "streamrules")
	reasons := map[string]string{
		backend.CPU:      "",
		backend.Parallel: "run over its chunks in order (a scan's accumulator, a filter's kept count): not in parallel",
		backend.OpenCL:   "its form is chunked-then: only single loops become OpenCL kernels",
	}
	for _, b := range []string{backend.CPU, backend.Parallel, backend.OpenCL} {
		results, err := RunPackages(pkgs, Options{Check: true, Backend: b})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, o := range results[0].Outputs {
			for k, g := range o.Generated {
				// The kernels whose stream feeds other members (at depth
				// 0: a nested kernel runs inside its parent's element).
				si := slices.IndexFunc(k.SOACs, (*ir.SOAC).IsStream)
				if si < 0 || si == len(k.SOACs)-1 || k.Depth > 0 {
					continue
				}
				n++
				if g.Backend != backend.CPU {
					t.Errorf("%s: kernel at %v runs on %s, want cpu", b, k.At.Pos(), g.Backend)
				}
				if b == backend.CPU {
					if len(g.Fallbacks) != 0 {
						t.Errorf("cpu: kernel at %v fell back: %+v", k.At.Pos(), g.Fallbacks)
					}
					continue
				}
				found := false
				for _, f := range g.Fallbacks {
					// The parallel backend may refuse a start that is not
					// neutral first.
					found = found || f.Backend == b && (strings.Contains(f.Reason, reasons[b]) || strings.Contains(f.Reason, "not provably its operator's neutral element"))
				}
				if !found {
					t.Errorf("%s: kernel at %v: fallbacks %+v, want %s's with %q", b, k.At.Pos(), g.Fallbacks, b, reasons[b])
				}
			}
		}
		if n < 12 {
			t.Errorf("%s: %d kernels with a stream and more members, want at least 12", b, n)
		}
	}
}
