package skel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sizes are the lengths every skeleton is tested at: empty, one, fewer
// than a work-group, not a multiple of any work-group size, 1e6, and one
// more than a large power of two.
var sizes = []int{0, 1, 7, 1000, 12345, 1_000_000, 1<<17 + 1}

// Affine is x ↦ A·x + B over uint32 with wrap-around: composition is
// associative but not commutative, so it catches reordering.
type Affine struct{ A, B uint32 }

// Pair is a sum and a count, mixing float64 and int64.
type Pair struct {
	S float64
	C int64
}

func mustStruct(t testing.TB, name string, fs ...Field) Type {
	t.Helper()
	ty, err := Struct(name, fs...)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

// affineType is Affine's OpenCL description; compose is "first a, then b".
func affineType(t testing.TB) Type {
	return mustStruct(t, "affine", Field{Name: "A", Type: Uint32}, Field{Name: "B", Type: Uint32})
}

const affineOp = "r.A = a.A * b.A; r.B = a.B * b.A + b.B;"

func composeAffine(a, b Affine) Affine { return Affine{a.A * b.A, a.B*b.A + b.B} }

func randF32(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.Float64()*2 - 1)
	}
	return x
}

func randF64(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = r.Float64()*2 - 1
	}
	return x
}

// closeSum reports whether got is within the rounding error of a
// reassociated sum of n terms whose magnitudes add up to abs: n·eps·abs,
// plus a few ulps of slack for the terms' own rounding.
func closeSum(got, want, abs float64, n int, eps float64) bool {
	return math.Abs(got-want) <= float64(n+4)*eps*abs+1e-300
}

const eps32 = 1.0 / (1 << 23)
const eps64 = 1.0 / (1 << 52)

func TestTypes(t *testing.T) {
	at := affineType(t)
	if at.Size != 8 || at.Align != 4 {
		t.Fatalf("affine: size %d align %d", at.Size, at.Align)
	}
	if err := at.CheckGo([]Affine{}); err != nil {
		t.Fatal(err)
	}
	pt := mustStruct(t, "pair", Field{Name: "S", Type: Float64}, Field{Name: "C", Type: Int64})
	if err := pt.CheckGo(Pair{}); err != nil {
		t.Fatal(err)
	}
	if err := pt.CheckGo(Affine{}); err == nil {
		t.Fatal("Pair layout accepted for Affine")
	}
	type padded struct {
		A int32
		B float64
	}
	pd := mustStruct(t, "padded", Field{Name: "A", Type: Int32}, Field{Name: "B", Type: Float64})
	if pd.Size != 16 || pd.Fields[1].Offset != 8 {
		t.Fatalf("padded layout %+v", pd)
	}
	if err := pd.CheckGo(padded{}); err != nil {
		t.Fatal(err)
	}
	if err := Float32.CheckGo([]int32{}); err == nil {
		t.Fatal("int32 accepted as float")
	}
	// Small fields pack as in Go: offsets 0, 1, 2, 4, 6; size 8.
	type small struct {
		A uint8
		B bool
		C int16
		D uint16
		E int8
	}
	sm := mustStruct(t, "small", Field{Name: "A", Type: Uint8}, Field{Name: "B", Type: Bool}, Field{Name: "C", Type: Int16}, Field{Name: "D", Type: Uint16}, Field{Name: "E", Type: Int8})
	if err := sm.CheckGo(small{}); err != nil || sm.Size != 8 || sm.Align != 2 {
		t.Fatalf("small: %v, size %d align %d", err, sm.Size, sm.Align)
	}
	if err := Uint8.CheckGo([]bool{}); err == nil {
		t.Fatal("bool accepted as uint8")
	}
	if err := Int16.CheckGo([]uint16{}); err == nil {
		t.Fatal("uint16 accepted as int16")
	}
	if _, err := Struct("bad name"); err == nil {
		t.Fatal("bad struct name accepted")
	}
	if got := pt.Typedef(); got != "typedef struct { double S; long C; } pair;\n" {
		t.Fatalf("typedef %q", got)
	}
}
