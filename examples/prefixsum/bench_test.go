package prefixsum

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func BenchmarkPrefixSums(b *testing.B) {
	for _, size := range extest.BenchSizes {
		xs := extest.Ints(extest.Rand(13, size.N), size.N, -1000, 1000)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range intImpls {
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

func BenchmarkPrefixSqrts(b *testing.B) {
	for _, size := range extest.BenchSizes {
		xs := extest.Floats(extest.Rand(14, size.N), size.N, 0, 10)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range floatImpls {
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
