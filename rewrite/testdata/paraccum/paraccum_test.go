package paraccum

// These tests run in the differential test's module (which copies
// every .go file of the case): on real floats, whose sums round
// differently in another order, each reduction the parallel backend
// splits over several accumulators per chunk gives the same bits under
// GOMAXPROCS 1, 2 and 8, equals its spec bit for bit where it runs the
// sequential loop (below two grains) and within rounding above, and
// propagates NaN, infinities and signed zeros as the spec does. A
// dropped or doubled accumulator changes a sum by a fraction of n, far
// beyond the rounding bound (rewrite's TestParAccumMutant checks that
// these tests fail then). A map that panics raises the spec's panic of
// the lowest index, wherever in the accumulators' interleaving it lies.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

var procs = []int{1, 2, 8}

// sizes: empty, tiny, odd, around one and two grains of the kernels
// here (25000 and 16666 elements: parallel.Sequential splits at two),
// and large (12500 and 16667: the kernels with a filter).
var sizes = []int{0, 1, 3, 7, 24_999, 25_000, 25_001, 33_331, 33_333, 49_999, 50_000, 50_001, 100_003, 1_000_003}

// grains are the kernels' grains (the generated parallel.Sequential
// calls'): below two of them the generated code runs the cpu backend's
// loop, bit for bit the spec's.
var grains = map[string]int{"SumSq": 25000, "Dot": 25000, "Prod": 50000, "SumFrom": 25000, "Sum32": 25000, "MapAndSum": 25000, "SumAndOther": 16666, "Gather": 25000, "SumSqPos": 16667, "EvenGather": 12500}

// across calls f under each of procs and fails unless the results are
// the same bits (NaNs equal, -0 apart from +0: what comparing their %v
// checked, at a fraction of its time).
func across(t *testing.T, name string, n int, f func() []float64) []float64 {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var r []float64
	for i, p := range procs {
		runtime.GOMAXPROCS(p)
		got := f()
		if i == 0 {
			r = got
		} else if !slices.EqualFunc(got, r, sameBits) {
			t.Errorf("%s n=%d: GOMAXPROCS=%d gives %v, GOMAXPROCS=%d %v", name, n, p, got, procs[0], r)
		}
	}
	return r
}

func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}

// real returns n floats in (-1, 1) of mixed magnitudes; special, when
// set, puts signed zeros, infinities or a NaN in.
func real(r *rand.Rand, n int, special int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = (r.Float64()*2 - 1) * math.Pow(10, float64(-r.IntN(4)))
	}
	if n == 0 {
		return xs
	}
	switch special {
	case 1:
		xs[r.IntN(n)] = math.NaN()
	case 2:
		xs[r.IntN(n)] = math.Inf(1)
	case 3:
		xs[r.IntN(n)], xs[r.IntN(n)] = math.Inf(1), math.Inf(-1)
	case 4:
		for i := range xs {
			xs[i] = math.Copysign(0, -1)
		}
	case 5:
		for i := range xs {
			if i%2 == 0 {
				xs[i] = math.Copysign(0, -1)
			} else {
				xs[i] = 0
			}
		}
	}
	return xs
}

// near reports whether got is want within rounding: the same bits (NaN
// as NaN, infinities, signed zeros) or, both finite, within tol times
// scale.
func near(got, want, scale, tol float64) bool {
	if math.Float64bits(got) == math.Float64bits(want) || math.IsNaN(got) && math.IsNaN(want) {
		return true
	}
	if math.IsInf(got, 0) || math.IsInf(want, 0) || math.IsNaN(got) || math.IsNaN(want) {
		return false
	}
	if got == 0 && want == 0 {
		return false // zeros of different signs
	}
	return math.Abs(got-want) <= tol*scale
}

// sumAbs is the sum of |t(i)| for i < n, NaNs left out (a filter may
// drop them): the scale of a sum's rounding.
func sumAbs(n int, t func(i int) float64) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		if v := t(i); !math.IsNaN(v) {
			s += math.Abs(v)
		}
	}
	return s
}

type result struct{ got, want []float64 }

func TestAccumulators(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const tol = 1e-12
	for _, n := range sizes {
		for special := 0; special <= 5; special++ {
			xs, ys := real(r, n, special), real(r, n, special%3)
			xs32 := make([]float32, n)
			for i, x := range xs {
				xs32[i] = float32(x)
			}
			// Factors near 1: a product of a million stays finite.
			ps := make([]float64, n)
			for i, x := range xs {
				ps[i] = 1 + x/1000
				if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 && math.Signbit(x) {
					ps[i] = x
				}
			}
			start := r.Float64() - 0.5
			if special == 4 {
				start = math.Copysign(0, -1)
			}
			idx := make([]int, n)
			ws := real(r, 100, 0)
			for i := range idx {
				idx[i] = r.IntN(100)
			}
			sq := func(i int) float64 { return xs[i] * xs[i] }
			cases := []struct {
				name  string
				fused func() []float64
				spec  func() []float64
				scale float64
			}{
				{"SumSq", func() []float64 { return []float64{SumSq(xs)} }, func() []float64 { return []float64{accSumSqSpec(xs)} }, sumAbs(n, sq)},
				{"Dot", func() []float64 { return []float64{Dot(xs, ys)} }, func() []float64 { return []float64{accDotSpec(xs, ys)} }, sumAbs(n, func(i int) float64 { return xs[i] * ys[i] })},
				{"Prod", func() []float64 { return []float64{Prod(ps)} }, func() []float64 { return []float64{accProdSpec(ps)} }, math.Abs(accProdSpec(ps)) * float64(n)},
				{"SumFrom", func() []float64 { return []float64{SumFrom(xs, start)} }, func() []float64 { return []float64{accSumFromSpec(xs, start)} }, math.Abs(start) + sumAbs(n, func(i int) float64 { return xs[i] / 2 })},
				{"Sum32", func() []float64 { return []float64{float64(Sum32(xs32))} }, func() []float64 { return []float64{float64(accSum32Spec(xs32))} }, 6e4 * float64(n) * sumAbs(n, sq)}, // float32: n·2⁻²⁴ of the sum
				{"MapAndSum", func() []float64 {
					m, s := MapAndSum(xs)
					return append(m, s)
				}, func() []float64 {
					m, s := accMapAndSumSpec(xs)
					return append(m, s)
				}, sumAbs(n, func(i int) float64 { return xs[i] - 0.5 })},
				{"SumAndOther", func() []float64 {
					a, b := SumAndOther(xs)
					return []float64{a, b}
				}, func() []float64 {
					a, b := accSumAndOtherSpec(xs)
					return []float64{a, b}
				}, sumAbs(n, sq)},
				{"Gather", func() []float64 { return []float64{Gather(idx, ws)} }, func() []float64 { return []float64{accGatherSpec(idx, ws)} }, sumAbs(n, func(i int) float64 { return 2 * ws[idx[i]] })},
				{"SumSqPos", func() []float64 { return []float64{SumSqPos(xs)} }, func() []float64 { return []float64{accSumSqPosSpec(xs)} }, sumAbs(n, sq)},
				{"EvenGather", func() []float64 { return []float64{EvenGather(idx, ws)} }, func() []float64 { return []float64{accEvenGatherSpec(idx, ws)} }, sumAbs(n, func(i int) float64 { return 2 * ws[idx[i]] })},
			}
			for _, c := range cases {
				// A subtest per case (rewrite's TestParAccumMutant runs
				// SumSq's alone).
				t.Run(c.name, func(t *testing.T) {
					got := across(t, c.name, n, c.fused)
					want := c.spec()
					seq := n < 2*grains[c.name]
					for i := range want {
						ok := near(got[i], want[i], c.scale, tol)
						if seq {
							ok = math.Float64bits(got[i]) == math.Float64bits(want[i]) || math.IsNaN(got[i]) && math.IsNaN(want[i])
						}
						if !ok {
							t.Errorf("%s n=%d special=%d: result %d = %v, spec gives %v (scale %g)", c.name, n, special, i, got[i], want[i], c.scale)
							break
						}
					}
				})
			}
		}
	}
}

func panicOf(f func()) (v string) {
	defer func() { v = fmt.Sprint(recover()) }()
	f()
	return "no panic"
}

// TestPanicLowestIndex puts indices out of range at positions of every
// lane of the interleaving (offsets 0-7 from a position), with more after
// them in the same chunk and in later chunks: the panic is the spec's, of
// the lowest (also where a filter keeps them: EvenGather).
func TestPanicLowestIndex(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const n = 400_001
	ws := make([]float64, 100)
	for _, procs := range procs {
		runtime.GOMAXPROCS(procs)
		for _, base := range []int{0, 123_456, 399_990} {
			for off := 0; off < 8; off++ {
				idx := make([]int, n)
				bad := []int{base + off, base + off + 1, base + off + 3, 300_000}
				for _, b := range bad {
					if b < n {
						idx[b] = 100 + 2*b // even: EvenGather keeps it
					}
				}
				want := fmt.Sprintf("runtime error: index out of range [%d] with length 100", 100+2*slices.Min(bad))
				if got := panicOf(func() { accGatherSpec(idx, ws) }); got != want {
					t.Fatalf("the spec panics with %v, want %v", got, want)
				}
				if got := panicOf(func() { accEvenGatherSpec(idx, ws) }); got != want {
					t.Fatalf("the spec panics with %v, want %v", got, want)
				}
				if got := panicOf(func() { Gather(idx, ws) }); got != want {
					t.Errorf("GOMAXPROCS=%d bad=%v: Gather panics with %v, want %v", procs, bad, got, want)
				}
				if got := panicOf(func() { EvenGather(idx, ws) }); got != want {
					t.Errorf("GOMAXPROCS=%d bad=%v: EvenGather panics with %v, want %v", procs, bad, got, want)
				}
			}
		}
	}
}
