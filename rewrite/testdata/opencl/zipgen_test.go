package opencl

import (
	"fmt"
	"testing"
)

// outcome returns f's result, or its panic, as text.
func outcome(f func() any) (s string) {
	defer func() {
		if e := recover(); e != nil {
			s = fmt.Sprint("panic: ", e)
		}
	}()
	return fmt.Sprint(f())
}

// TestZipGeneratedLengths: a kernel zipping a generated array (Iota,
// Replicate) with an input, or with another generator, of another length
// does not run over the launch's length: it raises the spec's panic. Of
// one length, the kernels run on the device and give the spec's results.
func TestZipGeneratedLengths(t *testing.T) {
	onDevice(t, soacgenCLZipGenerated, soacgenCLZipGenerators, soacgenCLZipGeneratedScanRest)
	for _, n := range []int{1, 7, 1000, 100_001} {
		for _, m := range []int{n, n - 1, n + 1} {
			xs, ys := ints(n), ints(m)
			for _, c := range []struct {
				name       string
				spec, impl func() any
			}{
				{"ZipGenerated", func() any { return zipGeneratedSpec(xs, ys) }, func() any { return ZipGenerated(xs, ys) }},
				{"ZipGenerators", func() any { return zipGeneratorsSpec(n, m) }, func() any { return ZipGenerators(n, m) }},
				{"ZipGeneratedScan", func() any { a, b := zipGeneratedScanSpec(xs, ys); return fmt.Sprint(a, b) },
					func() any { a, b := ZipGeneratedScan(xs, ys); return fmt.Sprint(a, b) }},
			} {
				var got string
				if fb := fallbacks(func() { got = outcome(c.impl) }); fb != 0 {
					t.Errorf("%s(n=%d, m=%d): %d launches fell back to the CPU", c.name, n, m, fb)
				}
				if want := outcome(c.spec); got != want {
					t.Errorf("%s(n=%d, m=%d) = %.80s, want %.80s", c.name, n, m, got, want)
				}
			}
		}
	}
}
