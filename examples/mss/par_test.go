package mss

// The parallel backend's functions (the specs' backend=parallel
// directives) against the specs: the same result within rounding
// (integers identical), the same bits under GOMAXPROCS 1, 2 and 8, on
// sizes that run the sequential path and sizes that split into chunks.

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestMSSPar(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		xs := extest.Ints(extest.Rand(5, n), n, -100, 101)
		want := mssSpec(xs)
		got := extest.AcrossProcs(t, func() int { return MSSPar(xs) })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: MSSPar: %s", n, d)
		}
	}
}
