package skel

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
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

// TestFilterScan runs a filter then a scan of its kept elements (Filter.Scan)
// at the boundary sizes and keep ratios of TestFilterBoundaries, on the
// device's tile and on tiles of spMinLocal × 3: an exact integer sum
// beside an output, and the composition of affine maps, which does not
// commute, so that a kept element combined out of order shows.
func TestFilterScan(t *testing.T) {
	at := affineType(t)
	sum := Filter{Name: "fscan", Inputs: []Param{{"x", Uint32}}, Outputs: []Param{{"idx", Int64}},
		Args: []Arg{{"pct", "const uint pct"}},
		Body: "keep = x % 100u < pct; idx = soac_index; s = (ulong)x;",
		Scan: &Reduction{Name: "s", Type: Uint64, Op: "r = a + b;", Neutral: "0", Commutative: true}}
	aff := Filter{Name: "fscanaff", Inputs: []Param{{"x", Uint32}},
		Args: []Arg{{"pct", "const uint pct"}},
		Body: "keep = x % 100u < pct; f.A = x | 1u; f.B = x >> 3;",
		Scan: &Reduction{Name: "f", Type: at, Op: affineOp, Neutral: "{1u, 0u}"}}
	for _, small := range []bool{false, true} {
		name := "device"
		if small {
			name = "small"
			spOverride = func(t *spTarget) { t.local, t.k = spMinLocal, 3 }
		}
		ks, ka := sum, aff
		ks.Name += "_" + name
		ka.Name += "_" + name
		k1, k2 := buildFilter(t, ks, SinglePass), buildFilter(t, ka, SinglePass)
		spOverride = nil
		tg := k1.sp.target
		r := rand.New(rand.NewPCG(43, 44))
		for _, n := range boundarySizes(tg.k, int(tg.tile())) {
			x := make([]uint32, n)
			for i := range x {
				x[i] = r.Uint32()
			}
			for _, pct := range keepRatios {
				t.Run(fmt.Sprintf("%s/L%d-K%d/n=%d/keep=%d", name, tg.local, tg.k, n, pct), func(t *testing.T) {
					checkFilterScan(t, k1, k2, x, pct)
				})
			}
		}
	}
	if _, err := sum.Build(testkit.Device(t)); err != nil {
		t.Errorf("AutoAlgorithm with a scan: %v", err)
	}
	sum.Algorithm = ReduceThenScan
	if _, err := sum.Build(testkit.Device(t)); err == nil || !strings.Contains(err.Error(), "single pass only") {
		t.Errorf("ReduceThenScan with a scan: err = %v, want one naming the single pass", err)
	}
}

func checkFilterScan(t *testing.T, ks, ka *FilterKernel, x []uint32, pct uint32) {
	n := len(x)
	idx, s, f := make([]int64, n), make([]uint64, n), make([]Affine, n)
	kept, _, err := ks.RunArgs([]any{pct}, []HostSlice{Slice(x)}, []HostSlice{Slice(idx), Slice(s)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kept2, _, err := ka.RunArgs([]any{pct}, []HostSlice{Slice(x)}, []HostSlice{Slice(f)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	j := 0
	var ws uint64
	wf := Affine{1, 0}
	for i, v := range x {
		if v%100 >= pct {
			continue
		}
		ws += uint64(v)
		wf = composeAffine(wf, Affine{v | 1, v >> 3})
		if j < kept && (idx[j] != int64(i) || s[j] != ws) {
			t.Fatalf("kept element %d is (%d, %d), want (%d, %d)", j, idx[j], s[j], i, ws)
		}
		if j < kept2 && f[j] != wf {
			t.Fatalf("kept element %d: composition %+v, want %+v", j, f[j], wf)
		}
		j++
	}
	if kept != j || kept2 != j {
		t.Fatalf("kept %d and %d, want %d", kept, kept2, j)
	}
}
