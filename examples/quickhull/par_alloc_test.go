package quickhull

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// TestFilterMaxParSmallAllocs: at n = 1 the parallel backend's
// FilterMaxPar allocates what the cpu backend's FilterMax does (its
// lambda, called through soac.Opaque, was captured by the chunk function
// and moved to the heap on every call).
func TestFilterMaxParSmallAllocs(t *testing.T) {
	ps := randPoints(1)
	a, b := Point{-1, -0.2}, Point{1, 0.3}
	extest.SameAllocs(t, func() { FilterMax(ps, a, b) }, func() { FilterMaxPar(ps, a, b) })
}
