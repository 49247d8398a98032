package launch

import (
	"fmt"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// histRows is a stream reduction counting its int64 elements by their
// value mod 4 into a row of 4 (element 42 sets the panic flag, site 3).
func histRows() *StreamRed {
	return &StreamRed{At: "t.go:4:1", Spec: skel.StreamRed{
		Name:   "hist_rows",
		Inputs: []skel.Param{{Name: "x", Type: skel.Int64}},
		Row:    skel.Int64,
		Chunk: `for (long j = 0; j < soac_room; j++) soac_row[j] = 0;
for (long i = soac_lo; i < soac_hi; i++) { if (in_x[i] == 42) soac_err = 3; soac_row[((in_x[i] % 4) + 4) % 4] += 1; }`,
		Combine: `for (long j = 0; j < soac_room; j++) soac_out[j] = soac_a[j] + soac_b[j];`,
	}}
}

// histOf is histRows' row on the host.
func histOf(xs []int64) []int64 {
	h := make([]int64, 4)
	for _, x := range xs {
		h[((x%4)+4)%4]++
	}
	return h
}

// TestStreamRedRunOn: a stream reduction's row downloaded (Download) or
// kept on the device (Keep, read by a later run as its input, Dev);
// Run and RunOn count the inputs they upload and the row they download,
// a kept row is counted when Host downloads it; a panic keeps nothing
// and returns the buffer; KeepOnDevice false downloads at once.
func TestStreamRedRunOn(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	checkStreamRedRunOn(t, histRows())
	// On the bins skeleton: the stream skeleton's rows would be wrong.
	defer SetBinsOnCPU(SetBinsOnCPU(true))
	checkStreamRedRunOn(t, histBins())
	if l := lines(); len(l) != 0 {
		t.Errorf("log lines %q", l)
	}
}

// histBins is histRows on the bins skeleton, its stream skeleton's
// chunk code broken (so that a result from it shows).
func histBins() *StreamRed {
	red := histRows()
	red.Spec.Chunk += "\nsoac_row[0] += 1000;"
	red.Bins = &skel.Bins{Name: "hist_bins", Inputs: red.Spec.Inputs, Bin: skel.Int64,
		Elem: "const long x = in_x[soac_index];\nif (x == 42) soac_err = 3;\nsoac_bin = ((x % 4) + 4) % 4;\nsoac_add = 1;"}
	return red
}

// checkStreamRedRunOn is TestStreamRedRunOn on red.
func checkStreamRedRunOn(t *testing.T, red *StreamRed) {
	for _, n := range []int{1, 7, 4097, 200_003} {
		xs := make([]int64, n)
		for i := range xs {
			xs[i] = int64(i*7919%1000) - 500
			if xs[i] == 42 {
				xs[i] = 43
			}
		}
		want := histOf(xs)
		var s Session
		row := make([]int64, 4)
		up, down := moved(func() {
			if !red.Run(nil, []skel.HostSlice{skel.Slice(xs)}, skel.Slice(row)) {
				t.Fatal("Run failed")
			}
		})
		if !slices.Equal(row, want) || up != 1 || down != 1 {
			t.Errorf("n=%d: Run gives %v, %d uploads, %d downloads; want %v, 1, 1", n, row, up, down, want)
		}
		clear(row)
		up, down = moved(func() {
			if !red.RunOn(&s, nil, []Input{Host(xs)}, len(row), Download(row)) {
				t.Fatal("RunOn with Download failed")
			}
		})
		if !slices.Equal(row, want) || up != 1 || down != 1 {
			t.Errorf("n=%d: RunOn gives %v, %d uploads, %d downloads; want %v, 1, 1", n, row, up, down, want)
		}
		var a *Array[int64]
		up, down = moved(func() {
			if !red.RunOn(&s, nil, []Input{Host(xs)}, 4, Keep(&a)) || a == nil || a.Len() != 4 {
				t.Fatalf("RunOn with Keep: %v", a)
			}
		})
		if up != 1 || down != 0 {
			t.Errorf("n=%d: kept: %d uploads, %d downloads; want 1, 0", n, up, down)
		}
		// The kept row as the input of the next run: the histogram of
		// the four counts.
		var b *Array[int64]
		var got []int64
		up, down = moved(func() {
			if !red.RunOn(&s, nil, []Input{Dev(a, nil)}, 4, Keep(&b)) {
				t.Fatal("RunOn on the kept row failed")
			}
			got = b.Host()
		})
		if w := histOf(want); !slices.Equal(got, w) || up != 0 || down != 1 {
			t.Errorf("n=%d: on the kept row: %v, %d uploads, %d downloads; want %v, 0, 1", n, got, up, down, w)
		}
		if got := a.Host(); !slices.Equal(got, want) {
			t.Errorf("n=%d: kept row %v, want %v", n, got, want)
		}
		a.Release()
		b.Release()
		s.Release()
	}
	// A panic keeps nothing and holds no buffer.
	var s Session
	defer s.Release()
	var a *Array[int64]
	if red.RunOn(&s, nil, []Input{Host([]int64{1, 42, 3})}, 4, Keep(&a)) || a != nil || len(s.held) != 0 {
		t.Errorf("panicked run: kept %v, %d held", a, len(s.held))
	}
	// A wrong room or no input: false before any launch.
	if red.RunOn(&s, nil, []Input{Host([]int64{1})}, 3, Download(make([]int64, 4))) || red.RunOn(&s, nil, []Input{Host([]int64{})}, 4, Keep(&a)) {
		t.Error("RunOn ran with a wrong room or an empty input")
	}
	KeepOnDevice = false
	defer func() { KeepOnDevice = true }()
	_, down := moved(func() {
		if !red.RunOn(&s, nil, []Input{Host([]int64{1, 2, 3, 5})}, 4, Keep(&a)) {
			t.Fatal("RunOn with KeepOnDevice false failed")
		}
	})
	if got := fmt.Sprint(a.Host()); got != "[0 2 1 1]" || down != 1 || len(s.held) != 0 {
		t.Errorf("KeepOnDevice false: %s, %d downloads, %d held; want [0 2 1 1], 1, 0", got, down, len(s.held))
	}
}
