package shapes

import (
	"testing"
	"time"

	"github.com/soacgen/soacgen/analyzer/internal/randpipe"
)

// shapeStats counts what a run exercised and found.
type shapeStats struct {
	specs     int
	shapes    map[string]int // specs per shape
	hazards   map[string]int
	fallbacks map[string]int // warnings per expected fallback
	shapeFall map[string]int // specs per shape with a fallback warning
	failed    []string       // "seed S specN [shapes]: message"
	failShape map[string]int // failing specs per shape
	goTest    time.Duration
	known     []string          // failures a pending regression file reproduces (default run)
	pending   map[string]string // randpipe.PendingFiles
	campaign  bool
	divides   int            // specs that may divide by zero
	streams   map[string]int // kernels of maps fused into a stream run in parallel, per package
}

// newStats returns the empty counts of a run, pending and campaign as
// shapeStats says.
func newStats(pending map[string]string, campaign bool) *shapeStats {
	return &shapeStats{pending: pending, campaign: campaign, shapes: map[string]int{}, hazards: map[string]int{}, fallbacks: map[string]int{}, shapeFall: map[string]int{}, failShape: map[string]int{}, streams: map[string]int{}}
}

// count counts the specs of pkgs, their shapes, hazards and divisions.
func (st *shapeStats) count(pkgs []randpipe.Package) {
	for _, p := range pkgs {
		for _, s := range p.Specs {
			st.specs++
			for _, k := range s.Shapes {
				st.shapes[k.String()]++
			}
			if s.Hazard != nil {
				st.hazards[s.Hazard.Kind.String()]++
			}
			if s.Divides {
				st.divides++
			}
		}
	}
}

// fail records failure line of backend b.
func (st *shapeStats) fail(b, line string) {
	if f := knownFailure(b, line, st.pending); f != "" {
		line = "known (" + f + "): " + line
		if !st.campaign {
			st.known = append(st.known, line)
			return
		}
	}
	st.failed = append(st.failed, line)
	logFailure(b, line)
}

// report logs what the run of backend b over what (its seeds, or the
// regression files) exercised, in total time.
func (st *shapeStats) report(t *testing.T, b, what string, total time.Duration) {
	per100 := time.Duration(0)
	if st.specs > 0 {
		per100 = total * 100 / time.Duration(st.specs)
	}
	t.Logf("%s: %d programs, %s, in %v (%v per 100 programs; go test %v)", b, st.specs, what,
		total.Round(time.Millisecond), per100.Round(time.Millisecond), st.goTest.Round(time.Millisecond))
	t.Logf("%s: programs per shape: %s", b, randpipe.FormatCounts(st.shapes))
	t.Logf("%s: hazards: %s", b, randpipe.FormatCounts(st.hazards))
	t.Logf("%s: programs that may divide by zero: %d", b, st.divides)
	t.Logf("%s: expected fallbacks: %s", b, randpipe.FormatCounts(st.fallbacks))
	t.Logf("%s: programs per shape with a fallback: %s", b, randpipe.FormatCounts(st.shapeFall))
	t.Logf("%s: failing programs per shape: %s", b, randpipe.FormatCounts(st.failShape))
	for _, k := range st.known {
		t.Logf("%s: %s", b, k)
	}
}
