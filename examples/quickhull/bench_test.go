package quickhull

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func BenchmarkFilterMax(b *testing.B) {
	a, c := Point{-1, -0.2}, Point{1, 0.3}
	for _, size := range extest.BenchSizes {
		ps := randPoints(size.N)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(16 * len(ps)))
					for b.Loop() {
						im.fn(ps, a, c)
					}
				})
			}
		})
	}
}
