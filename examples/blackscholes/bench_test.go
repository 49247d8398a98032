package blackscholes

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func BenchmarkCallPrices(b *testing.B) {
	for _, size := range extest.BenchSizes {
		opts := randOptions(size.N)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range pricesImpls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(40 * len(opts)))
					for b.Loop() {
						im.fn(opts)
					}
				})
			}
		})
	}
}

func BenchmarkPortfolioValue(b *testing.B) {
	for _, size := range extest.BenchSizes {
		opts := randOptions(size.N)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range valueImpls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(40 * len(opts)))
					for b.Loop() {
						im.fn(opts)
					}
				})
			}
		})
	}
}
