package clresident

import (
	"slices"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// The tests of stream reductions' rows kept on the device
// (streamkept.go's specs; rewrite's TestDifferential runs them beside
// the generated file, and compares every spec with its own on random
// inputs).

// streamRowCase runs call, a spec of a stream reduction s and a
// map-reduce r after it, with each kernel on the device and forced to
// the CPU (mask bit 0: s, bit 1: r), on inputs of several lengths, and
// checks its result against spec and what it moved against want[mask].
func streamRowCase(t *testing.T, s *launch.StreamRed, r *launch.Redomap, set func(*launch.StreamRed, *launch.Redomap), spec, call func([]int64) int64, want [4]traffic) {
	onDevice(t, r)
	if s.Kernel() == nil {
		t.Skip("no usable OpenCL device")
	}
	defer set(s, r)
	bs, br := brokenStream(t, s), brokenRedomap(t, r)
	for _, n := range []int{0, 1, 2, 7, 4097, 100_003} {
		xs := mixed(n)
		w := spec(xs)
		for mask := range 4 {
			ks, kr := s, r
			if mask&1 != 0 {
				ks = bs
			}
			if mask&2 != 0 {
				kr = br
			}
			set(ks, kr)
			var got int64
			tr := measure(func() { got = call(xs) })
			if got != w {
				t.Errorf("n=%d, kernels %02b on the CPU: %d, want %d", n, mask, got, w)
			}
			if n > 0 && tr != want[mask] {
				t.Errorf("n=%d, kernels %02b on the CPU: moved %+v, want %+v", n, mask, tr, want[mask])
			}
		}
	}
}

// TestStreamRow: the histogram stays on the device for the map-reduce
// that reads it as its input; a map-reduce on the CPU downloads it, a
// stream on the CPU leaves it in Go memory for the map-reduce to
// upload.
func TestStreamRow(t *testing.T) {
	// xs uploaded by the stream on the device; the row read there,
	// downloaded for a map-reduce on the CPU, uploaded by a map-reduce on
	// the device after a stream on the CPU.
	streamRowCase(t, soacgenCLStreamRow, soacgenCLStreamRow2,
		func(s *launch.StreamRed, r *launch.Redomap) { soacgenCLStreamRow, soacgenCLStreamRow2 = s, r },
		streamRowSpec, StreamRow,
		[4]traffic{{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}})
}

// TestStreamRowCaptured: the histogram stays on the device for the
// map-reduce whose lambda reads it at indices (launch.ViewDev).
func TestStreamRowCaptured(t *testing.T) {
	// xs uploaded by each kernel on the device; the row read there as a
	// capture, uploaded as one after a stream on the CPU, downloaded for
	// a map-reduce on the CPU.
	streamRowCase(t, soacgenCLStreamRowCaptured, soacgenCLStreamRowCaptured2,
		func(s *launch.StreamRed, r *launch.Redomap) {
			soacgenCLStreamRowCaptured, soacgenCLStreamRowCaptured2 = s, r
		},
		streamRowCapturedSpec, StreamRowCaptured,
		[4]traffic{{2, 0, 0, 1}, {1, 0, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}})
}

// TestStreamRowReadBetween: Go code writes the histogram between the
// kernels, so the stream downloads it and the map-reduce uploads it.
func TestStreamRowReadBetween(t *testing.T) {
	streamRowCase(t, soacgenCLStreamRowReadBetween, soacgenCLStreamRowReadBetween2,
		func(s *launch.StreamRed, r *launch.Redomap) {
			soacgenCLStreamRowReadBetween, soacgenCLStreamRowReadBetween2 = s, r
		},
		streamRowReadBetweenSpec, StreamRowReadBetween,
		[4]traffic{{2, 1, 0, 0}, {1, 0, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}})
}

// TestStreamRowSized: the stream reduction whose rows are as long as a
// kept map output runs on the device (its row length is the Array's),
// reading the output there.
func TestStreamRowSized(t *testing.T) {
	onDevice(t, soacgenCLStreamRowSized)
	if soacgenCLStreamRowSized2.Kernel() == nil {
		t.Skip("no usable OpenCL device")
	}
	k1, k2 := soacgenCLStreamRowSized, soacgenCLStreamRowSized2
	defer func() { soacgenCLStreamRowSized, soacgenCLStreamRowSized2 = k1, k2 }()
	b1, b2 := brokenRedomap(t, k1), brokenStream(t, k2)
	for _, n := range []int{1, 2, 7, 4097, 100_003} {
		xs, zs := ints(n), mixed(2*n+1)
		want := streamRowSizedSpec(xs, zs)
		for mask := range 4 {
			soacgenCLStreamRowSized, soacgenCLStreamRowSized2 = k1, k2
			if mask&1 != 0 {
				soacgenCLStreamRowSized = b1
			}
			if mask&2 != 0 {
				soacgenCLStreamRowSized2 = b2
			}
			var got []int64
			tr := measure(func() { got = StreamRowSized(xs, zs) })
			if !slices.Equal(got, want) {
				t.Errorf("n=%d, kernels %02b on the CPU: %v, want %v", n, mask, got, want)
			}
			// The map uploads xs; the stream zs, downloading its row;
			// ys read there after a map on the device, else uploaded,
			// downloaded for a stream on the CPU.
			w := [4]traffic{{2, 1, 0, 1}, {1, 1, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}}[mask]
			if tr != w {
				t.Errorf("n=%d, kernels %02b on the CPU: moved %+v, want %+v", n, mask, tr, w)
			}
		}
	}
}
