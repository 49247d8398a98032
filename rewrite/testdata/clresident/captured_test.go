package clresident

import (
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// The tests of map outputs kept on the device for the kernels whose
// lambdas read them as captured slices (captured.go's specs; rewrite's
// TestDifferential compares every spec with its own on random inputs).

// brokenRedomap returns a copy of k whose build fails: its spec runs
// the kernel's CPU code.
func brokenRedomap(t *testing.T, k *launch.Redomap) *launch.Redomap {
	quiet(t)
	spec := k.Spec
	spec.Name += "Broken"
	spec.Body = "this is not OpenCL C;"
	b := &launch.Redomap{At: k.At, FP64: k.FP64, Spec: spec}
	if b.Kernel() != nil {
		t.Fatal("the broken kernel built")
	}
	return b
}

// traffic is what one call moved: arrays uploaded and downloaded as
// inputs and outputs, captured slices uploaded and read on the device.
type traffic struct{ up, down, views, devViews int64 }

func measure(f func()) traffic {
	v0, d0 := launch.Views()
	up, down := moved(f)
	v1, d1 := launch.Views()
	return traffic{up, down, v1 - v0, d1 - d0}
}

// TestCapturedMap: the map's output stays on the device for the
// map-reduce whose lambda reads it backwards (no download, no captured
// upload); with the map on the CPU the reader uploads the Go slice, with
// the reader on the CPU it downloads the array first; the results are
// the spec's.
func TestCapturedMap(t *testing.T) {
	onDevice(t, soacgenCLCapturedMap, soacgenCLCapturedMap2)
	k1, k2 := soacgenCLCapturedMap, soacgenCLCapturedMap2
	defer func() { soacgenCLCapturedMap, soacgenCLCapturedMap2 = k1, k2 }()
	b1, b2 := brokenRedomap(t, k1), brokenRedomap(t, k2)
	for _, n := range []int{1, 2, 7, 4097, 100_003} {
		xs := ints(n)
		want := capturedMapSpec(xs)
		for mask := range 4 {
			soacgenCLCapturedMap, soacgenCLCapturedMap2 = k1, k2
			if mask&1 != 0 {
				soacgenCLCapturedMap = b1
			}
			if mask&2 != 0 {
				soacgenCLCapturedMap2 = b2
			}
			var got int64
			tr := measure(func() { got = CapturedMap(xs) })
			if got != want {
				t.Errorf("n=%d, kernels %02b on the CPU: %d, want %d", n, mask, got, want)
			}
			// xs shared by the two kernels on the device (uploaded by
			// the reader alone after a map on the CPU); ys read on the
			// device, uploaded as a capture after a map on the CPU,
			// downloaded for a reader on the CPU.
			wantTr := [4]traffic{{1, 0, 0, 1}, {1, 0, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}}[mask]
			if tr != wantTr {
				t.Errorf("n=%d, kernels %02b on the CPU: moved %+v, want %+v", n, mask, tr, wantTr)
			}
		}
	}
}

// TestCapturedTwice: the map's output stays on the device for both
// readers (a filter's and a map-reduce's lambdas); a reader on the CPU
// downloads it once, and the other still reads the device copy.
func TestCapturedTwice(t *testing.T) {
	onDevice(t, soacgenCLCapturedTwice, soacgenCLCapturedTwice3)
	if soacgenCLCapturedTwice2.Kernel() == nil {
		t.Skip("no usable OpenCL device")
	}
	k1, k2, k3 := soacgenCLCapturedTwice, soacgenCLCapturedTwice2, soacgenCLCapturedTwice3
	defer func() { soacgenCLCapturedTwice, soacgenCLCapturedTwice2, soacgenCLCapturedTwice3 = k1, k2, k3 }()
	b1, b2, b3 := brokenRedomap(t, k1), brokenFilter(t, k2), brokenRedomap(t, k3)
	for _, n := range []int{1, 2, 7, 4097, 100_003} {
		xs, zs := ints(n), mixed(n+3)
		want := capturedTwiceSpec(xs, zs)
		for mask := range 8 {
			soacgenCLCapturedTwice, soacgenCLCapturedTwice2, soacgenCLCapturedTwice3 = k1, k2, k3
			if mask&1 != 0 {
				soacgenCLCapturedTwice = b1
			}
			if mask&2 != 0 {
				soacgenCLCapturedTwice2 = b2
			}
			if mask&4 != 0 {
				soacgenCLCapturedTwice3 = b3
			}
			var got []int64
			tr := measure(func() { got = CapturedTwice(xs, zs) })
			if !slices.Equal(got, want) {
				t.Errorf("n=%d, kernels %03b on the CPU: results differ from the spec's", n, mask)
			}
			// Uploads: xs (shared by the map and the map-reduce), zs by
			// the filter. Downloads: the filter's kept elements, and ys
			// once for the readers on the CPU. ys as a capture: read on
			// the device after a map there, uploaded by each reader on
			// the device after a map on the CPU.
			var w traffic
			if mask&1 == 0 {
				w.up++
			}
			if mask&2 == 0 {
				w.up++
				w.down++
			}
			if mask&4 == 0 && (mask&1 != 0) {
				w.up++
			}
			if mask&1 == 0 && mask&6 != 0 {
				w.down++ // ys, once
			}
			for _, on := range []bool{mask&2 == 0, mask&4 == 0} {
				switch {
				case on && mask&1 == 0:
					w.devViews++
				case on:
					w.views++
				}
			}
			if tr != w {
				t.Errorf("n=%d, kernels %03b on the CPU: moved %+v, want %+v", n, mask, tr, w)
			}
		}
	}
}

// TestCapturedReadBetween: Go code reads the map's output between the
// kernels, so the map downloads it and the reader uploads it as a
// capture (nothing kept); the result is the spec's.
func TestCapturedReadBetween(t *testing.T) {
	onDevice(t, soacgenCLCapturedReadBetween, soacgenCLCapturedReadBetween2)
	for _, n := range []int{1, 7, 100_003} {
		xs := ints(n)
		want := capturedReadBetweenSpec(xs)
		var got int64
		tr := measure(func() { got = CapturedReadBetween(xs) })
		if got != want {
			t.Errorf("n=%d: %d, want %d", n, got, want)
		}
		if w := (traffic{1, 1, 1, 0}); tr != w {
			t.Errorf("n=%d: moved %+v, want %+v", n, tr, w)
		}
	}
}

// TestCapturedStream: the map's output stays on the device for the
// stream reduction whose chunk lambda reads it; with either kernel on
// the CPU the other moves it, and the results are the spec's.
func TestCapturedStream(t *testing.T) {
	onDevice(t, soacgenCLCapturedStream)
	if soacgenCLCapturedStream2.Kernel() == nil {
		t.Skip("no usable OpenCL device")
	}
	k1, k2 := soacgenCLCapturedStream, soacgenCLCapturedStream2
	defer func() { soacgenCLCapturedStream, soacgenCLCapturedStream2 = k1, k2 }()
	b1, b2 := brokenRedomap(t, k1), brokenStream(t, k2)
	for _, n := range []int{1, 2, 7, 4097, 100_003} {
		xs, zs := ints(n), mixed(2*n+1)
		want := capturedStreamSpec(xs, zs)
		for mask := range 4 {
			soacgenCLCapturedStream, soacgenCLCapturedStream2 = k1, k2
			if mask&1 != 0 {
				soacgenCLCapturedStream = b1
			}
			if mask&2 != 0 {
				soacgenCLCapturedStream2 = b2
			}
			var got []int64
			tr := measure(func() { got = CapturedStream(xs, zs) })
			if !slices.Equal(got, want) {
				t.Errorf("n=%d, kernels %02b on the CPU: %v, want %v", n, mask, got, want)
			}
			// xs uploaded by the map on the device, zs by the stream
			// there, which downloads its row; ys read on the device,
			// uploaded as a capture after a map on the CPU, downloaded
			// for a stream on the CPU.
			wantTr := [4]traffic{{2, 1, 0, 1}, {1, 1, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}}[mask]
			if tr != wantTr {
				t.Errorf("n=%d, kernels %02b on the CPU: moved %+v, want %+v", n, mask, tr, wantTr)
			}
		}
	}
}

// TestCapturedGrid: the map's kept output stays on the device for the
// grid kernel that maps it (launch.ViewDev; the rows are uploaded as a
// captured slice); with the map on the CPU the grid uploads the Go
// slice, with the grid on the CPU it downloads it first. The results
// are the spec's.
func TestCapturedGrid(t *testing.T) {
	onDevice(t, soacgenCLCapturedGrid)
	if soacgenCLCapturedGrid2.Kernel() == nil {
		t.Skip("no usable OpenCL device")
	}
	k1, k2 := soacgenCLCapturedGrid, soacgenCLCapturedGrid2
	defer func() { soacgenCLCapturedGrid, soacgenCLCapturedGrid2 = k1, k2 }()
	b1, b2 := brokenRedomap(t, k1), brokenGrid(t, k2)
	for _, n := range []int{1, 7, 300} {
		xs := ints(n)
		m := make([][]int64, n/3+1)
		for i := range m {
			m[i] = ints(i % 5)
		}
		want := capturedGridSpec(xs, m)
		for mask := range 4 {
			soacgenCLCapturedGrid, soacgenCLCapturedGrid2 = k1, k2
			if mask&1 != 0 {
				soacgenCLCapturedGrid = b1
			}
			if mask&2 != 0 {
				soacgenCLCapturedGrid2 = b2
			}
			var got [][]int64
			tr := measure(func() { got = CapturedGrid(xs, m) })
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("n=%d, kernels %02b on the CPU: results differ from the spec's", n, mask)
			}
			// xs uploaded by the map on the device; the grid's rows
			// uploaded as a capture, ys read on the device after a map
			// there, else uploaded; the grid's result downloaded, ys
			// for a grid on the CPU.
			w := [4]traffic{{1, 1, 1, 1}, {0, 1, 2, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}}[mask]
			if tr != w {
				t.Errorf("n=%d, kernels %02b on the CPU: moved %+v, want %+v", n, mask, tr, w)
			}
		}
	}
}

// BenchmarkCapturedMap measures what reading a kept map output as a
// captured slice saves, in one run: "kept" (launch.ViewDev reads the
// device copy) against "roundtrip" (launch.KeepOnDevice false: the map
// downloads it and the reader uploads it), with the captured uploads
// and the arrays moved per call. The size is SOACGEN_BENCH_N (default
// 1e6).
func BenchmarkCapturedMap(b *testing.B) {
	n := 1_000_000
	if s := os.Getenv("SOACGEN_BENCH_N"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			n = v
		}
	}
	xs := ints(n)
	for _, keep := range []bool{true, false} {
		name := map[bool]string{true: "kept", false: "roundtrip"}[keep]
		b.Run(name, func(b *testing.B) {
			if soacgenCLCapturedMap.Kernel() == nil || soacgenCLCapturedMap2.Kernel() == nil {
				b.Skip("no usable OpenCL device")
			}
			launch.KeepOnDevice = keep
			defer func() { launch.KeepOnDevice = true }()
			CapturedMap(xs) // builds the programs
			b.ResetTimer()
			var tr traffic
			for range b.N {
				t := measure(func() { CapturedMap(xs) })
				tr.up, tr.down, tr.views = tr.up+t.up, tr.down+t.down, tr.views+t.views
			}
			b.StopTimer()
			b.ReportMetric(float64(tr.up+tr.views)/float64(b.N), "uploads/op")
			b.ReportMetric(float64(tr.down)/float64(b.N), "downloads/op")
		})
	}
}

// brokenGrid returns a copy of k whose build fails: its spec runs the
// kernel's CPU code.
func brokenGrid(t *testing.T, k *launch.Grid) *launch.Grid {
	quiet(t)
	spec := k.Spec
	spec.Name += "Broken"
	spec.Body = "this is not OpenCL C;"
	spec.Dot = nil
	b := &launch.Grid{At: k.At, FP64: k.FP64, Spec: spec}
	if b.Kernel() != nil {
		t.Fatal("the broken kernel built")
	}
	return b
}
