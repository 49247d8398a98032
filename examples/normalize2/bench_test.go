package normalize2

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func BenchmarkNormalize2(b *testing.B) {
	for _, size := range extest.BenchSizes {
		xs := extest.Floats(extest.Rand(1, size.N), size.N, -1, 2)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(8 * len(xs)))
					for b.Loop() {
						im.fn(xs)
					}
				})
			}
		})
	}
}
