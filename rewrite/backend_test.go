package rewrite

import (
	"bytes"
	"encoding/json"
	"github.com/soacgen/soacgen/rewrite/backend"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/report"
	"github.com/soacgen/soacgen/rewrite/lowered"
	"golang.org/x/tools/go/packages"
)

// TestForcedRefusal makes the cpu backend refuse the kernel of the
// testdata/basic spec dotSpec and checks what users see: the warning
// (file:line:col, the spec, the backend, the reason, the fallback), the
// report's note and the report's backend of the kernel ("reference":
// calls of runtime/soac), and the generated code (the members called
// one after another). Every other kernel stays cpu, without notes. It
// then asks for backend opencl: the kernel falls through opencl and
// parallel (refused too) to cpu.
func TestForcedRefusal(t *testing.T) {
	pkgs := casePkgs(t, "basic")
	refused := 0
	refuseHook = func(fn *ir.Function, lk *lowered.Kernel) string {
		if fn.Name == "dotSpec" {
			refused++
			return "forced by the test"
		}
		return ""
	}
	defer func() { refuseHook = nil }()
	for _, tc := range []struct {
		backend string
		warns   []string // the fallbacks of dotSpec's kernel, in order
	}{
		{"", []string{"backend cpu does not generate this kernel: forced by the test; it falls back to reference"}},
		{backend.OpenCL, []string{
			"backend opencl does not generate this kernel: forced by the test; it falls back to parallel",
			"backend parallel does not generate this kernel: forced by the test; it falls back to cpu",
			"backend cpu does not generate this kernel: forced by the test; it falls back to reference",
		}},
	} {
		refused = 0
		results, err := RunPackages(pkgs, Options{Check: true, Backend: tc.backend})
		if err != nil {
			t.Fatal(err)
		}
		if refused == 0 {
			t.Fatalf("backend %q: the hook refused nothing", tc.backend)
		}
		res := results[0]
		if len(res.Outputs) != 1 {
			t.Fatalf("%d outputs", len(res.Outputs))
		}
		out := res.Outputs[0]
		var dot []string
		for _, w := range out.Warnings {
			if !strings.Contains(w, ": dotSpec: ") {
				if !strings.Contains(w, "not built into this soacgen yet") && !strings.Contains(w, "backend opencl does not generate") {
					t.Errorf("backend %q: unexpected warning %s", tc.backend, w)
				}
				continue
			}
			dot = append(dot, w)
		}
		pos := regexp.MustCompile(`^/\S+/testdata/basic/basic\.go:26:9: dotSpec: `)
		if len(dot) != len(tc.warns) {
			t.Fatalf("backend %q: dotSpec warnings %q, want %d", tc.backend, dot, len(tc.warns))
		}
		for i, w := range dot {
			if !pos.MatchString(w) || !strings.HasSuffix(w, tc.warns[i]) {
				t.Errorf("backend %q: warning %q, want file:line:col basic.go:26:9, the spec and %q", tc.backend, w, tc.warns[i])
			}
		}

		// The report, as soacgen -json prints it.
		rep := &report.Report{Packages: []*report.Package{res.Report(pkgs[0].Fset, pkgs[0].PkgPath, "", tc.backend)}}
		var buf bytes.Buffer
		if err := rep.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Packages []struct {
				Functions []struct {
					Spec    string
					Kernels []struct{ Backend string }
					Notes   []struct{ Pos, Reason, Rule string }
				}
			}
		}
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		for _, fn := range got.Packages[0].Functions {
			wantBackend := backend.CPU
			if tc.backend == backend.OpenCL {
				wantBackend = backend.Parallel
			}
			var notes []string
			for _, n := range fn.Notes {
				if n.Rule == report.FallbackRule {
					notes = append(notes, n.Reason)
					if !strings.HasSuffix(n.Pos, "basic.go:26:9") && fn.Spec == "dotSpec" {
						t.Errorf("note at %s, want basic.go:26:9", n.Pos)
					}
				}
			}
			if fn.Spec == "dotSpec" {
				wantBackend = backend.Reference
				if !slices.Equal(notes, tc.warns) {
					t.Errorf("backend %q: dotSpec's notes %q, want %q", tc.backend, notes, tc.warns)
				}
			} else if tc.backend == "" && len(notes) > 0 {
				t.Errorf("%s: fallback notes %q", fn.Spec, notes)
			}
			for _, k := range fn.Kernels {
				if k.Backend != wantBackend && !(tc.backend == backend.OpenCL && fn.Spec != "dotSpec" && k.Backend == backend.OpenCL) {
					t.Errorf("backend %q: %s's kernel has backend %q, want %q", tc.backend, fn.Spec, k.Backend, wantBackend)
				}
			}
		}

		// The refused kernel runs as calls of the runtime; no loop.
		src := string(out.Content)
		i := strings.Index(src, "func Dot(")
		j := strings.Index(src[i:], "\n}\n")
		if body := src[i : i+j]; !strings.Contains(body, "soac.Map2[") || !strings.Contains(body, "soac.Reduce[") || strings.Contains(body, "for ") {
			t.Errorf("backend %q: Dot is not the runtime calls:\n%s", tc.backend, body)
		}
	}
}

// casePkgs returns the loaded package of testdata case name, alone.
func casePkgs(t *testing.T, name string) []*packages.Package {
	t.Helper()
	generateDir(t, "testdata") // loads the cases
	for _, p := range loadPkgs {
		if strings.HasSuffix(p.PkgPath, "/"+name) {
			return []*packages.Package{p}
		}
	}
	t.Fatalf("testdata/%s not loaded", name)
	return nil
}

// TestLoweredFallback checks a kernel the lowering makes a sequence
// (testdata/fallbacks: a reduction beside a stream): the cpu backend
// refuses it with the lowering's reason, the warning names the kernel's
// position and the reason, and the kernel's backend is the reference
// calls; no other kernel of the testdata falls back but gathers' Fma.
func TestLoweredFallback(t *testing.T) {
	generateDir(t, "testdata")
	var warns []string
	refs := 0
	for _, c := range cases(t) {
		if c == "opencl" || c == "parallel" || c == "clstreams" || c == "clstreammap" || c == "clresident" || c == "neutrals" || c == "carried" || c == "quality" {
			continue // their fallbacks: TestOpenCLRefusals, TestParallelBackend, TestOpenCLStreamRefusals, TestOpenCLStreamMap, TestOpenCLKeptCaptures, TestNeutrals; carried and quality check results on every backend, not where they fall back
		}
		for _, o := range generateDir(t, filepath.Join("testdata", c)) {
			warns = append(warns, o.Warnings...)
			for _, g := range o.Generated {
				if g.Backend == backend.Reference {
					refs++
				}
			}
		}
	}
	want := regexp.MustCompile(`^/\S+/testdata/fallbacks/fallbacks\.go:12:9: streamBesideSpec: backend cpu does not generate this kernel: its members do not run as one loop: Reduce at fallbacks\.go:11:9 runs beside the stream StreamRed at fallbacks\.go:12:9; a chunk loop fuses only maps that feed its stream; it falls back to reference$`)
	// testdata/gathers' Fma: its literal may fuse x*y+z, so it is called
	// through a function value and the loop cannot give it the element
	// it reads at the index; the reference calls still compute ys.
	fma := regexp.MustCompile(`^/\S+/testdata/gathers/gathers\.go:83:9: fmaSpec: backend cpu does not generate this kernel: the function at \S+/gathers\.go:83:32 reads ys at the iteration index but is called through a function value, whose body the loop cannot give the element; it falls back to reference$`)
	// Its ScanRead specs, index reads of a scan's elements, run on the
	// parallel backend from carries (parallel.Carried), with no warning.
	if len(warns) != 2 || !want.MatchString(warns[0]) || !fma.MatchString(warns[1]) {
		t.Errorf("warnings %q, want one matching %s and one matching %s", warns, want, fma)
	}
	if refs != 2 {
		t.Errorf("%d kernels generated as reference calls, want 2", refs)
	}
}
