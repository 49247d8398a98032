package wordlen

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkWordStats runs on texts of 1e3 and 1e6 words; SetBytes is the
// text's length in bytes. strings.Fields, the same in every version, takes a
// large share of the time.
func BenchmarkWordStats(b *testing.B) {
	for _, size := range extest.BenchSizes {
		text := randText(size.N)
		b.Run(size.Name, func(b *testing.B) {
			for _, im := range impls {
				b.Run(im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(text)))
					for b.Loop() {
						im.fn(text, 5)
					}
				})
			}
		})
	}
}
