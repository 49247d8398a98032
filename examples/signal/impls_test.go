package signal

import (
	"math"
	"slices"

	"github.com/samber/lo"

	"github.com/soacgen/soacgen/examples/internal/seq"
)

// impl is one implementation of a spec, under the name the tests and the
// benchmarks give it.
type impl[F any] struct {
	name string
	fn   F
}

// The tables of implementations that the tests compare with the specs and
// the benchmarks measure, one per spec; the generated functions are the
// "fused" entries. The lambdas of lo and iter are the named functions
// below, whose products are rounded (float64) where the spec's are.
var (
	calibrateImpls = []impl[func([]float64) []float64]{
		{"spec", calibrateSpec},
		{"fused", Calibrate},
		{"hand", calibrateHand},
		{"lo", func(xs []float64) []float64 {
			return lo.Map(xs, func(x float64, _ int) float64 { return calibrate(x) })
		}},
		{"iter", func(xs []float64) []float64 { return collect(len(xs), seq.Map(seq.Values(xs), calibrate)) }},
	}
	magnitudeImpls = []impl[func(re, im []float64) []float64]{
		{"spec", magnitudeSpec},
		{"fused", Magnitude},
		{"hand", magnitudeHand},
		{"lo", func(re, im []float64) []float64 { return lo.ZipBy2(re, im, magnitude) }},
		{"iter", func(re, im []float64) []float64 { return collect(len(re), seq.Map2(re, im, magnitude)) }},
	}
	cosPhaseImpls = []impl[func(re, im []float64) []float64]{
		{"spec", cosPhaseSpec},
		{"fused", CosPhase},
		{"hand", cosPhaseHand},
		{"lo", func(re, im []float64) []float64 { return lo.ZipBy2(re, im, cosPhase) }},
		{"iter", func(re, im []float64) []float64 { return collect(len(re), seq.Map2(re, im, cosPhase)) }},
	}
	toUnitImpls = []impl[func([]int32) []float32]{
		{"spec", toUnitSpec},
		{"fused", ToUnit},
		{"hand", toUnitHand},
		{"lo", func(xs []int32) []float32 { return lo.Map(xs, func(x int32, _ int) float32 { return toUnit(x) }) }},
		{"iter", func(xs []int32) []float32 { return collect(len(xs), seq.Map(seq.Values(xs), toUnit)) }},
	}
	energyImpls = []impl[func([]int32) int32]{
		{"spec", energySpec},
		{"fused", Energy},
		{"hand", energyHand},
		{"lo", func(xs []int32) int32 { return lo.SumBy(xs, square) }},
		{"iter", func(xs []int32) int32 {
			return seq.Reduce(seq.Map(seq.Values(xs), square), 0, func(a, b int32) int32 { return a + b })
		}},
	}
	clippedImpls = []impl[func([]int32, int32) int]{
		{"spec", clippedSpec},
		{"fused", Clipped},
		{"hand", clippedHand},
		{"lo", func(xs []int32, lim int32) int { return lo.CountBy(xs, outside(lim)) }},
		{"iter", func(xs []int32, lim int32) int {
			return seq.Reduce(seq.Filter(seq.Values(xs), outside(lim)), 0, func(n int, _ int32) int { return n + 1 })
		}},
	}
	spikesImpls = []impl[func([]int32, int32) []int32]{
		{"spec", spikesSpec},
		{"fused", Spikes},
		{"hand", spikesHand},
		{"lo", func(xs []int32, lim int32) []int32 {
			return lo.Filter(xs, func(x int32, _ int) bool { return outside(lim)(x) })
		}},
		{"iter", func(xs []int32, lim int32) []int32 {
			return slices.Collect(seq.Filter(seq.Values(xs), outside(lim)))
		}},
	}
	integrateImpls = []impl[func([]int32, int32) []int32]{
		{"spec", integrateSpec},
		{"fused", Integrate},
		{"hand", integrateHand},
		{"lo", func(xs []int32, offset int32) []int32 {
			var sum int32
			return lo.Map(xs, func(x int32, _ int) int32 { sum += x - offset; return sum })
		}},
		{"iter", func(xs []int32, offset int32) []int32 {
			var sum int32
			return collect(len(xs), seq.Map(seq.Values(xs), func(x int32) int32 { sum += x - offset; return sum }))
		}},
	}
	envelopeImpls = []impl[func([]int32) []int32]{
		{"spec", envelopeSpec},
		{"fused", Envelope},
		{"hand", envelopeHand},
		{"lo", func(xs []int32) []int32 {
			var peak int32
			return lo.Map(xs, func(x int32, _ int) int32 { peak = max(peak, max(x, -x)); return peak })
		}},
		{"iter", func(xs []int32) []int32 {
			var peak int32
			return collect(len(xs), seq.Map(seq.Values(xs), func(x int32) int32 { peak = max(peak, max(x, -x)); return peak }))
		}},
	}
	peakImpls = []impl[func([]int32) int32]{
		{"spec", peakSpec},
		{"fused", Peak},
		{"hand", peakHand},
		{"lo", peakLo},
		{"iter", func(xs []int32) int32 {
			return seq.Reduce(seq.Values(xs), int32(math.MinInt32), func(a, b int32) int32 { return max(a, b) })
		}},
	}
)

func calibrate(x float64) float64    { return (x*1.5+2)*(x-0.25) - x*0.125 }
func magnitude(x, y float64) float64 { return math.Sqrt(float64(x*x) + float64(y*y)) }
func cosPhase(x, y float64) float64  { return x / math.Sqrt(float64(x*x)+float64(y*y)) }
func toUnit(x int32) float32         { return float32(x) * fullScale }
func square(x int32) int32           { return x * x }

// outside returns the predicate of a clipped sample.
func outside(lim int32) func(int32) bool {
	return func(x int32) bool { return x > lim || x < -lim }
}

// peakLo uses lo.Max, which returns 0, not MinInt32, for an empty slice.
func peakLo(xs []int32) int32 {
	if len(xs) == 0 {
		return math.MinInt32
	}
	return lo.Max(xs)
}

// collect gathers an iterator's n values into a new slice.
func collect[T any](n int, s func(func(T) bool)) []T {
	return slices.AppendSeq(make([]T, 0, n), s)
}
