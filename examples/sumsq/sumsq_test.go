package sumsq

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestSumSqKnown(t *testing.T) {
	if got := sumSqSpec([]float64{1, -2, 3}); got != 14 {
		t.Errorf("sumSqSpec = %v, want 14", got)
	}
}

func TestSumSq(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(9, n), n, -1, 1)
		want := sumSqSpec(xs)
		for _, im := range impls[1:] {
			if got := im.fn(xs); !extest.SameFloat(got, want) {
				t.Errorf("n=%d %s = %v, want %v", n, im.name, got, want)
			}
		}
	}
}
