package clresident

import (
	"slices"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// The tests of scan and filter outputs kept on the device (scankept.go's
// specs; rewrite's TestDifferential runs them beside the generated file,
// and compares every spec with its own on random inputs).

// quiet silences launch's log lines until the test ends (a broken
// kernel's build failure; TestMain fails on logged build failures).
func quiet(t *testing.T) {
	old := launch.Logf
	launch.Logf = func(string, ...any) {}
	t.Cleanup(func() { launch.Logf = old })
}

// brokenScan, brokenFilter and brokenStream return copies of a kernel
// whose build fails: their specs run the kernel's CPU code.
func brokenScan(t *testing.T, k *launch.Scan) *launch.Scan {
	quiet(t)
	spec := k.Spec
	spec.Name += "Broken"
	spec.Body = "this is not OpenCL C;"
	b := &launch.Scan{At: k.At, FP64: k.FP64, Spec: spec}
	if b.Kernel() != nil {
		t.Fatal("the broken kernel built")
	}
	return b
}

func brokenFilter(t *testing.T, k *launch.Filter) *launch.Filter {
	quiet(t)
	spec := k.Spec
	spec.Name += "Broken"
	spec.Body = "this is not OpenCL C;"
	b := &launch.Filter{At: k.At, FP64: k.FP64, Spec: spec}
	if b.Kernel() != nil {
		t.Fatal("the broken kernel built")
	}
	return b
}

func brokenStream(t *testing.T, k *launch.StreamRed) *launch.StreamRed {
	quiet(t)
	spec := k.Spec
	spec.Name += "Broken"
	spec.Chunk = "this is not OpenCL C;"
	b := &launch.StreamRed{At: k.At, FP64: k.FP64, Spec: spec}
	if b.Kernel() != nil {
		t.Fatal("the broken kernel built")
	}
	return b
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
	if soacgenCLKeptScan.Kernel() == nil || soacgenCLKeptScan2.Kernel() == nil || soacgenCLKeptFilter.Kernel() == nil ||
		soacgenCLKeptFilter2.Kernel() == nil || soacgenCLKeptFilterScan.Kernel() == nil || soacgenCLKeptFilterScan2.Kernel() == nil {
		t.Skip("no usable OpenCL device")
	}
	scan, stream := soacgenCLKeptScan, soacgenCLKeptScan2
	filter, stream2 := soacgenCLKeptFilter, soacgenCLKeptFilter2
	filter3, scan3 := soacgenCLKeptFilterScan, soacgenCLKeptFilterScan2
	defer func() {
		soacgenCLKeptScan, soacgenCLKeptScan2 = scan, stream
		soacgenCLKeptFilter, soacgenCLKeptFilter2 = filter, stream2
		soacgenCLKeptFilterScan, soacgenCLKeptFilterScan2 = filter3, scan3
	}()
	bad := []any{brokenScan(t, scan), brokenStream(t, stream), brokenFilter(t, filter), brokenStream(t, stream2), brokenFilter(t, filter3), brokenScan(t, scan3)}
	for _, n := range []int{1, 2, 7, 4097, 100_003} {
		xs := mixed(n)
		w1, w2, w3 := keptScanSpec(xs), keptFilterSpec(xs), keptFilterScanSpec(xs)
		for mask := range 4 {
			soacgenCLKeptScan, soacgenCLKeptScan2 = scan, stream
			soacgenCLKeptFilter, soacgenCLKeptFilter2 = filter, stream2
			soacgenCLKeptFilterScan, soacgenCLKeptFilterScan2 = filter3, scan3
			if mask&1 != 0 {
				soacgenCLKeptScan, soacgenCLKeptFilter, soacgenCLKeptFilterScan = bad[0].(*launch.Scan), bad[2].(*launch.Filter), bad[4].(*launch.Filter)
			}
			if mask&2 != 0 {
				soacgenCLKeptScan2, soacgenCLKeptFilter2, soacgenCLKeptFilterScan2 = bad[1].(*launch.StreamRed), bad[3].(*launch.StreamRed), bad[5].(*launch.Scan)
			}
			var g1, g2, g3 []int64
			up, down := moved(func() { g1, g2, g3 = KeptScan(xs), KeptFilter(xs), KeptFilterScan(xs) })
			if !slices.Equal(g1, w1) || !slices.Equal(g2, w2) || !slices.Equal(g3, w3) {
				t.Errorf("n=%d, kernels %02b on the CPU: results differ from the spec's", n, mask)
			}
			// Uploads: xs by each producer on the device, the array by
			// a reader on the device after a producer on the CPU.
			// Downloads: the array by a reader on the CPU after a
			// producer on the device, KeptFilterScan's result, and the
			// rows of the two streams on the device.
			want := [4][2]int64{{3, 3}, {3, 3}, {3, 3}, {0, 0}}[mask]
			if wantUp, wantDown := want[0], want[1]; up != wantUp || down != wantDown {
				t.Errorf("n=%d, kernels %02b on the CPU: %d uploads and %d downloads, want %d and %d", n, mask, up, down, wantUp, wantDown)
			}
		}
	}
}
