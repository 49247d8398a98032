package pipelines

import (
	"os"
	"testing"
	"time"

	"github.com/soacgen/soacgen/analyzer/internal/randpipe"
	"github.com/soacgen/soacgen/rewrite"
)

// soacgen generates with the real code generator (package rewrite, what
// cmd/soacgen runs).
func soacgen(t *testing.T, dir string, pkgs []randpipe.Package) error {
	lpkgs := randpipe.LoadModule(t, dir)
	outs, err := rewrite.GeneratePackages(lpkgs)
	if err != nil {
		return err
	}
	for _, o := range outs {
		for _, gf := range o.Files() {
			if err := os.WriteFile(gf.Path, gf.Content, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestRandomPipelinesDifferential generates random specs of moreConfig
// (300, or 60 with -short) plus the committed regression specs, runs the
// code generator on them with the cpu backend, the only one that must
// equal the spec on operators that are not associative, and compares
// every NAME with its spec on random inputs.
func TestRandomPipelinesDifferential(t *testing.T) {
	pkgs := append(randpipe.Batch(5000, randpipe.MoreConfig), randpipe.RegressPackages(t)...)
	specs, divides := 0, 0
	kinds := map[string]int{}
	for _, p := range pkgs {
		specs += len(p.Specs)
		for _, s := range p.Specs {
			if s.Hazard != nil {
				kinds[s.Hazard.Kind.String()]++
			}
			if s.Divides {
				divides++
			}
		}
	}
	start := time.Now()
	res := randpipe.RunDiff(t, pkgs, soacgen, randpipe.HarnessConfig{})
	t.Logf("differential: %d specs in %d packages (%d may divide by zero); hazards %s; go test %v, total %v; %d failures",
		specs, len(pkgs), divides, randpipe.FormatCounts(kinds), res.Duration.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), len(res.Failed))
	if len(res.Failed) > 0 {
		t.Errorf("mismatches: %v\n%s", res.Failed, randpipe.FailureExcerpt(res.Output))
	}
}
