package prefixsum

import (
	"slices"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
)

// TestPrefixSumsCL compares the opencl variant's integer scan, run on
// the device, with the spec: identical.
func TestPrefixSumsCL(t *testing.T) {
	cltest.Require(t, soacgenCLPrefixSumsCL)
	cltest.NoFallbacks(t)
	for _, n := range append(extest.Sizes(testing.Short()), 2, 1000, 100003) {
		xs := extest.Ints(extest.Rand(5, n), n, -1<<40, 1<<40)
		want := prefixSumsSpec(xs)
		if got := PrefixSumsCL(xs); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("n=%d: PrefixSumsCL differs from the spec", n)
		}
	}
}

// TestChunkedSumsCL compares the opencl variant of the stream then scan
// (the stream's output kept on the device for the scan) with the spec:
// identical.
func TestChunkedSumsCL(t *testing.T) {
	cltest.Require(t, soacgenCLChunkedSumsCL)
	cltest.Require(t, soacgenCLChunkedSumsCL2)
	cltest.NoFallbacks(t)
	for _, n := range append(extest.Sizes(testing.Short()), 2, 1000, 100003) {
		xs := extest.Ints(extest.Rand(7, n), n, -1<<40, 1<<40)
		want := chunkedSumsSpec(xs)
		if got := ChunkedSumsCL(xs); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("n=%d: ChunkedSumsCL differs from the spec", n)
		}
	}
}

// TestPrefixSqrtsCL compares the opencl variant's float scan with the
// spec: each running total within 1e-12 of it (the device scans blocks
// and adds their carries: a reassociated sum of positive terms).
func TestPrefixSqrtsCL(t *testing.T) {
	cltest.Require(t, soacgenCLPrefixSqrtsCL)
	cltest.NoFallbacks(t)
	for _, n := range extest.Sizes(testing.Short()) {
		xs := extest.Floats(extest.Rand(6, n), n, 0, 100)
		want := prefixSqrtsSpec(xs)
		got := PrefixSqrtsCL(xs)
		if len(got) != len(want) || (got == nil) != (want == nil) {
			t.Fatalf("n=%d: %d sums (nil %v), want %d (nil %v)", n, len(got), got == nil, len(want), want == nil)
		}
		for i := range got {
			if !cltest.Close(got[i], want[i], 1e-12, 0) {
				t.Fatalf("n=%d: sum %d = %v, want %v", n, i, got[i], want[i])
			}
		}
	}
}

// TestHalfSqrtsCL compares the opencl variant of HalfSqrts (a scan and a
// map reading it: two launches, the scan kept on the device) with the
// spec: each value within 1e-12 of it (a reassociated sum of positive
// terms).
func TestHalfSqrtsCL(t *testing.T) {
	cltest.Require(t, soacgenCLHalfSqrtsCL)
	cltest.NoFallbacks(t)
	for _, n := range append(extest.Sizes(testing.Short()), 2, 1000, 100003) {
		xs := extest.Floats(extest.Rand(8, n), n, 0, 100)
		want := halfSqrtsSpec(xs)
		got := HalfSqrtsCL(xs)
		if len(got) != len(want) || (got == nil) != (want == nil) {
			t.Fatalf("n=%d: %d values (nil %v), want %d (nil %v)", n, len(got), got == nil, len(want), want == nil)
		}
		for i := range got {
			if !cltest.Close(got[i], want[i], 1e-12, 0) {
				t.Fatalf("n=%d: value %d = %v, want %v", n, i, got[i], want[i])
			}
		}
	}
}
