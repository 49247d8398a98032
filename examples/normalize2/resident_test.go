package normalize2

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// transfers returns the arrays uploaded and downloaded by generated
// kernels during f.
func transfers(f func()) (up, down int64) {
	u0, d0 := launch.Transfers()
	f()
	u1, d1 := launch.Transfers()
	return u1 - u0, d1 - d0
}

// broken returns a copy of k whose build fails (its element code does
// not compile), logging nothing: the generated code runs its CPU code.
func broken(t *testing.T, k *launch.Redomap) *launch.Redomap {
	old := launch.Logf
	launch.Logf = func(string, ...any) {}
	t.Cleanup(func() { launch.Logf = old })
	spec := k.Spec
	spec.Name += "Broken"
	spec.Body = "this is not OpenCL C;"
	return &launch.Redomap{At: k.At, FP64: k.FP64, Spec: spec}
}

// checkSquares compares SquaresCL with its spec: each element within
// 1e-12 relative (the sum is reassociated on the device).
func checkSquares(t *testing.T, what string, xs []float64) {
	t.Helper()
	want, got := squaresCLSpec(xs), SquaresCL(xs)
	if len(got) != len(want) || (got == nil) != (want == nil) {
		t.Fatalf("%s n=%d: %d elements (nil %v), want %d (nil %v)", what, len(xs), len(got), got == nil, len(want), want == nil)
	}
	for i := range got {
		if !cltest.Close(got[i], want[i], 1e-12, 0) {
			t.Fatalf("%s n=%d: [%d] = %v, want %v", what, len(xs), i, got[i], want[i])
		}
	}
}

// TestSquaresCL: the squares stay on the device between SquaresCL's two
// kernels (one upload, of xs, and one download, of the result, per call;
// four without residency), and the results equal the spec's, also for
// NaN, ±Inf and ±0 elements.
func TestSquaresCL(t *testing.T) {
	cltest.Require(t, soacgenCLSquaresCL, soacgenCLSquaresCL2)
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(2, n), n, -1, 2)
		up, down := transfers(func() { checkSquares(t, "random", xs) })
		if n > 0 && (up != 1 || down != 1) {
			t.Errorf("n=%d: %d uploads and %d downloads per call, want 1 and 1", n, up, down)
		}
	}
	// The counter sees the round trip when the squares are not kept.
	launch.KeepOnDevice = false
	up, down := transfers(func() { checkSquares(t, "roundtrip", []float64{1, 2, 3}) })
	launch.KeepOnDevice = true
	if up != 2 || down != 2 {
		t.Errorf("without keeping: %d uploads and %d downloads per call, want 2 and 2", up, down)
	}
	checkSquares(t, "special", []float64{0, math.Copysign(0, -1), 1, -2, math.Inf(1), math.Inf(-1), 3})
	checkSquares(t, "nan", []float64{1, math.NaN(), 2})
}

// TestNormalize2CLUploadsOnce: Normalize2CL's two kernels read xs from
// one upload, and download the two results.
func TestNormalize2CLUploadsOnce(t *testing.T) {
	cltest.Require(t, soacgenCLNormalize2CL, soacgenCLNormalize2CL2)
	xs := extest.Floats(extest.Rand(3, 1000), 1000, -1, 2)
	up, down := transfers(func() { Normalize2CL(xs) })
	if up != 1 || down != 2 {
		t.Errorf("%d uploads and %d downloads per call, want 1 and 2", up, down)
	}
}

// TestSquaresCLFallbacks: when one kernel cannot run on the device, the
// other still does and the result is the spec's: the second's CPU code
// downloads the squares the first left on the device (one download);
// the second uploads the squares the first's CPU code computed.
func TestSquaresCLFallbacks(t *testing.T) {
	cltest.Require(t, soacgenCLSquaresCL, soacgenCLSquaresCL2)
	k1, k2 := soacgenCLSquaresCL, soacgenCLSquaresCL2
	defer func() { soacgenCLSquaresCL, soacgenCLSquaresCL2 = k1, k2 }()
	xs := extest.Floats(extest.Rand(4, 5001), 5001, -1, 2)
	for _, c := range []struct {
		name             string
		first, second    bool // which run on the device
		wantUp, wantDown int64
	}{
		{"second on the CPU", true, false, 1, 1},
		{"first on the CPU", false, true, 1, 1},
		{"both on the CPU", false, false, 0, 0},
	} {
		soacgenCLSquaresCL, soacgenCLSquaresCL2 = k1, k2
		if !c.first {
			soacgenCLSquaresCL = broken(t, k1)
		}
		if !c.second {
			soacgenCLSquaresCL2 = broken(t, k2)
		}
		up, down := transfers(func() { checkSquares(t, c.name, xs) })
		if up != c.wantUp || down != c.wantDown {
			t.Errorf("%s: %d uploads and %d downloads, want %d and %d", c.name, up, down, c.wantUp, c.wantDown)
		}
	}
}

// catch returns f's result, or the text of its panic.
func catch(f func() []int64) (r []int64, p string) {
	defer func() {
		if e := recover(); e != nil {
			p = fmt.Sprint(e)
		}
	}()
	return f(), ""
}

// TestQuotientsCL: integers identical to the spec's; where the second
// kernel divides by zero on the device, its CPU code (on the x+1
// downloaded from the device) raises the spec's panic.
func TestQuotientsCL(t *testing.T) {
	cltest.Require(t, soacgenCLQuotientsCL, soacgenCLQuotientsCL2)
	r := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{1, 2, 7, 1000, 100001} {
		xs := make([]int64, n)
		for i := range xs {
			xs[i] = r.Int64N(1<<40) - 1<<39
			if xs[i] == -1 {
				xs[i] = 0
			}
		}
		for _, zero := range []int{-1, 0, n - 1, n / 2} {
			ys := append([]int64(nil), xs...)
			if zero >= 0 {
				ys[zero] = -1
			}
			want, wantP := catch(func() []int64 { return quotientsCLSpec(ys) })
			got, gotP := catch(func() []int64 { return QuotientsCL(ys) })
			if gotP != wantP {
				t.Fatalf("n=%d zero at %d: panic %q, want %q", n, zero, gotP, wantP)
			}
			if len(got) != len(want) {
				t.Fatalf("n=%d zero at %d: %d elements, want %d", n, zero, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("n=%d zero at %d: [%d] = %d, want %d", n, zero, i, got[i], want[i])
				}
			}
		}
	}
}
