package sumsqpos

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestSumSqPosKnown(t *testing.T) {
	if got := sumSqPosSpec([]float64{1, -2, 3, 0}); got != 10 {
		t.Errorf("sumSqPosSpec = %v, want 10", got)
	}
}

func TestSumSqPos(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(10, n), n, -1, 1)
		want := sumSqPosSpec(xs)
		for _, im := range impls[1:] {
			if got := im.fn(xs); !extest.SameFloat(got, want) {
				t.Errorf("n=%d %s = %v, want %v", n, im.name, got, want)
			}
		}
	}
}
