package matmul

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// randMatrix32 returns a rows×cols float32 matrix of values of wide
// magnitudes (2^-30 to 2^30, so that a sum in another order or with a
// fused multiply-add rounds differently), with special values (NaN,
// ±Inf, ±0, subnormals) when special is set.
func randMatrix32(r *rand.Rand, rows, cols int, special bool) [][]float32 {
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1e-40, -3e-39, math.MaxFloat32}
	m := make([][]float32, rows)
	for i := range m {
		m[i] = make([]float32, cols)
		for j := range m[i] {
			m[i][j] = float32((r.Float64()*2 - 1) * math.Pow(2, float64(r.IntN(61)-30)))
			if special && r.IntN(50) == 0 {
				m[i][j] = specials[r.IntN(len(specials))]
			}
		}
	}
	return m
}

// sameFloat32 reports whether a and b have the same bits, or are both
// NaN: a NaN's payload is not part of the result (Go leaves it to the
// hardware, which differs between the CPU and a GPU).
func sameFloat32(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

// diff32 describes the first difference between two float32 matrices,
// or returns "".
func diff32(got, want [][]float32) string {
	if (got == nil) != (want == nil) || len(got) != len(want) {
		return fmt.Sprintf("shape differs: %d rows (nil %v), want %d (nil %v)", len(got), got == nil, len(want), want == nil)
	}
	for i := range got {
		if (got[i] == nil) != (want[i] == nil) || len(got[i]) != len(want[i]) {
			return fmt.Sprintf("row %d: %d elements (nil %v), want %d (nil %v)", i, len(got[i]), got[i] == nil, len(want[i]), want[i] == nil)
		}
		for j := range got[i] {
			if !sameFloat32(got[i][j], want[i][j]) {
				return fmt.Sprintf("(%d, %d) = %v (%#x), want %v (%#x)", i, j, got[i][j], math.Float32bits(got[i][j]), want[i][j], math.Float32bits(want[i][j]))
			}
		}
	}
	return ""
}

// shapes32 are (rows of a, rows of bt, inner length): empty ones, one
// element, fewer than a tile (16), not multiples of a tile or of the
// 64 rows a work-group computes, several groups.
var shapes32 = [][3]int{{0, 0, 0}, {0, 3, 2}, {3, 0, 2}, {2, 3, 0}, {1, 1, 1}, {7, 3, 5}, {17, 16, 16}, {65, 33, 17}, {130, 70, 33}}

// TestMatMul32 compares the cpu form with the spec, bit for bit, and
// the parallel form with the spec's association for inner products
// below 8 elements and with 4 accumulators above (matMulAssoc: the
// parallel backend runs rows in parallel and splits each sum so), under
// GOMAXPROCS 1, 2 and 8.
func TestMatMul32(t *testing.T) {
	for _, s := range shapes32 {
		for _, special := range []bool{false, true} {
			r := extest.Rand(21, s[0]*s[1]*s[2]+s[0])
			a, bt := randMatrix32(r, s[0], s[2], special), randMatrix32(r, s[1], s[2], special)
			want := matMul32Spec(a, bt)
			if d := diff32(MatMul32(a, bt), want); d != "" {
				t.Errorf("%v MatMul32: %s", s, d)
			}
			got := extest.AcrossProcs(t, func() [][]float32 { return MatMul32Par(a, bt) })
			if d := diff32(got, matMulAssoc(matMul32Spec, a, bt)); d != "" {
				t.Errorf("%v MatMul32Par: %s", s, d)
			}
		}
	}
}

// TestMatMul32Order checks that the test data tells summation orders
// apart: the elements summed right to left, or each product added with
// a fused multiply-add, differ from the spec somewhere in the largest
// shape, so that TestMatMul32CL would catch a kernel that reassociates
// or contracts.
func TestMatMul32Order(t *testing.T) {
	s := shapes32[len(shapes32)-1]
	r := extest.Rand(21, s[0]*s[1]*s[2]+s[0])
	a, bt := randMatrix32(r, s[0], s[2], false), randMatrix32(r, s[1], s[2], false)
	want := matMul32Spec(a, bt)
	reversed, fused := 0, 0
	for i := range a {
		for j := range bt {
			var rev, fma float32
			for k := len(a[i]) - 1; k >= 0; k-- {
				rev += float32(a[i][k] * bt[j][k])
			}
			for k := range a[i] {
				fma = float32(math.FMA(float64(a[i][k]), float64(bt[j][k]), float64(fma)))
			}
			if !sameFloat32(rev, want[i][j]) {
				reversed++
			}
			if !sameFloat32(fma, want[i][j]) {
				fused++
			}
		}
	}
	if reversed == 0 || fused == 0 {
		t.Errorf("%d elements differ summed right to left and %d with fused multiply-adds: the data cannot tell the orders apart", reversed, fused)
	}
	if diff32(matMulAssoc(matMul32Spec, a, bt), want) == "" {
		t.Errorf("the parallel backend's association (matMulAssoc) gives the spec's sums on every element: the data cannot tell them apart")
	}
}

// TestMatMul32CL compares the opencl variant, run on the device, with the
// spec, bit for bit (NaNs as NaNs), and checks that the device ran it:
// each element is a work-item's sum, in order, of products rounded to
// float32 (no contraction). Ragged rows raise the spec's panic: the host
// does not launch the dot product (launch.RowLen), the CPU code raises
// it.
func TestMatMul32CL(t *testing.T) {
	cltest.Require(t, soacgenCLMatMul32CL)
	for _, s := range shapes32 {
		for _, special := range []bool{false, true} {
			r := extest.Rand(21, s[0]*s[1]*s[2]+s[0])
			a, bt := randMatrix32(r, s[0], s[2], special), randMatrix32(r, s[1], s[2], special)
			want := matMul32Spec(a, bt)
			k0, _ := launch.DeviceTime()
			var got [][]float32
			cltest.OnDevice(t, fmt.Sprintf("%v MatMul32CL", s), func() { got = MatMul32CL(a, bt) })
			if d := diff32(got, want); d != "" {
				t.Errorf("%v MatMul32CL: %s", s, d)
			}
			if k1, _ := launch.DeviceTime(); s[0]*s[1] > 0 && k1 == k0 {
				t.Errorf("%v MatMul32CL: no kernel ran on the device", s)
			}
		}
	}
	for _, c := range []struct{ a, bt [][]float32 }{
		{[][]float32{{1, 2}, {1, 2, 3}}, [][]float32{{1, 2}, {1, 2, 3}}},
		{[][]float32{{1, 2}}, [][]float32{{1, 2}, {1, 2}, {3}}},
		{[][]float32{{1, 2, 3}, {1, 2, 3}}, [][]float32{{1, 2}}},
	} {
		want := extest.Panic(func() { matMul32Spec(c.a, c.bt) })
		if want == nil {
			t.Fatalf("%v × %v: the spec does not panic", c.a, c.bt)
		}
		if got := extest.Panic(func() { MatMul32CL(c.a, c.bt) }); got != want {
			t.Errorf("%v × %v: MatMul32CL panics with %v, want %v", c.a, c.bt, got, want)
		}
	}
}
