package rewrite

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/rewrite/internal/diffrun"
)

// TestParNested generates testdata/parnested and checks the shape of
// each nested reduction: the cheap commutative folds run the plain loop
// below 8 elements and, from 8 on, a loop stepping by 4 over four
// accumulators, in both the outer kernel's sequential path and its
// chunks; the fold whose operator lower does not recognise and the
// expensive element keep the plain loop only.
// testdata/parnested/parnested_test.go, run by the differential test, checks
// the results bit for bit against the documented association.
func TestParNested(t *testing.T) {
	outs := generateDir(t, filepath.Join("testdata", "parnested"))
	if len(outs) != 1 {
		t.Fatalf("%d outputs", len(outs))
	}
	src := string(outs[0].Content)
	step := regexp.MustCompile(`for ; i\d+ < \w+-3; i\d+ \+= 4 \{`)
	for fn, split := range map[string]bool{"RowSums": true, "RowSq32": true, "RowInts": true, "RowProds": true, "RowFrom": true, "MatMul": true, "RowPos": true, "RowGather": true, "RowCount": true, "Total": true, "RowNamed": false, "RowExp": false} {
		body := funcBody(t, src, fn)
		if got := strings.Count(body, " < 8 {"); split && got != 2 || !split && got != 0 {
			t.Errorf("%s: %d nested loops chosen by length, want %d", fn, got, map[bool]int{true: 2}[split])
		}
		if got := len(step.FindAllString(body, -1)); split && got != 2 || !split && got != 0 {
			t.Errorf("%s: %d loops step by 4, want %d", fn, got, map[bool]int{true: 2}[split])
		}
	}
	// RowFrom's other accumulators start from -0, its first from the
	// start; RowInts' from 0.
	if body := funcBody(t, src, "RowFrom"); strings.Count(body, "= float64(math.Copysign(0, -1))") != 6 {
		t.Errorf("RowFrom's other accumulators do not start from -0")
	}
	if body := funcBody(t, src, "RowInts"); !regexp.MustCompile(`var acc\d+ int = int\(10\)\s+var acc\d+ int = 0\s`).MatchString(body) {
		t.Errorf("RowInts' accumulators do not start from the start and 0")
	}
	if len(outs[0].Warnings) != 0 {
		t.Errorf("warnings %q, want none", outs[0].Warnings)
	}
}

// TestParNestedMutant mutates RowSums' nested combine in the generated
// code of testdata/parnested (one accumulator dropped; the pairs
// combined as (a0 + a2) + (a1 + a3)) and checks that the case's own tests
// then fail: they would catch a generator that lost an accumulator or
// combined them in another order.
func TestParNestedMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	dir := filepath.Join("testdata", "parnested")
	outs := generateDir(t, dir)
	src := string(outs[0].Content)
	body := funcBody(t, src, "RowSums")
	// The three combines: {a, b := A0, A1; A0 = ...}, {A2, A3 → A2},
	// {A0, A2 → A0}.
	comb := regexp.MustCompile(`\{\s*a, b := (acc\d+), (acc\d+)\s*(acc\d+) = float64\(a \+ b\)\s*\}\s*\{\s*a, b := (acc\d+), (acc\d+)\s*(acc\d+) = float64\(a \+ b\)\s*\}\s*\{\s*a, b := (acc\d+), (acc\d+)\s*(acc\d+) = float64\(a \+ b\)\s*\}`)
	if n := len(comb.FindAllString(body, -1)); n != 2 {
		t.Fatalf("RowSums has %d nested combines, want 2", n)
	}
	pair := func(x, y string) string { return fmt.Sprintf("{\na, b := %s, %s\n%s = float64(a + b)\n}\n", x, y, x) }
	mutants := map[string]func(m []string) string{
		"dropped": func(m []string) string { return pair(m[4], m[5]) + pair(m[1], m[4]) },
		"swapped": func(m []string) string { return pair(m[1], m[4]) + pair(m[2], m[5]) + pair(m[1], m[2]) },
	}
	for name, mutate := range mutants {
		t.Run(name, func(t *testing.T) {
			mb := comb.ReplaceAllStringFunc(body, func(s string) string { return mutate(comb.FindStringSubmatch(s)) })
			mutant := strings.Replace(src, body, mb, 1)
			tmp := diffrun.CaseModule(t, dir, "parnested")
			diffrun.Write(t, filepath.Join(tmp, filepath.Base(outs[0].Path)), []byte(mutant))
			for _, gf := range outs[0].Companions {
				diffrun.Write(t, filepath.Join(tmp, filepath.Base(gf.Path)), gf.Content)
			}
			cmd := exec.Command("go", "test", "-count=1", "-run", `TestNestedAccumulators/^RowSums(#\d+)?$`, ".")
			cmd.Dir = tmp
			cmd.Env = diffrun.OfflineEnv()
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the %s mutant passes the tests:\n%s", name, out)
			}
			if !strings.Contains(string(out), "RowSums rows=") {
				t.Errorf("the %s mutant fails, but not on RowSums:\n%s", name, out)
			}
		})
	}
}
