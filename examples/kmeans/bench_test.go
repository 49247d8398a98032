package kmeans

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func BenchmarkClusterSizes(b *testing.B) {
	for _, size := range extest.BenchSizes {
		ps := randPoints(3, size.N)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(16 * len(ps)))
					for b.Loop() {
						im.fn(ps, centres)
					}
				})
			}
		})
	}
}
