// Package cltest holds what the examples' tests of their backend=opencl
// variants share: whether the generated kernels can run here (the tests
// skip without OpenCL unless SOACGEN_REQUIRE_OPENCL=1, which CI sets) and
// the comparison of float results that a parallel reduction reassociates.
// It does not compare integers: those must be identical.
package cltest

import (
	"math"
	"os"
	"testing"
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
