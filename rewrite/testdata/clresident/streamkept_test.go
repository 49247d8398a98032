package clresident

import (
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// The tests of stream reductions' rows kept on the device
// (streamkept.go's specs; rewrite's differential test runs them beside
// the generated file, and compares every spec with its own on random
// inputs).

// streamRowCase runs call, a spec of a stream reduction *s and a
// map-reduce *r after it, with each kernel on the device and forced to
// the CPU (mask bit 0: s, bit 1: r), on inputs of several lengths, and
// checks its result against spec and what it moved against want[mask].
func streamRowCase(t *testing.T, s **launch.StreamRed, r **launch.Redomap, spec, call func([]int64) int64, want []traffic) {
	ks := swapped(t, streamVar(s), redomapVar(r))
	for _, n := range []int{0, 1, 2, 7, 4097, 100_003} {
		xs := mixed(n)
		moves := want
		if n == 0 {
			moves = nil // nothing launched
		}
		ks.check(fmt.Sprintf("n=%d", n), fmt.Sprint(spec(xs)), func() string { return fmt.Sprint(call(xs)) }, moves)
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
	streamRowCase(t, &soacgenCLStreamRow, &soacgenCLStreamRow2,
		streamRowSpec, StreamRow,
		[]traffic{{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}})
}

// TestStreamRowCaptured: the histogram stays on the device for the
// map-reduce whose lambda reads it at indices (launch.ViewDev).
func TestStreamRowCaptured(t *testing.T) {
	// xs uploaded by each kernel on the device; the row read there as a
	// capture, uploaded as one after a stream on the CPU, downloaded for
	// a map-reduce on the CPU.
	streamRowCase(t, &soacgenCLStreamRowCaptured, &soacgenCLStreamRowCaptured2,
		streamRowCapturedSpec, StreamRowCaptured,
		[]traffic{{2, 0, 0, 1}, {1, 0, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}})
}

// TestStreamRowReadBetween: Go code writes the histogram between the
// kernels, so the stream downloads it and the map-reduce uploads it.
func TestStreamRowReadBetween(t *testing.T) {
	streamRowCase(t, &soacgenCLStreamRowReadBetween, &soacgenCLStreamRowReadBetween2,
		streamRowReadBetweenSpec, StreamRowReadBetween,
		[]traffic{{2, 1, 0, 0}, {1, 0, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}})
}

// TestStreamRowSized: the stream reduction whose rows are as long as a
// kept map output runs on the device (its row length is the Array's),
// reading the output there.
func TestStreamRowSized(t *testing.T) {
	ks := swapped(t, redomapVar(&soacgenCLStreamRowSized), streamVar(&soacgenCLStreamRowSized2))
	for _, n := range []int{1, 2, 7, 4097, 100_003} {
		xs, zs := ints(n), mixed(2*n+1)
		// The map uploads xs; the stream zs, downloading its row; ys read
		// there after a map on the device, else uploaded, downloaded for
		// a stream on the CPU.
		ks.check(fmt.Sprintf("n=%d", n), fmt.Sprint(streamRowSizedSpec(xs, zs)), func() string { return fmt.Sprint(StreamRowSized(xs, zs)) },
			[]traffic{{2, 1, 0, 1}, {1, 1, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}})
	}
}
