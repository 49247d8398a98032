package mss

import (
	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// impls are the implementations that the test compares with the spec and the
// benchmark measures. The generated function is the "fused" entry.
var impls = []struct {
	name string
	fn   func([]int) int
}{
	{"spec", mssSpec},
	{"fused", MSS},
	{"hand", mssHand},
	{"lo", mssLo},
	{"iter", mssIter},
}

func lift(x int) segs {
	m := max(x, 0)
	return segs{m, m, m, x}
}

// mssLo is the spec's map and fold of tuples with lo.Map and lo.Reduce.
func mssLo(xs []int) int {
	return lo.Reduce(lo.Map(xs, func(x int, _ int) segs { return lift(x) }),
		func(acc segs, s segs, _ int) segs { return combine(acc, s) }, segs{}).Best
}

// mssIter is the spec's map and fold of tuples as one chain.
func mssIter(xs []int) int {
	return seq.Reduce(seq.Map(seq.Values(xs), lift), segs{}, combine).Best
}
