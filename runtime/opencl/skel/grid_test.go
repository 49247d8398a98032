package skel

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

// gridShapes are (rows, cols, k): one element, fewer than a tile, not
// multiples of a tile or of a Dot group's rows, several groups.
var gridShapes = [][3]int{{1, 1, 1}, {1, 1, 0}, {3, 5, 2}, {17, 16, 16}, {65, 33, 17}, {130, 70, 33}}

// gridRun runs k with the buffers of a, b (written) and out (read back).
func gridRun(t *testing.T, k *GridKernel, rows, cols, inner int, a, b, out []byte) int32 {
	t.Helper()
	d := testkit.Device(t)
	var bufs []*cl.MemObject
	defer func() { d.Recycle(bufs...) }()
	buf := func(data []byte) *cl.MemObject {
		m, err := d.Buffer(max(len(data), 8))
		if err != nil {
			t.Fatal(err)
		}
		bufs = append(bufs, m)
		if len(data) > 0 {
			e, err := d.Queue.EnqueueWriteBuffer(m, true, 0, data, nil)
			if err != nil {
				t.Fatal(err)
			}
			e.Release()
		}
		return m
	}
	ab, bb, ob := buf(a), buf(b), buf(out)
	flag, _, err := k.Run(rows, cols, inner, []any{ab, bb, ob})
	if err != nil {
		t.Fatal(err)
	}
	e, err := d.Queue.EnqueueReadBuffer(ob, true, 0, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.Release()
	return flag
}

// TestGridDot checks the tiled dot product against the sequential fold
// bit for bit (float32 products rounded before each addition), and that
// a panic in the product reaches the flag.
func TestGridDot(t *testing.T) {
	d := testkit.Device(t)
	k, err := Grid{
		Name: "griddot", Result: "float", Out: "c",
		Args: []Arg{{"a", "__global const float *restrict a"}, {"b", "__global const float *restrict b"}, {"c", "__global float *restrict c"}},
		Dot: &Dot{A: "a", B: "b", AType: "float", BType: "float", Neutral: "0.0f",
			Prod: "(soac_x == 99.0f ? (soac_err = max(soac_err, 7), 0.0f) : soac_x * soac_y)", Op: "soac_s + soac_t"},
		Preamble: "#pragma OPENCL FP_CONTRACT OFF",
	}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, s := range gridShapes {
		rows, cols, inner := s[0], s[1], s[2]
		a, b := randF32(r, rows*inner), randF32(r, cols*inner)
		for i := range a {
			a[i] *= float32(math.Pow(2, float64(r.IntN(40)-20)))
		}
		out := make([]float32, rows*cols)
		if flag := gridRun(t, k, rows, cols, inner, cl.Bytes(a), cl.Bytes(b), cl.Bytes(out)); flag != 0 {
			t.Fatalf("%v: flag %d", s, flag)
		}
		for i := range rows {
			for j := range cols {
				want := float32(0)
				for l := range inner {
					want += float32(a[i*inner+l] * b[j*inner+l])
				}
				if got := out[i*cols+j]; math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("%v: (%d, %d) = %v, want %v", s, i, j, got, want)
				}
			}
		}
		if rows*inner > 0 {
			a[len(a)-1] = 99
			if flag := gridRun(t, k, rows, cols, inner, cl.Bytes(a), cl.Bytes(b), cl.Bytes(out)); flag != 7 {
				t.Errorf("%v: flag %d after a panicking product, want 7", s, flag)
			}
		}
	}
}

// TestGridBody checks the general kernel: every element once, at its
// place, and the largest site ID in the flag.
func TestGridBody(t *testing.T) {
	d := testkit.Device(t)
	k, err := Grid{
		Name: "gridbody", Result: "long", Out: "c",
		Args: []Arg{{"a", "__global const long *restrict a"}, {"b", "__global const long *restrict b"}, {"c", "__global long *restrict c"}},
		Body: "soac_v = a[soac_i] * 1000 + b[soac_j];\nif (soac_v == 3002) { soac_err = 3; }\nif (soac_v == 1001) { soac_err = 2; }",
	}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range gridShapes {
		rows, cols := s[0], s[1]
		a, b := make([]int64, rows), make([]int64, cols)
		for i := range a {
			a[i] = int64(i)
		}
		for j := range b {
			b[j] = int64(j)
		}
		out := make([]int64, rows*cols)
		flag := gridRun(t, k, rows, cols, 0, cl.Bytes(a), cl.Bytes(b), cl.Bytes(out))
		want := int32(0)
		if rows > 1 && cols > 1 {
			want = 2
		}
		if rows > 3 && cols > 2 {
			want = 3
		}
		if flag != want {
			t.Errorf("%v: flag %d, want %d", s, flag, want)
		}
		for i := range rows {
			for j := range cols {
				if out[i*cols+j] != int64(i*1000+j) {
					t.Fatalf("%v: (%d, %d) = %d", s, i, j, out[i*cols+j])
				}
			}
		}
	}
}

// TestGridRefusals checks what Build and Run refuse.
func TestGridRefusals(t *testing.T) {
	args := []Arg{{"c", "__global long *restrict c"}}
	for _, c := range []struct {
		g    Grid
		want string
	}{
		{Grid{Name: "1x", Result: "long", Out: "c", Args: args}, "not a C identifier"},
		{Grid{Name: "g", Result: "long", Out: "d", Args: args}, `the output "d" is not an argument`},
		{Grid{Name: "g", Out: "c", Args: args}, "no result type"},
		{Grid{Name: "g", Result: "long", Out: "c", Args: []Arg{{"soac_c", "__global long *soac_c"}}}, "not a usable C identifier"},
		{Grid{Name: "g", Result: "long", Out: "c", Args: args, Dot: &Dot{A: "a", B: "c"}}, "not both arguments"},
	} {
		if _, err := c.g.Source(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.g, err, c.want)
		}
	}
	d := testkit.Device(t)
	k, err := Grid{Name: "gridrun", Result: "long", Out: "c", Args: args, Body: "soac_v = 1;"}.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := k.Run(0, 1, 0, []any{nil}); err == nil {
		t.Error("a grid of 0 rows ran")
	}
	if _, _, err := k.Run(1, 1, 0, nil); err == nil {
		t.Error("a grid ran without its arguments")
	}
}
