package skel

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// boundarySizes returns the sizes around the tile of a single pass with
// k elements per work-item and tiles of tile elements: empty, one
// element, one work-item's elements and one either side, one tile and
// one either side, several tiles and a part, and 2^20+3.
func boundarySizes(k, tile int) []int {
	return []int{0, 1, k - 1, k, k + 1, tile - 1, tile, tile + 1, 5*tile + 3, 1<<20 + 3}
}

// keepRatios are the percentages of elements the boundary tests keep.
var keepRatios = []uint32{0, 10, 50, 90, 100}

// TestFilterBoundaries runs the single-pass filter on the device's own
// tile and on tiles of spMinLocal × 3 elements, at sizes around a
// work-item's elements and a tile (boundarySizes) and keep ratios 0% to
// 100%, checking the count, every kept element and its order (by its
// index), the sum of the kept elements and of all elements.
func TestFilterBoundaries(t *testing.T) {
	spec := Filter{
		Name:    "bound",
		Inputs:  []Param{{"x", Uint32}},
		Outputs: []Param{{"y", Uint32}, {"idx", Int64}, {"b", Uint8}},
		Reductions: []Reduction{
			{Name: "s", Type: Uint64, Op: "r = a + b;", Neutral: "0", Commutative: true},
			{Name: "all", Type: Uint64, Op: "r = a + b;", Neutral: "0", Commutative: true, All: true},
		},
		Args: []Arg{{"pct", "const uint pct"}},
		Body: "keep = x % 100u < pct; y = x * 3u + 1u; idx = soac_index; b = (uchar)(x >> 24); s = x; all = x;",
	}
	for _, small := range []bool{false, true} {
		name := "device"
		if small {
			name = "small"
			spOverride = func(t *spTarget) { t.local, t.k = spMinLocal, 3 }
		}
		f := spec
		f.Name += "_" + name
		k := buildFilter(t, f, SinglePass)
		spOverride = nil
		tg := k.sp.target
		r := rand.New(rand.NewPCG(41, 42))
		for _, n := range boundarySizes(tg.k, int(tg.tile())) {
			x := make([]uint32, n)
			for i := range x {
				x[i] = r.Uint32()
			}
			for _, pct := range keepRatios {
				t.Run(fmt.Sprintf("%s/L%d-K%d/n=%d/keep=%d", name, tg.local, tg.k, n, pct), func(t *testing.T) {
					checkBoundary(t, k, x, pct)
				})
			}
		}
	}
}

func checkBoundary(t *testing.T, k *FilterKernel, x []uint32, pct uint32) {
	n := len(x)
	y, idx, b := make([]uint32, n), make([]int64, n), make([]uint8, n)
	s, all := []uint64{7}, []uint64{7}
	kept, _, err := k.RunArgs([]any{pct}, []HostSlice{Slice(x)}, []HostSlice{Slice(y), Slice(idx), Slice(b)}, []HostSlice{Slice(s), Slice(all)})
	if err != nil {
		t.Fatal(err)
	}
	j := 0
	var ws, wa uint64
	for i, v := range x {
		wa += uint64(v)
		if v%100 >= pct {
			continue
		}
		ws += uint64(v)
		if j < kept && (idx[j] != int64(i) || y[j] != v*3+1 || b[j] != uint8(v>>24)) {
			t.Fatalf("kept element %d is (%d, %d, %d), want (%d, %d, %d)", j, idx[j], y[j], b[j], i, v*3+1, uint8(v>>24))
		}
		j++
	}
	if kept != j {
		t.Fatalf("kept %d, want %d", kept, j)
	}
	if s[0] != ws || all[0] != wa {
		t.Fatalf("sums of kept and all %d, %d; want %d, %d", s[0], all[0], ws, wa)
	}
}
