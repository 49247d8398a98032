package blackscholes

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
)

func randOptions32(n int) []Option32 {
	opts := make([]Option32, n)
	for i, o := range randOptions(n) {
		opts[i] = Option32{S: float32(o.S), K: float32(o.K), T: float32(o.T), R: float32(o.R), V: float32(o.V)}
	}
	return opts
}

// TestCallPrices32 compares the cpu and parallel forms with the spec:
// the same float32 bits (a map: no reassociation), under GOMAXPROCS 1, 2
// and 8 for the parallel form.
func TestCallPrices32(t *testing.T) {
	for _, n := range extest.ParSizes(testing.Short()) {
		opts := randOptions32(n)
		want := callPrices32Spec(opts)
		if d := extest.Same([]any{CallPrices32(opts)}, []any{want}); d != "" {
			t.Fatalf("n=%d: CallPrices32: %s", n, d)
		}
		got := extest.AcrossProcs(t, func() []any { return []any{CallPrices32Par(opts)} })
		if d := extest.Same(got, []any{want}); d != "" {
			t.Errorf("n=%d: CallPrices32Par: %s", n, d)
		}
	}
}

// TestCallPrices32CL compares the opencl variant, run on the device, with
// the spec: the float64 terms within priceTol, then one rounding to
// float32, so a price may differ in its last float32 bit (2^-23 of the
// larger of the price and 100, the prices' scale here).
func TestCallPrices32CL(t *testing.T) {
	cltest.Require(t, soacgenCLCallPrices32CL)
	for _, n := range extest.Sizes(testing.Short()) {
		opts := randOptions32(n)
		want := callPrices32Spec(opts)
		got := CallPrices32CL(opts)
		if len(got) != len(want) || (got == nil) != (want == nil) {
			t.Fatalf("n=%d: %d prices (nil %v), want %d (nil %v)", n, len(got), got == nil, len(want), want == nil)
		}
		for i := range got {
			if !cltest.Close(float64(got[i]), float64(want[i]), 1.0/(1<<23), 100) {
				t.Fatalf("n=%d: price %d of %+v = %v, want %v", n, i, opts[i], got[i], want[i])
			}
		}
	}
}
