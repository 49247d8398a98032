package skel

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

func TestMapSeveralInputsOutputs(t *testing.T) {
	d := testkit.Device(t)
	k, err := Redomap{
		Name:    "axpy",
		Inputs:  []Param{{"x", Float32}, {"y", Float32}, {"j", Int64}},
		Outputs: []Param{{"z", Float32}, {"w", Int64}},
		Body:    "z = 2.0f * x + y; w = j * 3 - (long)soac_index;",
	}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		x, y := randF32(r, n), randF32(r, n)
		j := make([]int64, n)
		for i := range j {
			j[i] = r.Int64N(1 << 40)
		}
		z := make([]float32, n)
		w := make([]int64, n)
		for i := range z {
			z[i], w[i] = float32(math.NaN()), -1 // poison
		}
		if _, err := k.Run([]HostSlice{Slice(x), Slice(y), Slice(j)}, []HostSlice{Slice(z), Slice(w)}, nil); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		for i := range z {
			if wz := 2*x[i] + y[i]; z[i] != wz || w[i] != j[i]*3-int64(i) {
				t.Fatalf("n=%d i=%d: z=%v w=%v, want %v %v", n, i, z[i], w[i], wz, j[i]*3-int64(i))
			}
		}
	}
}

func TestMapReduceScalars(t *testing.T) {
	d := testkit.Device(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, lay := range []Layout{Chunked, Interleaved, Tiled} {
		f32, err := Redomap{Name: "ssq32" + lay.String(), Inputs: []Param{{"x", Float32}}, Body: "s = x * x;",
			Reductions: []Reduction{{Name: "s", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}}, Layout: lay}.Build(d)
		if err != nil {
			t.Fatal(err)
		}
		i64, err := Redomap{Name: "sumu64" + lay.String(), Inputs: []Param{{"x", Uint64}}, Body: "s = x * 2654435761u;",
			Reductions: []Reduction{{Name: "s", Type: Uint64, Op: "r = a + b;", Neutral: "0", Commutative: true}}, Layout: lay}.Build(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range sizes {
			x := randF32(r, n)
			var want, abs float64
			for _, v := range x {
				want += float64(v * v)
				abs += float64(v * v)
			}
			got := make([]float32, 1)
			if _, err := f32.Run([]HostSlice{Slice(x)}, nil, []HostSlice{Slice(got)}); err != nil {
				t.Fatal(err)
			}
			if !closeSum(float64(got[0]), want, abs, n, eps32) {
				t.Errorf("%v n=%d: float32 sum of squares %v, want %v", lay, n, got[0], want)
			}
			u := make([]uint64, n)
			var wu uint64
			for i := range u {
				u[i] = r.Uint64()
				wu += u[i] * 2654435761
			}
			gu := make([]uint64, 1)
			if _, err := i64.Run([]HostSlice{Slice(u)}, nil, []HostSlice{Slice(gu)}); err != nil {
				t.Fatal(err)
			}
			if gu[0] != wu {
				t.Errorf("%v n=%d: uint64 sum %d, want %d", lay, n, gu[0], wu)
			}
		}
	}
}

// TestMapReduceNonCommutative folds affine maps, whose composition is
// associative but not commutative: any reordering changes the result.
func TestMapReduceNonCommutative(t *testing.T) {
	d := testkit.Device(t)
	at := affineType(t)
	spec := Redomap{Name: "compose", Inputs: []Param{{"a", Uint32}, {"b", Uint32}}, Body: "f.A = a | 1u; f.B = b;",
		Reductions: []Reduction{{Name: "f", Type: at, Op: affineOp, Neutral: "{1u, 0u}"}}}
	k, err := spec.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[bool]Layout{false: Chunked, true: Tiled}[d.Info.IsGPU()]; k.Layout() != want {
		t.Fatalf("non-commutative reduction got layout %v, want %v", k.Layout(), want)
	}
	if _, err := (Redomap{Name: "bad", Inputs: []Param{{"a", Uint32}}, Body: "f.A = a; f.B = a;",
		Reductions: []Reduction{{Name: "f", Type: at, Op: affineOp, Neutral: "{1u, 0u}"}}, Layout: Interleaved}).Build(d); err == nil {
		t.Fatal("interleaved layout accepted for a non-commutative operator")
	}
	for _, lay := range []Layout{Chunked, Tiled} {
		spec.Name, spec.Layout = "compose_"+lay.String(), lay
		k, err := spec.Build(d)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(5, 6))
		for _, n := range sizes {
			a, b := make([]uint32, n), make([]uint32, n)
			want := Affine{1, 0}
			for i := range a {
				a[i], b[i] = r.Uint32(), r.Uint32()
				want = composeAffine(want, Affine{a[i] | 1, b[i]})
			}
			got := make([]Affine, 1)
			if _, err := k.Run([]HostSlice{Slice(a), Slice(b)}, nil, []HostSlice{Slice(got)}); err != nil {
				t.Fatal(err)
			}
			if got[0] != want {
				t.Errorf("%v n=%d: composition %+v, want %+v", lay, n, got[0], want)
			}
		}
	}
}

// TestHorizontal fuses two reductions (a float64/int64 struct and an
// int32 maximum) and a map of the same input into one pass.
func TestHorizontal(t *testing.T) {
	d := testkit.Device(t)
	if !d.Info.FP64 {
		t.Skip("device lacks cl_khr_fp64")
	}
	pt := mustStruct(t, "pair", Field{Name: "S", Type: Float64}, Field{Name: "C", Type: Int64})
	for _, lay := range []Layout{Auto, Tiled} {
		testHorizontal(t, d, pt, lay)
	}
}

// testHorizontal is TestHorizontal in one layout.
func testHorizontal(t *testing.T, d *device.Device, pt Type, lay Layout) {
	k, err := Redomap{
		Layout:  lay,
		Name:    "horiz" + lay.String(),
		Inputs:  []Param{{"x", Float64}, {"q", Int32}},
		Outputs: []Param{{"y", Float64}},
		Reductions: []Reduction{
			{Name: "p", Type: pt, Op: "r.S = a.S + b.S; r.C = a.C + b.C;", Neutral: "{0.0, 0}", Commutative: true},
			{Name: "q", Type: Int32, Op: "r = max(a, b);", Neutral: "INT_MIN", Commutative: true},
		},
		Body: "y = x * 0.5 + 1.0; p.S = y; p.C = x > 0.0 ? 1 : 0;",
	}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range sizes {
		x := randF64(r, n)
		q := make([]int32, n)
		wq := int32(math.MinInt32)
		var ws, abs float64
		var wc int64
		for i := range x {
			q[i] = r.Int32() - 1<<30
			wq = max(wq, q[i])
			ws += x[i]*0.5 + 1
			abs += math.Abs(x[i]*0.5 + 1)
			if x[i] > 0 {
				wc++
			}
		}
		y := make([]float64, n)
		gp, gq := make([]Pair, 1), make([]int32, 1)
		if _, err := k.Run([]HostSlice{Slice(x), Slice(q)}, []HostSlice{Slice(y)}, []HostSlice{Slice(gp), Slice(gq)}); err != nil {
			t.Fatal(err)
		}
		for i := range y {
			if y[i] != x[i]*0.5+1 {
				t.Fatalf("%v n=%d: y[%d] = %v", lay, n, i, y[i])
			}
		}
		if gp[0].C != wc || gq[0] != wq || !closeSum(gp[0].S, ws, abs, n, eps64) {
			t.Errorf("%v n=%d: got %+v max %d, want {%v %d} max %d", lay, n, gp[0], gq[0], ws, wc, wq)
		}
	}
}

func TestRedomapErrors(t *testing.T) {
	d := testkit.Device(t)
	_, err := Redomap{Name: "broken", Inputs: []Param{{"x", Float32}}, Outputs: []Param{{"y", Float32}}, Body: "y = no_such_fn(x);"}.Build(d)
	if err == nil || !strings.Contains(err.Error(), "no_such_fn") || !strings.Contains(err.Error(), "CL_BUILD_PROGRAM_FAILURE") {
		t.Fatalf("build error without log: %v", err)
	}
	k, err := Redomap{Name: "sq", Inputs: []Param{{"x", Float32}}, Outputs: []Param{{"y", Float32}}, Body: "y = x * x;"}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Run([]HostSlice{Slice([]float64{1})}, []HostSlice{Slice([]float32{0})}, nil); err == nil {
		t.Fatal("float64 input accepted for float32 parameter")
	}
	if _, err := k.Run([]HostSlice{Slice([]float32{1, 2})}, []HostSlice{Slice([]float32{0})}, nil); err == nil {
		t.Fatal("length mismatch accepted")
	}
}
