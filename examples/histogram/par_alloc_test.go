package histogram

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// TestHistogramParSmallAllocs: below its grain the parallel backend's
// HistogramPar (a map fused into a StreamRed's chunks) allocates what
// the cpu backend's Histogram does: its sequential path is the cpu
// backend's chunk loop, and the closures of the runtime call are made in
// the parallel branch only.
func TestHistogramParSmallAllocs(t *testing.T) {
	for _, n := range []int{1, 1000} {
		xs := extest.Floats(extest.Rand(11, n), n, -1.1, 1.1)
		extest.SameAllocs(t, func() { Histogram(xs, -1, 1, nbins) }, func() { HistogramPar(xs, -1, 1, nbins) })
	}
}
