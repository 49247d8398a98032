package prefixsum

import (
	"math"
	"slices"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// intImpls and floatImpls are the implementations that the tests compare
// with the specs and the benchmarks measure; the generated functions are the
// "fused" entries. There is no "lo"
// entry: samber/lo has no scan (a lo.Map whose lambda updates a captured
// accumulator would be a hand loop in disguise, relying on lo's order).
var intImpls = []struct {
	name string
	fn   func([]int) []int
}{
	{"spec", prefixSumsSpec},
	{"fused", PrefixSums},
	{"hand", prefixSumsHand},
	{"iter", func(xs []int) []int {
		s := seq.Scan(seq.Map(seq.Values(xs), func(x int) int { return 3*x + 1 }), 0, func(a, b int) int { return a + b })
		return slices.AppendSeq(make([]int, 0, len(xs)), s)
	}},
}

var floatImpls = []struct {
	name string
	fn   func([]float64) []float64
}{
	{"spec", prefixSqrtsSpec},
	{"fused", PrefixSqrts},
	{"hand", prefixSqrtsHand},
	{"iter", func(xs []float64) []float64 {
		s := seq.Scan(seq.Map(seq.Values(xs), math.Sqrt), 0.0, func(a, b float64) float64 { return a + b })
		return slices.AppendSeq(make([]float64, 0, len(xs)), s)
	}},
}
