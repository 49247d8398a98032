package matmul

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func randMatrix(r *rand.Rand, rows, cols int) [][]float64 {
	m := make([][]float64, rows)
	for i := range m {
		m[i] = extest.Floats(r, cols, -1, 1)
	}
	return m
}

// diff describes the first difference between two matrices, bit for bit and
// nil for nil, or returns "".
func diff(got, want [][]float64) string {
	if (got == nil) != (want == nil) || len(got) != len(want) {
		return "shape differs"
	}
	for i := range got {
		if d := extest.DiffFloats(got[i], want[i]); d != "" {
			return fmt.Sprintf("row %d: %s", i, d)
		}
	}
	return ""
}

func TestMatMulKnown(t *testing.T) {
	a := [][]float64{{1, 2}, {3, 4}, {5, 6}}
	bt := [][]float64{{1, 0}, {0, 1}, {1, 1}, {2, -1}} // b is 2×4
	want := [][]float64{{1, 2, 3, 0}, {3, 4, 7, 2}, {5, 6, 11, 4}}
	if d := diff(matMulSpec(a, bt), want); d != "" {
		t.Errorf("matMulSpec: %s", d)
	}
}

// shapes are (rows of a, rows of bt, inner length); the last two have 1e3 and
// 1e6 multiply-adds, the sizes the other examples use.
var shapes = [][3]int{{0, 0, 0}, {0, 3, 2}, {3, 0, 2}, {2, 3, 0}, {1, 1, 1}, {7, 3, 5}, {10, 10, 10}, {100, 100, 100}}

func TestMatMul(t *testing.T) {
	for _, s := range shapes {
		if testing.Short() && s[0]*s[1]*s[2] > 1000 {
			continue
		}
		r := extest.Rand(12, s[0]*s[1]*s[2]+s[0])
		a, bt := randMatrix(r, s[0], s[2]), randMatrix(r, s[1], s[2])
		want := matMulSpec(a, bt)
		for _, im := range impls[1:] {
			if d := diff(im.fn(a, bt), want); d != "" {
				t.Errorf("%v %s: %s", s, im.name, d)
			}
		}
	}
}

func TestMatMulUnequalRows(t *testing.T) {
	a := [][]float64{{1, 2}, {1, 2, 3}}
	bt := [][]float64{{1, 2}, {1, 2, 3}}
	want := extest.Panic(func() { matMulSpec(a, bt) })
	if want != "soac.Map2: unequal lengths 2 and 3" {
		t.Fatalf("matMulSpec panics with %v", want)
	}
	for _, im := range impls {
		if im.name == "lo" {
			continue // lo.ZipBy2 pads instead
		}
		if got := extest.Panic(func() { im.fn(a, bt) }); got != want {
			t.Errorf("%s panics with %v, want %v", im.name, got, want)
		}
	}
}
