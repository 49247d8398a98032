package signal

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// The hand versions: one loop each, outputs preallocated, no closures. The
// maps write through an ...Into function that fills a given output, so
// that the kernel-only benchmarks can run the same loop into a reused
// buffer.

// calibrateHand is calibrateSpec as one loop.
func calibrateHand(xs []float64) []float64 {
	out := make([]float64, len(xs))
	calibrateInto(out, xs)
	return out
}

// calibrateInto writes the calibrated xs[i] into out[i]; out is at least
// as long as xs.
func calibrateInto(out, xs []float64) {
	out = out[:len(xs)]
	for i, x := range xs {
		out[i] = (x*1.5+2)*(x-0.25) - x*0.125
	}
}

// magnitudeHand is magnitudeSpec as one loop. It panics exactly as
// soac.Map2 does. float64(x*x) rounds each square before the addition, as
// the spec does, so that Go cannot fuse them into an FMA.
func magnitudeHand(re, im []float64) []float64 {
	if len(re) != len(im) {
		panic(soac.LengthError("Map2", len(re), len(im)))
	}
	out := make([]float64, len(re))
	magnitudeInto(out, re, im)
	return out
}

// magnitudeInto writes |re[i] + im[i]·i| into out[i]; im and out are at
// least as long as re.
func magnitudeInto(out, re, im []float64) {
	out, im = out[:len(re)], im[:len(re)]
	for i, x := range re {
		y := im[i]
		out[i] = math.Sqrt(float64(x*x) + float64(y*y))
	}
}

// cosPhaseHand is cosPhaseSpec as one loop. It panics exactly as
// soac.Map2 does.
func cosPhaseHand(re, im []float64) []float64 {
	if len(re) != len(im) {
		panic(soac.LengthError("Map2", len(re), len(im)))
	}
	out := make([]float64, len(re))
	cosPhaseInto(out, re, im)
	return out
}

// cosPhaseInto writes re[i] / |re[i] + im[i]·i| into out[i]; im and out
// are at least as long as re.
func cosPhaseInto(out, re, im []float64) {
	out, im = out[:len(re)], im[:len(re)]
	for i, x := range re {
		y := im[i]
		out[i] = x / math.Sqrt(float64(x*x)+float64(y*y))
	}
}

// toUnitHand is toUnitSpec as one loop.
func toUnitHand(xs []int32) []float32 {
	out := make([]float32, len(xs))
	toUnitInto(out, xs)
	return out
}

// toUnitInto writes xs[i] scaled to unit range into out[i]; out is at
// least as long as xs.
func toUnitInto(out []float32, xs []int32) {
	out = out[:len(xs)]
	for i, x := range xs {
		out[i] = float32(x) * fullScale
	}
}

// energyHand is energySpec as one loop with one accumulator.
func energyHand(xs []int32) int32 {
	var sum int32
	for _, x := range xs {
		sum += x * x
	}
	return sum
}

// clippedHand is clippedSpec as one loop with one counter.
func clippedHand(xs []int32, lim int32) int {
	n := 0
	for _, x := range xs {
		if x > lim || x < -lim {
			n++
		}
	}
	return n
}

// peakHand is peakSpec as one loop.
func peakHand(xs []int32) int32 {
	var peak int32 = math.MinInt32
	for _, x := range xs {
		peak = max(peak, x)
	}
	return peak
}

// spikesHand is spikesSpec as one loop appending to an output of the
// input's capacity.
func spikesHand(xs []int32, lim int32) []int32 {
	out := make([]int32, 0, len(xs))
	for _, x := range xs {
		if x > lim || x < -lim {
			out = append(out, x)
		}
	}
	return out
}

// integrateHand is integrateSpec as one loop.
func integrateHand(xs []int32, offset int32) []int32 {
	out := make([]int32, len(xs))
	integrateInto(out, xs, offset, 0)
	return out
}

// integrateInto writes the running sums of xs less offset, from sum, into
// out and returns the last.
func integrateInto(out, xs []int32, offset, sum int32) int32 {
	out = out[:len(xs)]
	for i, x := range xs {
		sum += x - offset
		out[i] = sum
	}
	return sum
}

// envelopeHand is envelopeSpec as one loop.
func envelopeHand(xs []int32) []int32 {
	out := make([]int32, len(xs))
	envelopeInto(out, xs, 0)
	return out
}

// envelopeInto writes the running peak magnitudes of xs, from peak, into
// out and returns the last.
func envelopeInto(out, xs []int32, peak int32) int32 {
	out = out[:len(xs)]
	for i, x := range xs {
		peak = max(peak, max(x, -x))
		out[i] = peak
	}
	return peak
}
