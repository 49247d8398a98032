package matmul

// The parallel backend's functions (the specs' backend=parallel
// directives) against the specs: the same
// result within rounding, the same bits under GOMAXPROCS 1, 2 and 8, on
// sizes that run the sequential path and sizes that split into chunks;
// and bit for bit the association the backend documents for the inner
// products (dotAssoc).

import (
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// dotAssoc is the inner product as the parallel backend sums it
// (rewrite/backend/parallel nested.go): below 8 elements in order, as
// the spec does; from 8 on over 4 accumulators, element i into
// accumulator i mod 4 up to the last multiple of 4, the rest into
// accumulator 0, combined as (a0 + a1) + (a2 + a3). Every product and
// sum is rounded to T (no fused multiply-add), as the generated code's
// conversions make it.
func dotAssoc[T float32 | float64](x, y []T) T {
	if len(x) < 8 {
		var s T
		for i := range x {
			s = T(s + T(x[i]*y[i]))
		}
		return s
	}
	var a [4]T
	i := 0
	for ; i+4 <= len(x); i += 4 {
		for k := range a {
			a[k] = T(a[k] + T(x[i+k]*y[i+k]))
		}
	}
	for ; i < len(x); i++ {
		a[0] = T(a[0] + T(x[i]*y[i]))
	}
	return T(T(a[0]+a[1]) + T(a[2]+a[3]))
}

// matMulAssoc is spec (the product of a and bt, rows of equal length)
// with each element summed as dotAssoc does: the parallel backend's
// result, bit for bit.
func matMulAssoc[T float32 | float64](spec func(a, bt [][]T) [][]T, a, bt [][]T) [][]T {
	c := spec(a, bt)
	for i := range c {
		for j := range c[i] {
			c[i][j] = dotAssoc(a[i], bt[j])
		}
	}
	return c
}

func TestMatMulPar(t *testing.T) {
	// Rows of a: empty, one, below and above the outer grain; inner
	// lengths around the 8 from which the sums split, and 40.
	for _, n := range []int{0, 1, 7, 301} {
		for _, k := range []int{0, 1, 3, 4, 5, 7, 8, 9, 12, 13, 40} {
			if n == 301 && k != 40 {
				continue
			}
			r := extest.Rand(4, n*64+k)
			a, bt := randMatrix(r, n, k), randMatrix(r, 33, k)
			want := matMulSpec(a, bt)
			got := extest.AcrossProcs(t, func() [][]float64 { return MatMulPar(a, bt) })
			if d := extest.Near(got, want); d != "" {
				t.Errorf("n=%d k=%d: MatMulPar: %s", n, k, d)
			}
			if d := diff(got, matMulAssoc(matMulSpec, a, bt)); d != "" {
				t.Errorf("n=%d k=%d: MatMulPar does not sum as documented: %s", n, k, d)
			}
		}
	}
	a := [][]float64{{1, 2}, {1, 2, 3}}
	want := extest.Panic(func() { matMulSpec(a, a) })
	if got := extest.Panic(func() { MatMulPar(a, a) }); got != want {
		t.Errorf("MatMulPar panics with %v, want %v", got, want)
	}
}

// TestMatMulAssocOrder checks that the test data tells dotAssoc's
// association from the spec's: a generator that summed in order, or
// dropped or swapped an accumulator, would fail TestMatMulPar.
func TestMatMulAssocOrder(t *testing.T) {
	r := extest.Rand(4, 301*64+40)
	a, bt := randMatrix(r, 50, 40), randMatrix(r, 33, 40)
	want, assoc := matMulSpec(a, bt), matMulAssoc(matMulSpec, a, bt)
	if diff(assoc, want) == "" {
		t.Errorf("the spec's sums and dotAssoc's agree on every element")
	}
	// A wrong combine: (a0 + a2) + (a1 + a3).
	swapped := 0
	for i := range a {
		for j := range bt {
			x, y := a[i], bt[j]
			var s [4]float64
			for p := range x {
				s[p%4] += x[p] * y[p]
			}
			if v := (s[0] + s[2]) + (s[1] + s[3]); fmt.Sprint(v) != fmt.Sprint(assoc[i][j]) {
				swapped++
			}
		}
	}
	if swapped == 0 {
		t.Errorf("a combine of other pairs gives dotAssoc's sums on every element")
	}
}
