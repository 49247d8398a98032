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

// localMutant names a broken pass 2 of localKernel.
type localMutant int

const (
	localRight        localMutant = iota
	localCarryDropped             // pass 2 ignores the carry
	localLocalDropped             // pass 2 takes the carry alone
	localWrongCarry               // pass 2 combines the local prefix before the carry
)

// localKernel runs, over fs, by parallel.CarriedLocal: ps = scan(then)
// from start; ms = map of ps (its b); sum = fold (+) of the a of ps.
// Pass 1 stores the chunk's local prefixes in a scratch, pass 2 combines
// each with the carry. mutant breaks pass 2.
func localKernel(fs []affine, start affine, grain int, exact bool, mutant localMutant) ([]uint64, uint64, affine) {
	n := len(fs)
	ms, local := parallel.Alloc[uint64](n), parallel.Alloc[affine](n)
	end, sum := parallel.CarriedLocal(n, grain, start, exact, func(lo, hi int) affine {
		acc := affine{1, 0}
		for i := lo; i < hi; i++ {
			acc = then(acc, fs[i])
			local[i] = acc
		}
		return acc
	}, then, func(lo, hi int, carry affine) (affine, uint64) {
		acc, sum := carry, uint64(0)
		for i := lo; i < hi; i++ {
			acc = then(acc, fs[i])
			ms[i] = acc.b
			sum += acc.a
		}
		return acc, sum
	}, func(lo, hi int, carry affine) uint64 {
		sum := uint64(0)
		for i := lo; i < hi; i++ {
			var ps affine
			switch mutant {
			case localRight:
				ps = then(carry, local[i])
			case localCarryDropped:
				ps = local[i]
			case localLocalDropped:
				ps = carry
			case localWrongCarry:
				ps = then(local[i], carry)
			}
			ms[i] = ps.b
			sum += ps.a
		}
		return sum
	}, func(a, b uint64) uint64 { return a + b })
	return ms, sum, end
}

// TestCarriedLocal: CarriedLocal equals the sequential loop on integers
// (an associative, non-commutative operator) for GOMAXPROCS 1, 2, 3 and
// 8, exact or not, with the state after the last chunk.
func TestCarriedLocal(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(27, 28))
	start := affine{3, 5}
	for _, procs := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		for _, grain := range grains {
			for _, n := range sizes(grain) {
				fs := affines(ints(r, n))
				wm, _, ws := seqKernel(fs, start)
				we := start
				for _, f := range fs {
					we = then(we, f)
				}
				for _, exact := range []bool{false, true} {
					ms, sum, end := localKernel(fs, start, grain, exact, localRight)
					if !slices.Equal(ms, wm) || sum != ws || end != we {
						t.Fatalf("GOMAXPROCS %d grain %d n %d exact %v: CarriedLocal differs from the sequential loop", procs, grain, n, exact)
					}
				}
			}
		}
	}
}

// TestCarriedLocalMutants: a pass 2 that drops the carry, drops the
// local prefix or combines them in the wrong order gives results the
// comparison of TestCarriedLocal rejects, exact or not, on one core
// (every chunk's carry known) and on several.
func TestCarriedLocalMutants(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(29, 30))
	fs := affines(ints(r, 10_000))
	wm, _, ws := seqKernel(fs, affine{3, 5})
	for _, procs := range []int{1, 8} {
		runtime.GOMAXPROCS(procs)
		for name, mutant := range map[string]localMutant{"carry dropped": localCarryDropped, "local dropped": localLocalDropped, "reversed": localWrongCarry} {
			// Not exact: every chunk but the first runs pass 1 and
			// pass 2 (exact chunks whose carry is known run body).
			ms, sum, _ := localKernel(fs, affine{3, 5}, 10, false, mutant)
			if slices.Equal(ms, wm) && sum == ws {
				t.Errorf("GOMAXPROCS %d, %s: a broken pass 2 went unnoticed", procs, name)
			}
		}
	}
}

// TestCarriedLocalFloatDeterministic: a float scan read by a map and its
// sum by CarriedLocal, the same bits under GOMAXPROCS 1, 2, 3 and 8
// (NaN, ±0, ±Inf mixed in), and near the sequential loop; a pass 2
// without the carry is caught.
func TestCarriedLocalFloatDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(31, 32))
	for _, grain := range grains {
		for _, n := range sizes(grain) {
			xs := floats(r, n, true)
			run := func(dropCarry bool) ([]float64, float64) {
				ms := make([]float64, n)
				local := make([]float64, n)
				_, sum := parallel.CarriedLocal(n, grain, 1.5, false, func(lo, hi int) float64 {
					acc := 0.0
					for i := lo; i < hi; i++ {
						acc += xs[i]
						local[i] = acc
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
				}, func(lo, hi int, carry float64) float64 {
					sum := 0.0
					if dropCarry {
						carry = 0
					}
					for i := lo; i < hi; i++ {
						ms[i] = (carry + local[i]) * 0.5
						sum += ms[i]
					}
					return sum
				}, add)
				return ms, sum
			}
			var first []float64
			var firstSum float64
			for i, procs := range []int{1, 2, 3, 8} {
				runtime.GOMAXPROCS(procs)
				ms, sum := run(false)
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
			if parallel.Chunks(n, grain) > 1 {
				if ms, _ := run(true); slices.EqualFunc(ms, first, same) {
					t.Fatalf("grain %d n %d: a pass 2 without the carry went unnoticed", grain, n)
				}
			}
		}
	}
}

// BenchmarkCarriedForms compares Carried (pass 2 runs the members the
// scan depends on again) with CarriedLocal (pass 2 reads the chunk's
// local prefixes) on a float scan read by a map, out[i] = ps[i] * 0.5,
// with an expensive member before the scan (ps = scan of sqrt) and
// without (ps = scan of xs): what the parallel backend's choice between
// the two forms rests on. The local prefixes are kept in out itself.
func BenchmarkCarriedForms(b *testing.B) {
	n := 1_000_000
	xs := floats(rand.New(rand.NewPCG(33, 34)), n, false)
	for i := range xs {
		xs[i] = math.Abs(xs[i])
	}
	out := make([]float64, n)
	for _, sqrt := range []bool{true, false} {
		name := map[bool]string{true: "sqrt", false: "plain"}[sqrt]
		// elem is inlined; its branch is always predicted.
		elem := func(x float64) float64 {
			if sqrt {
				return math.Sqrt(x)
			}
			return x
		}
		grain := parallel.ChunkGrain(2 * parallel.Grain(map[bool]int{true: 2, false: 1}[sqrt]))
		total := func(lo, hi int) float64 {
			in, o := xs[:hi], out[:hi]
			acc := 0.0
			for i := lo; i < hi; i++ {
				acc += elem(in[i])
				o[i] = acc
			}
			return acc
		}
		body := func(lo, hi int, carry float64) (float64, struct{}) {
			in, o := xs[:hi], out[:hi]
			acc := carry
			for i := lo; i < hi; i++ {
				acc += elem(in[i])
				o[i] = acc * 0.5
			}
			return acc, struct{}{}
		}
		fix := func(lo, hi int, carry float64) struct{} {
			o := out[:hi]
			for i := lo; i < hi; i++ {
				o[i] = (carry + o[i]) * 0.5
			}
			return struct{}{}
		}
		comb := func(a, b struct{}) struct{} { return a }
		b.Run(name+"/carried", func(b *testing.B) {
			for b.Loop() {
				parallel.Carried(n, grain, 0.0, false, func(lo, hi int) float64 {
					in := xs[:hi]
					acc := 0.0
					for i := lo; i < hi; i++ {
						acc += elem(in[i])
					}
					return acc
				}, add, body, comb)
			}
		})
		b.Run(name+"/local", func(b *testing.B) {
			for b.Loop() {
				parallel.CarriedLocal(n, grain, 0.0, false, total, add, body, fix, comb)
			}
		})
		// scratch: the local prefixes in a fresh array per call, as
		// when no output of the kernel can hold them.
		b.Run(name+"/scratch", func(b *testing.B) {
			for b.Loop() {
				buf := parallel.Alloc[float64](n)
				parallel.CarriedLocal(n, grain, 0.0, false, func(lo, hi int) float64 {
					in, o := xs[:hi], buf[:hi]
					acc := 0.0
					for i := lo; i < hi; i++ {
						acc += elem(in[i])
						o[i] = acc
					}
					return acc
				}, add, body, func(lo, hi int, carry float64) struct{} {
					l, o := buf[:hi], out[:hi]
					for i := lo; i < hi; i++ {
						o[i] = (carry + l[i]) * 0.5
					}
					return struct{}{}
				}, comb)
			}
		})
		b.Run(name+"/sequential", func(b *testing.B) {
			for b.Loop() {
				body(0, n, 0)
			}
		})
	}
}
