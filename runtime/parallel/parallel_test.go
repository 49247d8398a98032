package parallel_test

// Correctness of every operation against runtime/soac and against a
// sequential model of the chunked association, on random inputs of the
// sizes that matter (0, 1, odd, chunk boundaries, large; NaN, ±0, ±Inf),
// and bit-identical results under GOMAXPROCS 1, 2 and 8. Panics and
// goroutines are tested in panic_test.go.

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/soacgen/soacgen/runtime/parallel"
	"github.com/soacgen/soacgen/runtime/soac"
)

// grains are the grains the tests run with: 1 and 3 cut small inputs into
// many chunks; 1000 leaves small inputs sequential.
var grains = []int{1, 3, 1000}

// largeN is the largest input the tests use.
var largeN = map[bool]int{false: 300_007, true: 20_011}[parallel.RaceEnabled]

// sizes returns the input sizes tested for a grain: empty, one element,
// odd sizes, both sides of the sequential threshold (2*grain) and of
// MinChunks chunks, and a large input.
func sizes(grain int) []int {
	s := []int{0, 1, 2, 3, 7, 31, 2*grain - 1, 2 * grain, 2*grain + 1,
		parallel.MinChunks*grain - 1, parallel.MinChunks * grain, parallel.MinChunks*grain + 1, largeN}
	slices.Sort(s)
	return slices.Compact(slices.DeleteFunc(s, func(n int) bool { return n < 0 || n > largeN }))
}

// floats returns n random float64s of mixed magnitudes (so that
// re-association changes the rounding) with NaN, ±0 and ±Inf mixed in
// when special is set.
func floats(r *rand.Rand, n int, special bool) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = (r.Float64() - 0.4) * math.Pow(10, float64(r.IntN(12)-6))
		if special && r.IntN(50) == 0 {
			xs[i] = []float64{math.NaN(), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1)}[r.IntN(5)]
		}
	}
	return xs
}

func ints(r *rand.Rand, n int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.IntN(2001) - 1000
	}
	return xs
}

// affine is x ↦ a·x + b over uint64; composition is associative but not
// commutative, so any reordering of partial results is caught.
type affine struct{ a, b uint64 }

// then is f followed by g.
func then(f, g affine) affine { return affine{g.a * f.a, g.a*f.b + g.b} }

func affines(xs []int) []affine {
	fs := make([]affine, len(xs))
	for i, x := range xs {
		fs[i] = affine{uint64(x)*2 + 1, uint64(x * x)}
	}
	return fs
}

func add(a, b float64) float64 { return a + b }

// chunkedSum is the sequential model of Reduce's association for a float
// sum: each chunk folded from 0, the partials folded in chunk order.
func chunkedSum(xs []float64, grain int) float64 {
	n := len(xs)
	k := parallel.Chunks(n, grain)
	var acc float64
	for c := range k {
		lo, hi := parallel.Bounds(n, k, c)
		p := 0.0
		for _, x := range xs[lo:hi] {
			p += x
		}
		if c == 0 {
			acc = p
		} else {
			acc += p
		}
	}
	return acc
}

// chunkedScan is the sequential model of Scan's association: local scans
// from 0, chunk c > 0 offset by the left fold of the earlier totals.
func chunkedScan(xs []float64, grain int) []float64 {
	n := len(xs)
	k := parallel.Chunks(n, grain)
	out := make([]float64, n)
	var carry float64
	for c := range k {
		lo, hi := parallel.Bounds(n, k, c)
		acc := 0.0
		for i := lo; i < hi; i++ {
			acc += xs[i]
			out[i] = acc
		}
		if c > 0 {
			for i := lo; i < hi; i++ {
				out[i] = carry + out[i]
			}
			acc = carry + acc
		}
		carry = acc
	}
	return out
}

// sameBits reports whether a and b are the same float64 values bit for bit.
func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// same reports whether a and b are the same bits or both NaN: the payload
// and sign of a NaN depend on operand order, which the compiler may swap
// in a commutative a+b, so two compilations of one expression can differ.
func same(a, b float64) bool { return sameBits(a, b) || math.IsNaN(a) && math.IsNaN(b) }

// absSum is the sum of the magnitudes of the finite elements: the scale of
// the rounding error of any association of their sum.
func absSum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		if !math.IsInf(x, 0) && !math.IsNaN(x) {
			s += math.Abs(x)
		}
	}
	return s
}

// near reports whether a and b agree within rounding for a sum of
// values whose magnitudes add up to scale (NaNs agree with NaNs).
func near(a, b, scale float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-9*scale
}

func parSum(xs []float64, grain int) float64 {
	return parallel.Reduce(len(xs), grain, func(lo, hi int) float64 {
		acc := 0.0
		for _, x := range xs[lo:hi] {
			acc += x
		}
		return acc
	}, add)
}

func parScan(xs []float64, grain int) []float64 {
	out := make([]float64, len(xs))
	parallel.Scan(len(xs), grain, func(lo, hi int) float64 {
		acc := 0.0
		for i := lo; i < hi; i++ {
			acc += xs[i]
			out[i] = acc
		}
		return acc
	}, func(lo, hi int, carry float64) {
		for i := lo; i < hi; i++ {
			out[i] = carry + out[i]
		}
	}, add)
	return out
}

func TestChunks(t *testing.T) {
	for _, grain := range []int{-1, 0, 1, 2, 7, 1000, 1 << 20} {
		for _, n := range []int{0, 1, 2, 3, 13, 255, 256, 257, 1000, 4096, 100_003, 9_000_001, 1 << 31} {
			k := parallel.Chunks(n, grain)
			g := max(grain, 1)
			if k < 1 || (k > 1 && n/k < g) {
				t.Fatalf("Chunks(%d, %d) = %d: a chunk has fewer than grain elements", n, grain, k)
			}
			if n >= 2*g && k == 1 {
				t.Errorf("Chunks(%d, %d) = 1 although two grains fit", n, grain)
			}
			if n < 2*g && !parallel.Sequential(n, grain) {
				t.Errorf("Sequential(%d, %d) = false below two grains", n, grain)
			}
			if n >= parallel.MinChunks*g && k < min(parallel.MinChunks, n/g) {
				t.Errorf("Chunks(%d, %d) = %d, want at least %d", n, grain, k, parallel.MinChunks)
			}
			if k > parallel.MinChunks && g <= parallel.MaxChunkLen && (n+k-1)/k > parallel.MaxChunkLen {
				t.Errorf("Chunks(%d, %d) = %d: chunks longer than MaxChunkLen", n, grain, k)
			}
			next := 0
			for c := range k {
				lo, hi := parallel.Bounds(n, k, c)
				if lo != next || hi < lo || hi-lo > n/k+1 || hi-lo < n/k {
					t.Fatalf("Bounds(%d, %d, %d) = [%d, %d), want a chunk from %d of %d or %d elements", n, k, c, lo, hi, next, n/k, n/k+1)
				}
				next = hi
			}
			if next != n {
				t.Fatalf("the %d chunks of %d end at %d", k, n, next)
			}
		}
	}
	if g := parallel.Grain(1); g != parallel.MinChunkNanos {
		t.Errorf("Grain(1) = %d, want %d", g, parallel.MinChunkNanos)
	}
	if g := parallel.Grain(0); g != parallel.MinChunkNanos {
		t.Errorf("Grain(0) = %d, want %d", g, parallel.MinChunkNanos)
	}
	if g := parallel.Grain(parallel.MinChunkNanos * 2); g != 1 {
		t.Errorf("Grain(2*MinChunkNanos) = %d, want 1", g)
	}
}

func TestFor(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, grain := range grains {
		for _, n := range sizes(grain) {
			xs := floats(r, n, true)
			out := make([]float64, n)
			calls := make([]int, n)
			parallel.For(n, grain, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					out[i] = math.Sqrt(xs[i]) * 3
					calls[i]++
				}
			})
			want := soac.Map(xs, func(x float64) float64 { return math.Sqrt(x) * 3 })
			for i := range n {
				if !same(out[i], want[i]) || calls[i] != 1 {
					t.Fatalf("grain %d n %d: out[%d] = %v after %d calls, want %v after 1", grain, n, i, out[i], calls[i], want[i])
				}
			}
		}
	}
}

func TestReduce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, grain := range grains {
		for _, n := range sizes(grain) {
			for _, special := range []bool{false, true} {
				xs := floats(r, n, special)
				got := parSum(xs, grain)
				if want := chunkedSum(xs, grain); !same(got, want) {
					t.Errorf("grain %d n %d: Reduce = %v, want the chunked fold %v", grain, n, got, want)
				}
				scale := absSum(xs)
				if want := soac.Reduce(xs, 0.0, add); !near(got, want, scale) {
					t.Errorf("grain %d n %d: Reduce = %v, soac.Reduce = %v", grain, n, got, want)
				}
				if parallel.Chunks(n, grain) == 1 && !same(got, soac.Reduce(xs, 0.0, add)) {
					t.Errorf("grain %d n %d: one chunk, Reduce = %v differs from the sequential fold", grain, n, got)
				}
			}
			fs := affines(ints(r, n))
			got := parallel.Reduce(n, grain, func(lo, hi int) affine {
				acc := affine{1, 0}
				for _, f := range fs[lo:hi] {
					acc = then(acc, f)
				}
				return acc
			}, then)
			if want := soac.Reduce(fs, affine{1, 0}, then); got != want {
				t.Errorf("grain %d n %d: Reduce of affine maps = %v, want %v (order of partials)", grain, n, got, want)
			}
		}
	}
}

func TestScan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, grain := range grains {
		for _, n := range sizes(grain) {
			for _, special := range []bool{false, true} {
				xs := floats(r, n, special)
				got := parScan(xs, grain)
				model := chunkedScan(xs, grain)
				want := soac.Scan(xs, 0.0, add)
				scale := absSum(xs)
				for i := range n {
					if !same(got[i], model[i]) {
						t.Fatalf("grain %d n %d: Scan[%d] = %v, want the chunked association %v", grain, n, i, got[i], model[i])
					}
					if !near(got[i], want[i], scale) {
						t.Fatalf("grain %d n %d: Scan[%d] = %v, soac.Scan = %v", grain, n, i, got[i], want[i])
					}
				}
			}
			fs := affines(ints(r, n))
			out := make([]affine, n)
			total := parallel.Scan(n, grain, func(lo, hi int) affine {
				acc := affine{1, 0}
				for i := lo; i < hi; i++ {
					acc = then(acc, fs[i])
					out[i] = acc
				}
				return acc
			}, func(lo, hi int, carry affine) {
				for i := lo; i < hi; i++ {
					out[i] = then(carry, out[i])
				}
			}, then)
			want := soac.Scan(fs, affine{1, 0}, then)
			if !slices.Equal(out, want) {
				t.Fatalf("grain %d n %d: Scan of affine maps differs from soac.Scan", grain, n)
			}
			if wantTotal := soac.Reduce(fs, affine{1, 0}, then); total != wantTotal {
				t.Errorf("grain %d n %d: Scan returned total %v, want %v", grain, n, total, wantTotal)
			}
		}
	}
}

// filterPositive is a branch-free compaction, as generated code writes it:
// every element is stored at dst[kept], kept advances only when it is kept.
func filterPositive(xs []float64, grain int) []float64 {
	out := make([]float64, len(xs))
	kept := parallel.Filter(len(xs), grain, out, func(lo, hi int, dst []float64) int {
		m := 0
		for _, x := range xs[lo:hi] {
			dst[m] = x * 2
			if x > 0 {
				m++
			}
		}
		return m
	})
	return out[:kept:kept]
}

func TestFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, grain := range grains {
		for _, n := range sizes(grain) {
			xs := floats(r, n, true)
			if n > 40 { // a run with nothing kept and a run with everything kept
				for i := n / 4; i < n/2; i++ {
					xs[i] = -1
				}
				for i := n / 2; i < 3*n/4; i++ {
					xs[i] = 1
				}
			}
			got := filterPositive(xs, grain)
			want := soac.Map(soac.Filter(xs, func(x float64) bool { return x > 0 }), func(x float64) float64 { return x * 2 })
			if !slices.EqualFunc(got, want, same) {
				t.Fatalf("grain %d n %d: Filter kept %d elements, soac.Filter %d, or they differ", grain, n, len(got), len(want))
			}
		}
	}
}

// TestFilterFold filters affine maps (x > 0) and, in the same pass,
// composes all of them: the count, the kept elements and the composition
// (not commutative: chunk order) must be the spec's.
func TestFilterFold(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, grain := range grains {
		for _, n := range sizes(grain) {
			xs := ints(r, n)
			fs := affines(xs)
			out := make([]affine, n)
			kept, all := parallel.FilterFold(n, grain, out, func(lo, hi int, dst []affine) (int, affine) {
				m, acc := 0, affine{1, 0}
				for i := lo; i < hi; i++ {
					acc = then(acc, fs[i])
					if xs[i] > 0 {
						dst[m] = fs[i]
						m++
					}
				}
				return m, acc
			}, then)
			want := soac.Filter(fs, func(f affine) bool { return f.a > 1 && int64(f.a) > 0 })
			if !slices.Equal(out[:kept], want) {
				t.Fatalf("grain %d n %d: FilterFold kept %d elements, soac.Filter %d, or they differ", grain, n, kept, len(want))
			}
			if wantAll := soac.Reduce(fs, affine{1, 0}, then); all != wantAll {
				t.Fatalf("grain %d n %d: FilterFold folded %v, want %v", grain, n, all, wantAll)
			}
		}
	}
}

func TestStreams(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, grain := range grains {
		for _, n := range sizes(grain) {
			xs := ints(r, n)
			var calls sync.Map
			sq := func(chunk []int) []int {
				if len(chunk) == 0 {
					t.Errorf("StreamMap called f with an empty chunk")
				}
				calls.Store(&chunk[0], true)
				ys := make([]int, len(chunk))
				for i, x := range chunk {
					ys[i] = x * x
				}
				return ys
			}
			got := parallel.StreamMap(xs, grain, sq)
			if want := soac.StreamMap(xs, sq); got == nil || !slices.Equal(got, want) {
				t.Fatalf("grain %d n %d: StreamMap differs from soac.StreamMap", grain, n)
			}
			fs := affines(xs)
			red := func(chunk []affine) affine {
				acc := affine{1, 0}
				for _, f := range chunk {
					acc = then(acc, f)
				}
				return acc
			}
			if got, want := parallel.StreamRed(fs, grain, then, red), soac.StreamRed(fs, then, red); got != want {
				t.Fatalf("grain %d n %d: StreamRed = %v, want %v", grain, n, got, want)
			}
		}
	}
}

// TestSameBitsAnyGOMAXPROCS runs the float operations under GOMAXPROCS 1,
// 2 and 8 and requires the same bits from each.
func TestSameBitsAnyGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(11, 12))
	xs := floats(r, largeN, true)
	type result struct {
		sum  float64
		scan []float64
		filt []float64
	}
	var first result
	for i, p := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(p)
		for range 3 { // repeated: the schedule differs from run to run
			got := result{parSum(xs, 7), parScan(xs, 7), filterPositive(xs, 7)}
			if i == 0 && first.scan == nil {
				first = got
				continue
			}
			if !sameBits(got.sum, first.sum) || !slices.EqualFunc(got.scan, first.scan, sameBits) || !slices.EqualFunc(got.filt, first.filt, sameBits) {
				t.Fatalf("GOMAXPROCS=%d: results differ from GOMAXPROCS=1", p)
			}
		}
	}
}

// TestNestedAndConcurrent runs operations inside operations' bodies and
// from several goroutines at once: no deadlock, every result right.
func TestNestedAndConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	xs := floats(r, 50_000, false)
	want := chunkedSum(xs, 5)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			sums := make([]float64, 40)
			parallel.For(len(sums), 1, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					sums[i] = parSum(xs, 5)
				}
			})
			for i, s := range sums {
				if !same(s, want) {
					t.Errorf("goroutine %d, nested sum %d = %v, want %v", g, i, s, want)
				}
			}
		})
	}
	wg.Wait()
}
