package sumsqpos

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func BenchmarkSumSqPos(b *testing.B) {
	for _, size := range extest.BenchSizes {
		xs := extest.Floats(extest.Rand(10, size.N), size.N, -1, 1)
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
