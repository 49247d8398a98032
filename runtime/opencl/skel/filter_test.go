package skel

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

func TestFilterMapReduce(t *testing.T) {
	d := testDevice(t)
	k, err := Filter{
		Name:       "posdouble",
		Inputs:     []Param{{"x", Float32}},
		Outputs:    []Param{{"y", Float32}, {"idx", Int64}},
		Reductions: []Reduction{{Name: "y", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}},
		Body:       "keep = x > 0.25f; y = 2.0f * x; idx = soac_index;",
	}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range sizes {
		x := randF32(r, n)
		y, idx := make([]float32, n), make([]int64, n)
		sum := make([]float32, 1)
		kept, _, err := k.Run([]HostSlice{Slice(x)}, []HostSlice{Slice(y), Slice(idx)}, []HostSlice{Slice(sum)})
		if err != nil {
			t.Fatal(err)
		}
		var want []int
		var ws, abs float64
		for i, v := range x {
			if v > 0.25 {
				want = append(want, i)
				ws += float64(2 * v)
				abs += float64(2 * v)
			}
		}
		if kept != len(want) {
			t.Fatalf("n=%d: kept %d, want %d", n, kept, len(want))
		}
		for j, i := range want {
			if idx[j] != int64(i) || y[j] != 2*x[i] {
				t.Fatalf("n=%d: element %d is (%d, %v), want (%d, %v)", n, j, idx[j], y[j], i, 2*x[i])
			}
		}
		if !closeSum(float64(sum[0]), ws, abs, n, eps32) {
			t.Errorf("n=%d: sum of kept %v, want %v", n, sum[0], ws)
		}
	}
}

// TestFilterStruct keeps structs and folds them with a non-commutative
// operator, which forces the chunked layout in the counting pass.
func TestFilterStruct(t *testing.T) {
	d := testDevice(t)
	at := affineType(t)
	k, err := Filter{
		Name:       "keepaff",
		Inputs:     []Param{{"f", at}, {"w", Uint64}},
		Outputs:    []Param{{"f", at}, {"v", Uint64}},
		Reductions: []Reduction{{Name: "f", Type: at, Op: affineOp, Neutral: "{1u, 0u}"}},
		Body:       "keep = (w & 3) != 0; v = w * 7;",
	}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(15, 16))
	for _, n := range sizes {
		f, w := make([]Affine, n), make([]uint64, n)
		for i := range f {
			f[i], w[i] = Affine{r.Uint32() | 1, r.Uint32()}, r.Uint64()
		}
		of, ov := make([]Affine, n), make([]uint64, n)
		comp := make([]Affine, 1)
		kept, _, err := k.Run([]HostSlice{Slice(f), Slice(w)}, []HostSlice{Slice(of), Slice(ov)}, []HostSlice{Slice(comp)})
		if err != nil {
			t.Fatal(err)
		}
		j := 0
		want := Affine{1, 0}
		for i := range f {
			if w[i]&3 == 0 {
				continue
			}
			if j >= kept || of[j] != f[i] || ov[j] != w[i]*7 {
				t.Fatalf("n=%d: kept element %d wrong or missing (kept %d)", n, j, kept)
			}
			want = composeAffine(want, f[i])
			j++
		}
		if j != kept || comp[0] != want {
			t.Fatalf("n=%d: kept %d (want %d), composition %+v (want %+v)", n, kept, j, comp[0], want)
		}
	}
}

func TestFilterResultLength(t *testing.T) {
	d := testDevice(t)
	k, err := Filter{Name: "pos_sum", Inputs: []Param{{"x", Float32}},
		Reductions: []Reduction{{Name: "x", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}},
		Body:       "keep = x > 0;"}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	xs := []float32{1, -2, 3}
	for _, res := range [][]float32{{}, {0, 0}} {
		if _, _, err := k.Run([]HostSlice{Slice(xs)}, nil, []HostSlice{Slice(res)}); err == nil || !strings.Contains(err.Error(), "one element") {
			t.Errorf("result slice of %d elements: err = %v, want one naming \"one element\"", len(res), err)
		}
	}
	sum := []float32{0}
	if _, _, err := k.Run([]HostSlice{Slice(xs)}, nil, []HostSlice{Slice(sum)}); err != nil || sum[0] != 4 {
		t.Errorf("sum of kept = %v, %v; want 4, nil", sum[0], err)
	}
}

// TestResultBufferSize checks that RunDevice refuses a result buffer
// smaller than one value of its reduction, which the kernel would write
// past.
func TestResultBufferSize(t *testing.T) {
	d := testDevice(t)
	red := []Reduction{{Name: "x", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}}
	f, err := Filter{Name: "small_res", Inputs: []Param{{"x", red[0].Type}}, Reductions: red, Body: "keep = x > 0;"}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Redomap{Name: "small_res_r", Inputs: []Param{{"x", red[0].Type}}, Reductions: red}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	in, err := d.Buffer(4 * red[0].Type.Size)
	if err != nil {
		t.Fatal(err)
	}
	small, err := d.Buffer(red[0].Type.Size - 1)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Recycle(in, small)
	if _, _, err := f.RunDevice(4, []*cl.MemObject{in}, nil, []*cl.MemObject{small}); err == nil || !strings.Contains(err.Error(), "result x") {
		t.Errorf("Filter.RunDevice with a %d-byte result buffer: err = %v, want one naming result x", small.Size(), err)
	}
	if _, err := r.RunDevice(4, []*cl.MemObject{in}, nil, []*cl.MemObject{small}); err == nil || !strings.Contains(err.Error(), "result x") {
		t.Errorf("Redomap.RunDevice with a %d-byte result buffer: err = %v, want one naming result x", small.Size(), err)
	}
}
