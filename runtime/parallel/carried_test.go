package parallel_test

// Carried: a kernel of a scan read by a map, beside a fold and an output
// of kept elements, equal to the sequential loop (integers, an operator
// that is associative but not commutative, so a carry applied in the
// wrong order shows) and the same bits for any GOMAXPROCS (floats); a
// carry dropped is caught; the lowest index's panic wins (panic_test.go).

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/soacgen/soacgen/runtime/parallel"
)

// carriedState is the carry of the kernel below: the scan's accumulator
// and the count of kept elements.
type carriedState struct {
	s affine
	k int
}

// carriedKernel runs, over fs: ps = scan(then) from start; ms = map of ps
// (its b); kept = the elements of ms that are even; sum = fold (+) of the
// a of ps. op combines two states; a broken op shows what a test catches.
func carriedKernel(fs []affine, start affine, grain int, exact bool, op func(x, y carriedState) carriedState) ([]uint64, []uint64, uint64) {
	n := len(fs)
	ms := parallel.Alloc[uint64](n)
	kept := make([]uint64, 0, n)
	end, sum := parallel.Carried(n, grain, carriedState{start, 0}, exact, func(lo, hi int) carriedState {
		acc, k := affine{1, 0}, 0
		for i := lo; i < hi; i++ {
			acc = then(acc, fs[i])
			if fs[i].b%2 == 0 {
				k++
			}
		}
		return carriedState{acc, k}
	}, op, func(lo, hi int, carry carriedState) (carriedState, uint64) {
		acc, k := carry.s, carry.k
		sum := uint64(0)
		for i := lo; i < hi; i++ {
			acc = then(acc, fs[i])
			ms[i] = acc.b
			if fs[i].b%2 == 0 {
				// A wrong carry (TestCarriedWrongCarry) makes two chunks
				// store at the same positions: the lock keeps that a
				// wrong result, not a data race.
				keptMu.Lock()
				if k < cap(kept) {
					kept[:cap(kept)][k] = acc.b
				}
				keptMu.Unlock()
				k++
			}
			sum += acc.a
		}
		return carriedState{acc, k}, sum
	}, func(a, b uint64) uint64 { return a + b })
	return ms, kept[:min(max(end.k, 0), cap(kept))], sum
}

// keptMu serialises carriedKernel's stores of kept elements.
var keptMu sync.Mutex

func combineStates(x, y carriedState) carriedState {
	return carriedState{then(x.s, y.s), x.k + y.k}
}

// seqKernel is carriedKernel's sequential loop.
func seqKernel(fs []affine, start affine) ([]uint64, []uint64, uint64) {
	ms, kept := make([]uint64, len(fs)), []uint64{}
	acc, sum := start, uint64(0)
	for i, f := range fs {
		acc = then(acc, f)
		ms[i] = acc.b
		if f.b%2 == 0 {
			kept = append(kept, acc.b)
		}
		sum += acc.a
	}
	return ms, kept, sum
}

func TestCarried(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(21, 22))
	start := affine{3, 5}
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, grain := range grains {
			for _, n := range sizes(grain) {
				fs := affines(ints(r, n))
				wm, wk, ws := seqKernel(fs, start)
				for _, exact := range []bool{false, true} {
					ms, kept, sum := carriedKernel(fs, start, grain, exact, combineStates)
					if !slices.Equal(ms, wm) || !slices.Equal(kept, wk) || sum != ws {
						t.Fatalf("GOMAXPROCS %d grain %d n %d exact %v: Carried differs from the sequential loop", procs, grain, n, exact)
					}
				}
			}
		}
	}
}

// TestCarriedWrongCarry: a carry that drops the predecessors' scan (the
// totals combined as y alone), or counts kept elements from zero in every
// chunk, gives results the comparison of TestCarried rejects.
func TestCarriedWrongCarry(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	fs := affines(ints(r, 10_000))
	wm, wk, ws := seqKernel(fs, affine{3, 5})
	for name, op := range map[string]func(x, y carriedState) carriedState{
		"scan dropped":  func(x, y carriedState) carriedState { return carriedState{y.s, x.k + y.k} },
		"count dropped": func(x, y carriedState) carriedState { return carriedState{then(x.s, y.s), y.k} },
		"reversed":      func(x, y carriedState) carriedState { return carriedState{then(y.s, x.s), x.k + y.k} },
	} {
		ms, kept, sum := carriedKernel(fs, affine{3, 5}, 10, false, op)
		if slices.Equal(ms, wm) && slices.Equal(kept, wk) && sum == ws {
			t.Errorf("%s: a wrong carry went unnoticed", name)
		}
	}
}

// TestCarriedFloatDeterministic: a float scan read by a map and its sum,
// the same bits under GOMAXPROCS 1, 2 and 8 (NaN, ±0, ±Inf mixed in),
// and near the sequential loop.
func TestCarriedFloatDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(25, 26))
	for _, grain := range grains {
		for _, n := range sizes(grain) {
			xs := floats(r, n, true)
			run := func() ([]float64, float64) {
				ms := make([]float64, n)
				_, sum := parallel.Carried(n, grain, 1.5, false, func(lo, hi int) float64 {
					acc := 0.0
					for i := lo; i < hi; i++ {
						acc += xs[i]
					}
					return acc
				}, add, func(lo, hi int, carry float64) (float64, float64) {
					acc, sum := carry, 0.0
					for i := lo; i < hi; i++ {
						acc += xs[i]
						ms[i] = acc * 0.5
						sum += ms[i]
					}
					return acc, sum
				}, add)
				return ms, sum
			}
			var first []float64
			var firstSum float64
			for i, procs := range []int{1, 2, 8} {
				runtime.GOMAXPROCS(procs)
				ms, sum := run()
				if i == 0 {
					first, firstSum = ms, sum
					continue
				}
				if !slices.EqualFunc(ms, first, same) || !same(sum, firstSum) {
					t.Fatalf("grain %d n %d: GOMAXPROCS %d differs from GOMAXPROCS 1", grain, n, procs)
				}
			}
			acc, scale := 1.5, 1.5
			for i, x := range xs {
				acc += x
				scale += math.Abs(x)
				if w := acc * 0.5; !near(first[i], w, scale) && !(math.IsNaN(first[i]) && math.IsNaN(w)) && !(math.IsInf(w, 0) && first[i] == w) {
					t.Fatalf("grain %d n %d: element %d is %v, want %v", grain, n, i, first[i], w)
				}
			}
		}
	}
}

// levelsState is the carry of the two-level kernel below: a scan of fs
// (level 0) and a scan of the b of its elements (level 1).
type levelsState struct {
	s affine
	t uint64
}

// levelsKernel runs, over fs: ps = scan(then) from start, qs = the
// running sums of ps[i].b*ps[i].a: the chunk totals of qs need ps's carry.
func levelsKernel(fs []affine, start affine, grain int) ([]uint64, uint64) {
	n := len(fs)
	qs := parallel.Alloc[uint64](n)
	_, sum := parallel.CarriedLevels(n, grain, 2, levelsState{start, 0}, func(level, lo, hi int, carry levelsState) levelsState {
		switch level {
		case 0:
			acc := affine{1, 0}
			for i := lo; i < hi; i++ {
				acc = then(acc, fs[i])
			}
			return levelsState{s: acc}
		case 1:
			acc, t := carry.s, uint64(0)
			for i := lo; i < hi; i++ {
				acc = then(acc, fs[i])
				t += acc.b * acc.a
			}
			return levelsState{t: t}
		}
		return carry
	}, func(level int, x, y levelsState) levelsState {
		switch level {
		case 0:
			x.s = then(x.s, y.s)
		case 1:
			x.t += y.t
		}
		return x
	}, func(level int, x, y levelsState) levelsState {
		switch level {
		case 0:
			x.s = y.s
		case 1:
			x.t = y.t
		}
		return x
	}, func(lo, hi int, carry levelsState) (levelsState, uint64) {
		acc, t, sum := carry.s, carry.t, uint64(0)
		for i := lo; i < hi; i++ {
			acc = then(acc, fs[i])
			t += acc.b * acc.a
			qs[i] = t
			sum ^= t
		}
		return levelsState{acc, t}, sum
	}, func(a, b uint64) uint64 { return a ^ b })
	return qs, sum
}

func TestCarriedLevels(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(27, 28))
	start := affine{3, 5}
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, grain := range grains {
			for _, n := range sizes(grain) {
				fs := affines(ints(r, n))
				want := make([]uint64, n)
				acc, tot, sum := start, uint64(0), uint64(0)
				for i, f := range fs {
					acc = then(acc, f)
					tot += acc.b * acc.a
					want[i] = tot
					sum ^= tot
				}
				qs, gotSum := levelsKernel(fs, start, grain)
				if !slices.Equal(qs, want) || gotSum != sum {
					t.Fatalf("GOMAXPROCS %d grain %d n %d: CarriedLevels differs from the sequential loop", procs, grain, n)
				}
			}
		}
	}
}
