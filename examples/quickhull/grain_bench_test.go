package quickhull

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkGrainPaired times FilterMax (cpu), FilterMaxPar and the hand
// goroutine filter in turns (extest.ParPaired) at sizes around
// FilterMaxPar's split: 2 grains, 18184 points when parcost charged inlined calls (grain
// 9092: parcost charged the call of cross, which the compiler inlines)
// and 33336 since (16668). At 2.5e4 FilterMaxPar split before and runs
// the cpu loop now; at 5e4 and 1e5 it splits into about half as many
// chunks.
func BenchmarkGrainPaired(b *testing.B) {
	a, c := Point{-1, -0.2}, Point{1, 0.3}
	for _, size := range []extest.BenchSize{{Name: "n=2.5e4", N: 25_000}, {Name: "n=5e4", N: 50_000}, {Name: "n=1e5", N: 100_000}} {
		ps := randPoints(size.N)
		b.Run("FilterMax/"+size.Name, func(b *testing.B) {
			extest.ParPaired(b, func() { FilterMax(ps, a, c) }, func() { FilterMaxPar(ps, a, c) }, func() { goFilterMax(ps, a, c) })
		})
	}
}
