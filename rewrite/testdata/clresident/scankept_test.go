package clresident

import (
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// The tests of scan and filter outputs kept on the device (scankept.go's
// specs; rewrite's differential test runs them beside the generated file,
// and compares every spec with its own on random inputs).

// quiet silences launch's log lines until the test ends (a broken
// kernel's build failure; TestMain fails on logged build failures).
func quiet(t *testing.T) {
	old := launch.Logf
	launch.Logf = func(string, ...any) {}
	t.Cleanup(func() { launch.Logf = old })
}

// mixed returns n elements, the even-indexed ones positive (so that
// every filter keeps some), the others of either sign.
func mixed(n int) []int64 {
	xs := ints(n)
	for i := range xs {
		xs[i] = xs[i]*1_000_003 + int64(i%3)
		if i%2 == 0 && xs[i] <= 0 {
			xs[i] = 1 - xs[i]
		}
	}
	return xs
}

// TestKeptScanFilter: the scan's prefix sums and the filter's kept
// elements stay on the device for the kernel that reads them: one upload
// (xs) per call and no download but KeptFilterScan's result and the
// streams' rows; with
// either kernel unable to run on the device (a failed build), the other
// moves the array and the results are the spec's.
func TestKeptScanFilter(t *testing.T) {
	ks := swapped(t,
		group(scanVar(&soacgenCLKeptScan), filterVar(&soacgenCLKeptFilter), filterVar(&soacgenCLKeptFilterScan)),
		group(streamVar(&soacgenCLKeptScan2), streamVar(&soacgenCLKeptFilter2), scanVar(&soacgenCLKeptFilterScan2)))
	for _, n := range []int{1, 2, 7, 4097, 100_003} {
		xs := mixed(n)
		// Uploads: xs by each producer on the device, the array by a
		// reader on the device after a producer on the CPU. Downloads:
		// the array by a reader on the CPU after a producer on the
		// device, KeptFilterScan's result, and the rows of the two
		// streams on the device. No captured slices.
		ks.check(fmt.Sprintf("n=%d", n), fmt.Sprint(keptScanSpec(xs), keptFilterSpec(xs), keptFilterScanSpec(xs)),
			func() string { return fmt.Sprint(KeptScan(xs), KeptFilter(xs), KeptFilterScan(xs)) },
			[]traffic{{3, 3, 0, 0}, {3, 3, 0, 0}, {3, 3, 0, 0}, {0, 0, 0, 0}})
	}
}
