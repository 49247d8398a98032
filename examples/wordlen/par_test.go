package wordlen

// The parallel backend's functions (the specs' backend=parallel
// directives) against the specs: the same result within rounding
// (integers identical), the same bits under GOMAXPROCS 1, 2 and 8, on
// sizes that run the sequential path and sizes that split into chunks.

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestWordStatsPar(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000, 150_001} {
		text := randText(n)
		want := func() []any { r0, r1 := wordStatsSpec(text, 5); return []any{r0, r1} }()
		got := extest.AcrossProcs(t, func() []any { r0, r1 := WordStatsPar(text, 5); return []any{r0, r1} })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: WordStatsPar: %s", n, d)
		}
	}
}
