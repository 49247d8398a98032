package rewrite

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/rewrite/internal/diffrun"
)

// funcBody returns the text of func name in src, or fails.
func funcBody(t *testing.T, src, name string) string {
	t.Helper()
	i := strings.Index(src, "\nfunc "+name+"(")
	if i < 0 {
		t.Fatalf("no func %s", name)
	}
	return src[i : i+strings.Index(src[i:], "\n}\n")]
}

// generatedFile returns the generated file named base of case
// directory testdata/dir.
func generatedFile(t *testing.T, dir, base string) string {
	t.Helper()
	for _, o := range generateDir(t, filepath.Join("testdata", dir)) {
		if filepath.Base(o.Path) == base {
			return string(o.Content)
		}
	}
	t.Fatalf("no generated %s in testdata/%s", base, dir)
	return ""
}

// TestParAccum generates testdata/paraccum and checks the shape of each
// reduction's chunk function: the commutative folds of cheap kernels
// split over four accumulators (one loop stepping by 4, three more
// accumulators combined in the chunk), the fold whose operator lower does
// not recognise kept to one, and the sequential path the cpu backend's
// loop. testdata/paraccum/paraccum_test.go, run by the differential test,
// checks the results against the specs.
func TestParAccum(t *testing.T) {
	outs := generateDir(t, filepath.Join("testdata", "paraccum"))
	if len(outs) != 1 {
		t.Fatalf("%d outputs", len(outs))
	}
	src := string(outs[0].Content)
	step := regexp.MustCompile(`for ; i\d+ < \w+-3; i\d+ \+= 4 \{`)
	for fn, accs := range map[string]int{"SumSq": 4, "Dot": 4, "Prod": 4, "SumFrom": 4, "Sum32": 4, "IntFrom": 4, "MapAndSum": 4, "SumAndOther": 5, "Gather": 4, "SumSqPos": 4, "EvenGather": 4} {
		body := funcBody(t, src, fn)
		seq, par, ok := strings.Cut(body, "parallel.Reduce(")
		if !ok || !strings.Contains(seq, "parallel.Sequential(") {
			t.Errorf("%s: no parallel.Reduce with a sequential path", fn)
			continue
		}
		if step.MatchString(seq) {
			t.Errorf("%s: the sequential path is unrolled", fn)
		}
		if !step.MatchString(par) {
			t.Errorf("%s: the chunk function does not step by 4", fn)
		}
		chunk := par[:strings.Index(par, "}, func(")]
		if got := strings.Count(chunk, "var acc"); got != accs {
			t.Errorf("%s: the chunk declares %d accumulators, want %d", fn, got, accs)
		}
	}
	// SumFrom's other accumulators start from -0, its first from the
	// start in chunk 0 only.
	if body := funcBody(t, src, "SumFrom"); strings.Count(body, "math.Copysign(0, -1)") != 4 || !strings.Contains(body, "if lo == 0 {") {
		t.Errorf("SumFrom's chunk accumulators do not start from -0 and the start")
	}
	if len(outs[0].Warnings) != 0 {
		t.Errorf("warnings %q, want none", outs[0].Warnings)
	}
}

// TestParAccumMutant drops one accumulator from SumSq's chunk combine
// (acc0 op acc1 becomes acc0) in the generated code of testdata/paraccum
// and checks that the case's own tests then fail: they would catch a
// generator that lost an accumulator.
func TestParAccumMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	dir := filepath.Join("testdata", "paraccum")
	outs := generateDir(t, dir)
	src := string(outs[0].Content)
	body := funcBody(t, src, "SumSq")
	comb := regexp.MustCompile(`\{\s*a, b := (acc\d+), (acc\d+)\s*(acc\d+) = float64\(a \+ b\)\s*\}`)
	loc := comb.FindStringIndex(body)
	if loc == nil {
		t.Fatal("SumSq's chunk has no combine of two accumulators")
	}
	mutant := strings.Replace(src, body, body[:loc[0]]+body[loc[1]:], 1)
	tmp := diffrun.CaseModule(t, dir, "paraccum")
	diffrun.Write(t, filepath.Join(tmp, filepath.Base(outs[0].Path)), []byte(mutant))
	for _, gf := range outs[0].Companions {
		diffrun.Write(t, filepath.Join(tmp, filepath.Base(gf.Path)), gf.Content)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", `TestAccumulators/^SumSq(#\d+)?$`, ".")
	cmd.Dir = tmp
	cmd.Env = diffrun.OfflineEnv()
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the mutant without one accumulator passes the tests:\n%s", out)
	}
	if !strings.Contains(string(out), "SumSq n=") {
		t.Errorf("the mutant fails, but not on SumSq:\n%s", out)
	}
}
