package skel

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestScanFloat32(t *testing.T) {
	d := testDevice(t)
	k, err := Scan{Name: "cumsq", Inputs: []Param{{"x", Float32}}, Body: "s = x * x;",
		Op: Reduction{Name: "s", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range sizes {
		x := randF32(r, n)
		out := make([]float32, n)
		for i := range out {
			out[i] = float32(math.NaN())
		}
		if _, err := k.Run([]HostSlice{Slice(x)}, Slice(out)); err != nil {
			t.Fatal(err)
		}
		var acc float64
		for i := range x {
			acc += float64(x[i] * x[i])
			// all terms are non-negative, so the prefix itself bounds them
			if !closeSum(float64(out[i]), acc, acc, i+1, eps32) {
				t.Fatalf("n=%d: out[%d] = %v, want %v", n, i, out[i], acc)
			}
		}
	}
}

func TestScanInt64AndStruct(t *testing.T) {
	d := testDevice(t)
	ki, err := Scan{Name: "cumi64", Inputs: []Param{{"x", Int64}, {"y", Int32}}, Body: "s = x - 3 * (long)y;",
		Op: Reduction{Name: "s", Type: Int64, Op: "r = a + b;", Neutral: "0", Commutative: true}}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	at := affineType(t)
	ka, err := Scan{Name: "cumaff", Inputs: []Param{{"a", Uint32}, {"b", Uint32}}, Body: "f.A = a | 1u; f.B = b;",
		Op: Reduction{Name: "f", Type: at, Op: affineOp, Neutral: "{1u, 0u}"}}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range sizes {
		x, y := make([]int64, n), make([]int32, n)
		a, b := make([]uint32, n), make([]uint32, n)
		for i := range x {
			x[i], y[i] = r.Int64N(1<<50)-1<<49, r.Int32()
			a[i], b[i] = r.Uint32(), r.Uint32()
		}
		oi := make([]int64, n)
		oa := make([]Affine, n)
		if _, err := ki.Run([]HostSlice{Slice(x), Slice(y)}, Slice(oi)); err != nil {
			t.Fatal(err)
		}
		if _, err := ka.Run([]HostSlice{Slice(a), Slice(b)}, Slice(oa)); err != nil {
			t.Fatal(err)
		}
		var acc int64
		f := Affine{1, 0}
		for i := range x {
			acc += x[i] - 3*int64(y[i])
			f = composeAffine(f, Affine{a[i] | 1, b[i]})
			if oi[i] != acc || oa[i] != f {
				t.Fatalf("n=%d i=%d: got %d %+v, want %d %+v", n, i, oi[i], oa[i], acc, f)
			}
		}
	}
}
