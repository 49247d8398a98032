package matmul

import (
	"os"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkMatMulPar compares the parallel backend (the outer Map over
// rows in parallel, the nested kernels sequential inside each row) with
// the cpu backend and a goroutine loop over row ranges (matMulHand's
// loops, one chunk of rows per core). Sides 10, 100 and 300 (1e3, 1e6
// and 2.7e7 multiply-adds), and 512 (1.3e8) when SOACGEN_PAR_1E7 is set.
func BenchmarkMatMulPar(b *testing.B) {
	impls := []struct {
		name string
		fn   func(a, bt [][]float64) [][]float64
	}{
		{"cpu", MatMul},
		{"parallel", MatMulPar},
		{"goroutines", func(a, bt [][]float64) [][]float64 {
			c := make([][]float64, len(a))
			extest.GoFor(len(a), func(lo, hi int) {
				copy(c[lo:hi], matMulHand(a[lo:hi], bt))
			})
			return c
		}},
	}
	sizes := []struct {
		name string
		side int
	}{{"n=1e3", 10}, {"n=1e6", 100}, {"n=2.7e7", 300}}
	if os.Getenv("SOACGEN_PAR_1E7") != "" {
		// 512² (1.3e8 multiply-adds, 2 MiB a matrix): the size the
		// compute-bound goal was first measured at.
		sizes = append(sizes, struct {
			name string
			side int
		}{"n=1.3e8", 512})
	}
	for _, size := range sizes {
		r := extest.Rand(12, size.side)
		a, bt := randMatrix(r, size.side, size.side), randMatrix(r, size.side, size.side)
		b.Run(size.name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(8 * size.side * size.side * size.side))
					for b.Loop() {
						im.fn(a, bt)
					}
				})
			}
		})
	}
}
