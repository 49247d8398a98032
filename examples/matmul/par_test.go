package matmul

// The parallel backend's functions (par.go) against the specs: the same
// result within rounding (integers identical), the same bits under
// GOMAXPROCS 1, 2 and 8, on sizes that run the sequential path and sizes
// that split into chunks.

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestMatMulPar(t *testing.T) {
	for _, n := range []int{0, 1, 7, 301} {
		r := extest.Rand(4, n)
		a, bt := randMatrix(r, n, 40), randMatrix(r, 33, 40)
		want := matMulSpec(a, bt)
		if d := extest.Same(matMulParSpec(a, bt), want); d != "" {
			t.Fatalf("n=%d: the spec's parallel copy differs from the spec: %s", n, d)
		}
		got := extest.AcrossProcs(t, func() [][]float64 { return MatMulPar(a, bt) })
		if d := extest.Near(got, want); d != "" {
			t.Errorf("n=%d: MatMulPar: %s", n, d)
		}
	}
}
