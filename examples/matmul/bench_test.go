package matmul

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkMatMul multiplies square matrices of side 10 (n=1e3 multiply-adds)
// and 100 (n=1e6). SetBytes counts 8 bytes per multiply-add
// (one float64 element of work), as the other examples count 8 per element.
func BenchmarkMatMul(b *testing.B) {
	for _, size := range []struct {
		name string
		side int
	}{{"n=1e3", 10}, {"n=1e6", 100}} {
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
