package parnested

// These tests run in the differential test's module (which copies
// every .go file of the case): on real floats, whose sums round
// differently in another order, each nested reduction gives the same
// bits as assoc, the association rewrite/backend/parallel parnested.go
// documents (the spec's order below 8 elements, 4 interleaved
// accumulators combined pairwise from 8 on), under GOMAXPROCS 1, 2 and
// 8; it is within rounding of the spec; and NaN, infinities and signed
// zeros come out as the spec's. A dropped accumulator or a wrong combine
// changes the bits (rewrite's TestParNestedMutant checks that these
// tests fail then). An inner map that panics raises the spec's panic:
// that of the lowest row, and of the lowest index in it, wherever in
// the accumulators' interleaving it lies.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

var procs = []int{1, 2, 8}

// lengths are the inner lengths tested: empty, below the 8 from which
// the sums split, 8 and around it, remainders 0 to 3 past the unrolled
// loop, and long.
var lengths = []int{0, 1, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 16, 17, 40, 1001}

// assoc folds xs with op as the parallel backend's nested loop does:
// from start in order below 8 elements; from 8 on, element i into
// accumulator i mod 4 up to the last multiple of 4 (accumulator 0 from
// start, the others from ident), the rest into accumulator 0, then
// (a0 op a1) op (a2 op a3).
func assoc[T any](xs []T, start, ident T, op func(T, T) T) T {
	if len(xs) < 8 {
		acc := start
		for _, x := range xs {
			acc = op(acc, x)
		}
		return acc
	}
	a := [4]T{start, ident, ident, ident}
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		for k := range a {
			a[k] = op(a[k], xs[i+k])
		}
	}
	for ; i < len(xs); i++ {
		a[0] = op(a[0], xs[i])
	}
	return op(op(a[0], a[1]), op(a[2], a[3]))
}

func add(a, b float64) float64   { return a + b }
func mul(a, b float64) float64   { return a * b }
func add32(a, b float32) float32 { return a + b }

// mapped returns f of each element of xs.
func mapped[T, U any](xs []T, f func(T) U) []U {
	ys := make([]U, len(xs))
	for i, x := range xs {
		ys[i] = f(x)
	}
	return ys
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

// same reports whether a and b have the same bits, or are both NaN.
func same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// near reports whether got is want within rounding: the same bits (NaN
// as NaN, infinities, signed zeros) or, both finite, within tol times
// scale.
func near(got, want, scale, tol float64) bool {
	if same(got, want) {
		return true
	}
	if math.IsInf(got, 0) || math.IsInf(want, 0) || math.IsNaN(got) || math.IsNaN(want) || got == 0 && want == 0 {
		return false
	}
	return math.Abs(got-want) <= tol*scale
}

// sumAbs is the sum of |x| over xs, NaNs left out: the scale of a sum's
// rounding.
func sumAbs(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		if !math.IsNaN(x) {
			s += math.Abs(x)
		}
	}
	return s
}

// across calls f under each of procs and fails unless the results print
// the same (%v prints the shortest decimal that gives a float's bits, and
// -0 as -0).
func across[R any](t *testing.T, f func() R) R {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first R
	var s0 string
	for i, p := range procs {
		runtime.GOMAXPROCS(p)
		got := f()
		if s := fmt.Sprint(got); i == 0 {
			first, s0 = got, s
		} else if s != s0 {
			t.Errorf("GOMAXPROCS=%d gives %s, GOMAXPROCS=%d %s", p, s, procs[0], s0)
		}
	}
	return first
}

// check compares each row result: bit for bit with model, within tol
// times scale of the spec's.
func check(t *testing.T, what string, got, spec, model, scale []float64, tol float64) {
	t.Helper()
	if len(got) != len(spec) {
		t.Fatalf("%s: %d results, spec %d", what, len(got), len(spec))
	}
	for i := range got {
		if !same(got[i], model[i]) {
			t.Errorf("%s: row %d = %v, the documented association gives %v (spec %v)", what, i, got[i], model[i], spec[i])
			return
		}
		if !near(got[i], spec[i], scale[i], tol) {
			t.Errorf("%s: row %d = %v, spec %v (scale %g)", what, i, got[i], spec[i], scale[i])
			return
		}
	}
}

func TestNestedAccumulators(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, l := range lengths {
		for _, nrows := range []int{1, 3, 600} {
			if l*nrows > 200_000 {
				nrows = 60
			}
			for special := 0; special <= 5; special++ {
				xss := make([][]float64, nrows)
				pss := make([][]float64, nrows)
				x32 := make([][]float32, nrows)
				for i := range xss {
					xss[i] = real(r, l, special)
					// Factors near 1: a product of a thousand stays
					// finite; the special values as they are.
					pss[i] = mapped(xss[i], func(x float64) float64 {
						if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
							return x
						}
						return 1 + x/100
					})
					x32[i] = mapped(xss[i], func(x float64) float32 { return float32(x) })
				}
				bias := r.Float64() - 0.5
				if special == 4 {
					bias = math.Copysign(0, -1)
				}
				what := func(name string) string { return fmt.Sprintf("%s rows=%d len=%d special=%d", name, nrows, l, special) }
				rowsOf := func(f func(xs []float64) float64) []float64 { return mapped(xss, f) }

				t.Run("RowSums", func(t *testing.T) {
					got := across(t, func() []float64 { return RowSums(xss) })
					check(t, what("RowSums"), got, pnRowSumsSpec(xss),
						rowsOf(func(xs []float64) float64 { return assoc(xs, 0, 0, add) }), rowsOf(sumAbs), 1e-12)
				})
				t.Run("RowSq32", func(t *testing.T) {
					got := across(t, func() []float32 { return RowSq32(x32) })
					sq := func(x float32) float32 { return x * x }
					f64 := func(v []float32) []float64 { return mapped(v, func(x float32) float64 { return float64(x) }) }
					model := mapped(x32, func(xs []float32) float32 { return assoc(mapped(xs, sq), 0, 0, add32) })
					scale := mapped(x32, func(xs []float32) float64 { return sumAbs(f64(mapped(xs, sq))) })
					check(t, what("RowSq32"), f64(got), f64(pnRowSq32Spec(x32)), f64(model), scale, 1e-4)
				})
				t.Run("RowProds", func(t *testing.T) {
					got := across(t, func() []float64 { return RowProds(pss) })
					spec := pnRowProdsSpec(pss)
					model := mapped(pss, func(xs []float64) float64 { return assoc(xs, 1, 1, mul) })
					check(t, what("RowProds"), got, spec, model, mapped(spec, func(p float64) float64 { return math.Abs(p) * 1e4 }), 1e-12)
				})
				t.Run("RowFrom", func(t *testing.T) {
					got := across(t, func() []float64 { return RowFrom(xss, bias) })
					half := func(x float64) float64 { return x * 0.5 }
					check(t, what("RowFrom"), got, pnRowFromSpec(xss, bias),
						rowsOf(func(xs []float64) float64 { return assoc(mapped(xs, half), bias, math.Copysign(0, -1), add) }),
						rowsOf(func(xs []float64) float64 { return math.Abs(bias) + sumAbs(xs) }), 1e-12)
				})
				t.Run("RowPos", func(t *testing.T) {
					got := across(t, func() []float64 { return RowPos(xss) })
					sel := func(x float64) float64 {
						if x > 0 {
							return x * x
						}
						return 0
					}
					check(t, what("RowPos"), got, pnRowPosSpec(xss),
						rowsOf(func(xs []float64) float64 { return assoc(mapped(xs, sel), 0, 0, add) }),
						rowsOf(func(xs []float64) float64 { return sumAbs(mapped(xs, sel)) }), 1e-12)
				})
				t.Run("RowNamed", func(t *testing.T) {
					got := across(t, func() []float64 { return RowNamed(xss) })
					spec := pnRowNamedSpec(xss)
					check(t, what("RowNamed"), got, spec, spec, rowsOf(sumAbs), 0)
				})
				t.Run("RowExp", func(t *testing.T) {
					got := across(t, func() []float64 { return RowExp(xss) })
					spec := pnRowExpSpec(xss)
					check(t, what("RowExp"), got, spec, spec, rowsOf(sumAbs), 0)
				})
				t.Run("Total", func(t *testing.T) {
					got := across(t, func() float64 { return Total(xss) })
					want := pnTotalSpec(xss)
					scale := 0.0
					for _, xs := range xss {
						scale += sumAbs(xs)
					}
					if !near(got, want, scale, 1e-12) {
						t.Errorf("%s: %v, spec %v", what("Total"), got, want)
					}
				})
				if nrows <= 600 && l <= 40 {
					t.Run("MatMul", func(t *testing.T) {
						bt := make([][]float64, 33)
						for j := range bt {
							bt[j] = real(r, l, special%4)
						}
						got := across(t, func() [][]float64 { return MatMul(xss, bt) })
						spec := pnMatMulSpec(xss, bt)
						for i := range got {
							prod := func(col []float64) []float64 {
								p := make([]float64, l)
								for k := range p {
									p[k] = xss[i][k] * col[k]
								}
								return p
							}
							check(t, what(fmt.Sprintf("MatMul row %d", i)), got[i], spec[i],
								mapped(bt, func(col []float64) float64 { return assoc(prod(col), 0, 0, add) }),
								mapped(bt, func(col []float64) float64 { return sumAbs(prod(col)) }), 1e-12)
						}
					})
				}
			}
		}
	}
}

func TestNestedInts(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, l := range lengths {
		xss := make([][]int, 300)
		for i := range xss {
			xss[i] = make([]int, l)
			for j := range xss[i] {
				xss[i][j] = r.Int() >> r.IntN(64) // wrapping sums: exact in any order
			}
		}
		got := across(t, func() []int { return RowInts(xss) })
		want := pnRowIntsSpec(xss)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("RowInts len=%d: %v, spec %v", l, got, want)
		}
		for _, th := range []int{-1 << 62, 0, 1 << 40, 1 << 62} {
			got := across(t, func() []int { return RowCount(xss, th) })
			want := pnRowCountSpec(xss, th)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("RowCount len=%d t=%d: %v, spec %v", l, th, got, want)
			}
		}
	}
}

func panicOf(f func()) (v string) {
	defer func() { v = fmt.Sprint(recover()) }()
	f()
	return "no panic"
}

// TestNestedPanicLowestIndex puts indices out of range at every lane of
// the interleaving (positions 0-7 and the remainder of a row), with more
// after them in the same row, in the next row and in a later one: the
// panic is the spec's, of the lowest row and index.
func TestNestedPanicLowestIndex(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	ws := make([]float64, 100)
	for _, l := range []int{5, 8, 13, 37} {
		const nrows = 3000
		for _, procs := range procs {
			runtime.GOMAXPROCS(procs)
			for _, row := range []int{0, 1234, nrows - 1} {
				for pos := range l {
					idx := make([][]int, nrows)
					for i := range idx {
						idx[i] = make([]int, l)
					}
					bad := func(i, p int) {
						if i < nrows && p < l {
							idx[i][p] = 100 + i*64 + p
						}
					}
					bad(row, pos)
					bad(row, pos+1)
					bad(row, pos+3)
					bad(row+1, 0)
					if row+2 < nrows {
						bad(nrows-1, 2)
					}
					want := fmt.Sprintf("runtime error: index out of range [%d] with length 100", 100+row*64+pos)
					if got := panicOf(func() { pnRowGatherSpec(idx, ws) }); got != want {
						t.Fatalf("the spec panics with %v, want %v", got, want)
					}
					if got := panicOf(func() { RowGather(idx, ws) }); got != want {
						t.Errorf("GOMAXPROCS=%d len=%d row=%d pos=%d: RowGather panics with %v, want %v", procs, l, row, pos, got, want)
					}
				}
			}
		}
	}
}
