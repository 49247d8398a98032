package rewrite

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNeutrals checks testdata/neutrals: the arg-max pipeline fuses into
// one map-reduce on every backend; the opencl backend builds known
// neutral elements (math.Inf, -math.MaxFloat64, math.NaN, negated or
// converted) into its kernels, passes those known only at run time as
// kernel arguments, and refuses only a scan's, saying what to change; and
// the exact math functions translate (TestDifferential runs them all
// against their specs, on the device where there is one).
func TestNeutrals(t *testing.T) {
	outs := generateDir(t, filepath.Join("testdata", "neutrals"))
	if len(outs) != 1 {
		t.Fatalf("%d outputs", len(outs))
	}
	checkOpenCLRefusals(t, outs[0].Warnings, map[string]string{
		"scanFromSpec": "Scan at neutrals.go:114:9: its neutral element lo is known only at run time, and the scan and filter skeletons build theirs into the program: write it as a constant expression",
	})
	argMax := map[string]bool{}
	for k, g := range outs[0].Generated {
		var ops []string
		for _, m := range k.SOACs {
			ops = append(ops, m.Name)
		}
		if strings.Join(ops, " ") == "Iota Map2 Reduce" && k.Form == "redomap" {
			argMax[g.Backend] = true
		}
	}
	if !argMax["cpu"] || !argMax["parallel"] || !argMax["opencl"] {
		t.Errorf("the arg-max pipeline is one redomap kernel on %v, want on cpu, parallel and opencl", argMax)
	}
	src := string(outs[0].Content)
	for _, name := range []string{"ArgMaxCL", "MaxInf", "MaxNegMax", "MinPos", "MinInf32", "MaxSkipNaN", "MaxFrom", "MinPosFrom", "MathExact"} {
		if !strings.Contains(src, "var soacgenCL"+name+" = &launch.") {
			t.Errorf("%s: no OpenCL kernel generated", name)
		}
	}
	for _, w := range []string{
		`Neutral: "{(-0L-1), (-INFINITY)}"`,           // ArgMaxCL
		`Neutral: "(-INFINITY)"`,                      // MaxInf
		`Neutral: "(-(-INFINITY))"`,                   // MinPos
		`Neutral: "INFINITY"`,                         // MinInf32
		`Neutral: "as_double(0x7FF8000000000001UL)"`,  // MaxSkipNaN
		`Neutral: "ne__0", NeutralArg: true`,          // MaxFrom, MinPosFrom
		`{Name: "ne__0", Decl: "const double ne__0"}`, // its argument
		"soac__mod(", "soac__remainder(", "soac__dim(", "soac__ldexp(", "logb(", "fma(",
	} {
		if !strings.Contains(src, w) {
			t.Errorf("generated code lacks %s", w)
		}
	}
}
