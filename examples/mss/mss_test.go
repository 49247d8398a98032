package mss

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// mssQuadratic is the definition: the best sum over all segments xs[i:j].
func mssQuadratic(xs []int) int {
	best := 0
	for i := range xs {
		s := 0
		for _, x := range xs[i:] {
			s += x
			best = max(best, s)
		}
	}
	return best
}

func TestMSSKnown(t *testing.T) {
	for _, c := range []struct {
		xs   []int
		want int
	}{
		{nil, 0},
		{[]int{-3}, 0},
		{[]int{5}, 5},
		{[]int{1, -2, 3, 5, -1, 2}, 9},
		{[]int{-2, 1, -3, 4, -1, 2, 1, -5, 4}, 6},
		{[]int{3, -10, 2, 2}, 4},
	} {
		if got := mssSpec(c.xs); got != c.want {
			t.Errorf("mssSpec(%v) = %d, want %d", c.xs, got, c.want)
		}
	}
}

func TestMSS(t *testing.T) {
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Ints(extest.Rand(5, n), n, -100, 101)
		want := mssSpec(xs)
		if n <= 1000 {
			if def := mssQuadratic(xs); want != def {
				t.Fatalf("n=%d: spec gives %d, the definition %d", n, want, def)
			}
		}
		for _, im := range impls[1:] {
			if got := im.fn(xs); got != want {
				t.Errorf("n=%d %s = %d, want %d", n, im.name, got, want)
			}
		}
	}
}
