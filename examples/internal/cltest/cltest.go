// Package cltest holds what the examples' tests of their backend=opencl
// variants share: whether the generated kernels can run here (the tests
// skip without OpenCL unless SOACGEN_REQUIRE_OPENCL=1, which CI sets),
// whether they ran there (OnDevice), and the comparison of float results
// that a parallel reduction reassociates.
// It does not compare integers: those must be identical.
package cltest

import (
	"math"
	"os"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
	"github.com/soacgen/soacgen/runtime/opencl/pinned"
)

// Kernel is a generated kernel (a *launch.Redomap): Kernel returns nil
// when it cannot run on this machine's OpenCL device.
type Kernel[K any] interface{ Kernel() *K }

// Require skips t, or fails it when SOACGEN_REQUIRE_OPENCL=1, unless
// every kernel can run on OpenCL here.
func Require[K any](t testing.TB, ks ...Kernel[K]) {
	t.Helper()
	for _, k := range ks {
		if k.Kernel() == nil {
			if os.Getenv("SOACGEN_REQUIRE_OPENCL") == "1" {
				t.Fatal("SOACGEN_REQUIRE_OPENCL=1 but a generated kernel cannot run on OpenCL here (its log line says why)")
			}
			t.Skip("no usable OpenCL device")
		}
	}
}

// OnDevice runs f and fails t, naming what, when a launch of a generated
// kernel during f returned false once its kernel was built
// (launch.Fallbacks: a panic flag, a failed launch): the CPU code ran
// where the device should have, though the results may be the same.
func OnDevice(t testing.TB, what string, f func()) {
	t.Helper()
	n0 := launch.Fallbacks()
	f()
	if n := launch.Fallbacks() - n0; n != 0 {
		t.Errorf("%s: %d launches fell back to the CPU, the last: %s", what, n, launch.LastFallback())
	}
}

// NoFallbacks fails t, when it ends, if a launch of a generated kernel
// returned false during it once its kernel was built (launch.Fallbacks),
// as OnDevice does for one call: for a test whose every launch should
// run on the device (no panic flag). Not for a test that runs beside
// others (t.Parallel): the count is the process's.
func NoFallbacks(t testing.TB) {
	t.Helper()
	n0 := launch.Fallbacks()
	t.Cleanup(func() {
		if n := launch.Fallbacks() - n0; n != 0 {
			t.Errorf("%d launches fell back to the CPU, the last: %s", n, launch.LastFallback())
		}
	})
}

// Close reports whether got equals want within rel relative to
// max(|want|, scale): a sum reassociated by a parallel reduction differs
// from the sequential one by rounding only, which is bounded relative to
// the sum of the magnitudes of its terms (scale). NaNs match NaNs, and
// infinities must be equal.
func Close(got, want, rel, scale float64) bool {
	if math.IsNaN(want) || math.IsInf(want, 0) {
		return got == want || math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), scale)
}

// Pinned returns a copy of xs in pinned memory of the default device
// (package pinned; mapped on CPU devices too, where pinned.Make would
// give Go memory, so that PoCL takes the direct transfers), freed when t
// ends. It fails t if the memory is not pinned.
func Pinned[T any](t testing.TB, xs []T) []T {
	t.Helper()
	d, err := device.Default()
	if err != nil {
		t.Fatal(err)
	}
	p, free := pinned.MakeOn[T](d, len(xs))
	t.Cleanup(free)
	copy(p, xs)
	if len(xs) > 0 && !pinned.Is(p) {
		t.Fatalf("%d elements: pinned.MakeOn fell back to Go memory", len(xs))
	}
	return p
}
