package rewrite

import (
	"bytes"
	"encoding/json"
	"github.com/soacgen/soacgen/rewrite/backend"
	"regexp"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/report"
)

// TestParallelBackend generates testdata/parallel (every spec asks for
// backend=parallel) and checks what users see: each kernel's runtime
// call, the impure kernel's warning and report note naming the impure
// construct, and the report's backend of every kernel (cpu only for the
// impure one).
func TestParallelBackend(t *testing.T) {
	pkgs := casePkgs(t, "parallel")
	results, err := RunPackages(pkgs, Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	out := results[0].Outputs[0]

	// The runtime call of each function.
	src := string(out.Content)
	for fn, call := range map[string]string{
		"Scale": "parallel.For(", "Checked": "parallel.For(", "SumChecked": "parallel.Reduce(",
		"Divide": "parallel.Reduce(", "Prefix": "parallel.ScanExact(", "PrefixFloat": "parallel.Scan(", "Evens": "parallel.FilterFold(",
		"EvensCount": "parallel.FilterFold(", "RowSums": "parallel.ForMeasured(", "ChunkSum": "parallel.StreamRed(",
		"ChunkDouble": "parallel.StreamMapOr(", "StartTen": "parallel.Reduce(", "StartGiven": "parallel.ScanExact(",
	} {
		body := funcBody(t, src, fn)
		if !strings.Contains(body, call) {
			t.Errorf("%s does not call %s", fn, call)
		}
		if call != "parallel.StreamRed(" && call != "parallel.StreamMapOr(" && !strings.Contains(body, "parallel.Sequential(") {
			t.Errorf("%s has no sequential path", fn)
		}
	}

	// The impure kernel: one warning, naming the construct. (Starts that
	// are not neutral run in parallel: rewrite/backend/parallel's chunkstart.go.)
	wants := []*regexp.Regexp{
		regexp.MustCompile(`^/\S+/testdata/parallel/parallel\.go:\d+:\d+: impureSpec: backend parallel does not generate this kernel: the function of Map at parallel\.go:\d+:\d+ is not pure \(writes package-level variable seen at parallel\.go:\d+:\d+\): it never runs in parallel; it falls back to cpu$`),
	}
	if len(out.Warnings) != len(wants) {
		t.Errorf("warnings %q, want %d", out.Warnings, len(wants))
	}
	for i, w := range out.Warnings {
		if i < len(wants) && !wants[i].MatchString(w) {
			t.Errorf("warning %q, want one matching %s", w, wants[i])
		}
	}

	rep := &report.Report{Packages: []*report.Package{results[0].Report(pkgs[0].Fset, pkgs[0].PkgPath, "", "")}}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Packages []struct {
			Functions []struct {
				Spec    string
				Kernels []struct {
					Backend string
					Ops     []struct{ Op string }
				}
				Notes []struct{ Reason, Rule string }
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, fn := range got.Packages[0].Functions {
		for _, k := range fn.Kernels {
			wantBackend := backend.Parallel
			if fn.Spec == "impureSpec" && k.Ops[0].Op == "Map" {
				wantBackend = backend.CPU
			}
			if k.Backend != wantBackend {
				t.Errorf("%s: kernel %v has backend %q, want %q", fn.Spec, k.Ops, k.Backend, wantBackend)
			}
		}
		var notes []string
		for _, n := range fn.Notes {
			if n.Rule == report.FallbackRule {
				notes = append(notes, n.Reason)
			}
		}
		switch {
		case fn.Spec == "impureSpec":
			if len(notes) != 1 || !strings.Contains(notes[0], "writes package-level variable seen") {
				t.Errorf("impureSpec: notes %q, want the impure fallback", notes)
			}
		case len(notes) > 0:
			t.Errorf("%s: fallback notes %q", fn.Spec, notes)
		}
	}
}
