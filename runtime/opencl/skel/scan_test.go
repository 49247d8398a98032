package skel

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/internal/testkit"
)

// algorithms are the scan and filter paths every test runs.
var algorithms = []Algorithm{SinglePass, ReduceThenScan}

// buildScan builds s with algorithm a and checks that the kernel runs it.
func buildScan(t *testing.T, s Scan, a Algorithm) *ScanKernel {
	t.Helper()
	s.Algorithm = a
	s.Name += "_" + strings.ReplaceAll(a.String(), "-", "_")
	k, err := s.Build(testkit.Device(t))
	if err != nil {
		t.Fatal(err)
	}
	if k.Algorithm() != a {
		t.Fatalf("%s: built %v, want %v (%s)", s.Name, k.Algorithm(), a, k.Why())
	}
	return k
}

func TestScanFloat32(t *testing.T) {
	for _, a := range algorithms {
		k := buildScan(t, Scan{Name: "cumsq", Inputs: []Param{{"x", Float32}}, Body: "s = x * x;",
			Op: Reduction{Name: "s", Type: Float32, Op: "r = a + b;", Neutral: "0.0f", Commutative: true}}, a)
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
					t.Fatalf("%v n=%d: out[%d] = %v, want %v", a, n, i, out[i], acc)
				}
			}
		}
	}
}

func TestScanInt64AndStruct(t *testing.T) {
	at := affineType(t)
	for _, alg := range algorithms {
		ki := buildScan(t, Scan{Name: "cumi64", Inputs: []Param{{"x", Int64}, {"y", Int32}}, Body: "s = x - 3 * (long)y;",
			Op: Reduction{Name: "s", Type: Int64, Op: "r = a + b;", Neutral: "0", Commutative: true}}, alg)
		ka := buildScan(t, Scan{Name: "cumaff", Inputs: []Param{{"a", Uint32}, {"b", Uint32}}, Body: "f.A = a | 1u; f.B = b;",
			Op: Reduction{Name: "f", Type: at, Op: affineOp, Neutral: "{1u, 0u}"}}, alg)
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
					t.Fatalf("%v n=%d i=%d: got %d %+v, want %d %+v", alg, n, i, oi[i], oa[i], acc, f)
				}
			}
		}
	}
}

// TestScanLastNonZero scans int32 with "the later operand unless it is
// zero": associative, not commutative, and a 4-byte scalar, so the
// single pass takes its packed look-back. Most elements are zero, so
// most prefixes come from far earlier tiles.
func TestScanLastNonZero(t *testing.T) {
	for _, alg := range algorithms {
		k := buildScan(t, Scan{Name: "lastnz", Inputs: []Param{{"x", Int32}}, Body: "v = x;",
			Op: Reduction{Name: "v", Type: Int32, Op: "r = b != 0 ? b : a;", Neutral: "0"}}, alg)
		if alg == SinglePass && !k.sp.lb.packed() {
			t.Errorf("int32 scan: look-back not packed")
		}
		r := rand.New(rand.NewPCG(17, 18))
		for _, n := range sizes {
			x := make([]int32, n)
			for i := range x {
				if r.IntN(5000) == 0 {
					x[i] = r.Int32N(1000) - 500
				}
			}
			out := make([]int32, n)
			if _, err := k.Run([]HostSlice{Slice(x)}, Slice(out)); err != nil {
				t.Fatal(err)
			}
			var last int32
			for i, v := range x {
				if v != 0 {
					last = v
				}
				if out[i] != last {
					t.Fatalf("%v n=%d: out[%d] = %d, want %d", alg, n, i, out[i], last)
				}
			}
		}
	}
}

// TestScanTiles runs the single pass with tiles small enough that the
// sizes give thousands of tiles and look-back windows that run past the
// start, with an exact integer sum and the non-commutative affine map.
func TestScanTiles(t *testing.T) {
	spOverride = func(t *spTarget) { t.local, t.k = spMinLocal, 3 }
	defer func() { spOverride = nil }()
	at := affineType(t)
	ki := buildScan(t, Scan{Name: "tinyi", Inputs: []Param{{"x", Uint32}}, Body: "s = x;",
		Op: Reduction{Name: "s", Type: Uint32, Op: "r = a + b;", Neutral: "0u", Commutative: true}}, SinglePass)
	ka := buildScan(t, Scan{Name: "tinyaff", Inputs: []Param{{"a", Uint32}}, Body: "f.A = a | 1u; f.B = a >> 3;",
		Op: Reduction{Name: "f", Type: at, Op: affineOp, Neutral: "{1u, 0u}"}}, SinglePass)
	if got := ki.sp.target.tile(); got != 3*spMinLocal {
		t.Fatalf("tile of %d elements, want %d", got, 3*spMinLocal)
	}
	r := rand.New(rand.NewPCG(19, 20))
	for _, n := range sizes {
		x := make([]uint32, n)
		for i := range x {
			x[i] = r.Uint32()
		}
		oi, oa := make([]uint32, n), make([]Affine, n)
		if _, err := ki.Run([]HostSlice{Slice(x)}, Slice(oi)); err != nil {
			t.Fatal(err)
		}
		if _, err := ka.Run([]HostSlice{Slice(x)}, Slice(oa)); err != nil {
			t.Fatal(err)
		}
		var s uint32
		f := Affine{1, 0}
		for i, v := range x {
			s += v
			f = composeAffine(f, Affine{v | 1, v >> 3})
			if oi[i] != s || oa[i] != f {
				t.Fatalf("n=%d i=%d: got %d %+v, want %d %+v", n, i, oi[i], oa[i], s, f)
			}
		}
	}
}

// TestScanSmallGroups checks that a tile narrower than spMinLocal falls
// back to reduce-then-scan under AutoAlgorithm and is refused under
// SinglePass.
func TestScanSmallGroups(t *testing.T) {
	spOverride = func(t *spTarget) { t.local = spMinLocal / 2 }
	defer func() { spOverride = nil }()
	s := Scan{Name: "narrow", Inputs: []Param{{"x", Int32}}, Body: "s = x;",
		Op: Reduction{Name: "s", Type: Int32, Op: "r = a + b;", Neutral: "0", Commutative: true}}
	k, err := s.Build(testkit.Device(t))
	if err != nil {
		t.Fatal(err)
	}
	want := "work-items"
	if !testkit.Device(t).Info.IsGPU() {
		want = "CPU device" // AutoAlgorithm's choice before the tile's
	}
	if k.Algorithm() != ReduceThenScan || !strings.Contains(k.Why(), want) {
		t.Errorf("narrow tile: %v (%s), want reduce-then-scan naming %q", k.Algorithm(), k.Why(), want)
	}
	out := make([]int32, 3)
	if _, err := k.Run([]HostSlice{Slice([]int32{1, 2, 3})}, Slice(out)); err != nil || out[2] != 6 {
		t.Errorf("fallback scan: %v, %v", out, err)
	}
	s.Algorithm = SinglePass
	if _, err := s.Build(testkit.Device(t)); err == nil || !strings.Contains(err.Error(), "work-items") {
		t.Errorf("SinglePass with a narrow tile: err = %v, want one naming the work-items", err)
	}
}

// TestScanAutoChoice checks AutoAlgorithm's choice: the single pass on a
// GPU, the multi-pass kernels on other devices, and Source agreeing.
func TestScanAutoChoice(t *testing.T) {
	d := testkit.Device(t)
	s := Scan{Name: "autochoice", Inputs: []Param{{"x", Int32}}, Body: "s = x;",
		Op: Reduction{Name: "s", Type: Int32, Op: "r = a + b;", Neutral: "0", Commutative: true}}
	k, err := s.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	want := map[bool]Algorithm{true: SinglePass, false: ReduceThenScan}[d.Info.IsGPU()]
	if k.Algorithm() != want {
		t.Errorf("auto on %v: %v (%s), want %v", d.Info.Type, k.Algorithm(), k.Why(), want)
	}
	for _, gpu := range []bool{true, false} {
		src, err := s.Source(gpu)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(src, "_sp("); got != gpu {
			t.Errorf("Source(%v) holds the single-pass kernel: %v", gpu, got)
		}
	}
}
