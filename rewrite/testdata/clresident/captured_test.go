package clresident

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// The tests of map outputs kept on the device for the kernels whose
// lambdas read them as captured slices (captured.go's specs; rewrite's
// differential test compares every spec with its own on random inputs).

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
	ks := swapped(t, redomapVar(&soacgenCLCapturedMap), redomapVar(&soacgenCLCapturedMap2))
	for _, n := range []int{1, 2, 7, 4097, 100_003} {
		xs := ints(n)
		// xs shared by the two kernels on the device (uploaded by the
		// reader alone after a map on the CPU); ys read on the device,
		// uploaded as a capture after a map on the CPU, downloaded for a
		// reader on the CPU.
		ks.check(fmt.Sprintf("n=%d", n), fmt.Sprint(capturedMapSpec(xs)), func() string { return fmt.Sprint(CapturedMap(xs)) },
			[]traffic{{1, 0, 0, 1}, {1, 0, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}})
	}
}

// TestCapturedTwice: the map's output stays on the device for both
// readers (a filter's and a map-reduce's lambdas); a reader on the CPU
// downloads it once, and the other still reads the device copy.
func TestCapturedTwice(t *testing.T) {
	ks := swapped(t, redomapVar(&soacgenCLCapturedTwice), filterVar(&soacgenCLCapturedTwice2), redomapVar(&soacgenCLCapturedTwice3))
	// Uploads: xs (shared by the map and the map-reduce), zs by the
	// filter. Downloads: the filter's kept elements, and ys once for the
	// readers on the CPU. ys as a capture: read on the device after a map
	// there, uploaded by each reader on the device after a map on the
	// CPU.
	moves := make([]traffic, 8)
	for mask := range moves {
		w := &moves[mask]
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
	}
	for _, n := range []int{1, 2, 7, 4097, 100_003} {
		xs, zs := ints(n), mixed(n+3)
		ks.check(fmt.Sprintf("n=%d", n), fmt.Sprint(capturedTwiceSpec(xs, zs)), func() string { return fmt.Sprint(CapturedTwice(xs, zs)) }, moves)
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
		var tr traffic
		noFallback(t, func() { tr = measure(func() { got = CapturedReadBetween(xs) }) }, "n=%d", n)
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
	ks := swapped(t, redomapVar(&soacgenCLCapturedStream), streamVar(&soacgenCLCapturedStream2))
	for _, n := range []int{1, 2, 7, 4097, 100_003} {
		xs, zs := ints(n), mixed(2*n+1)
		// xs uploaded by the map on the device, zs by the stream there,
		// which downloads its row; ys read on the device, uploaded as a
		// capture after a map on the CPU, downloaded for a stream on the
		// CPU.
		ks.check(fmt.Sprintf("n=%d", n), fmt.Sprint(capturedStreamSpec(xs, zs)), func() string { return fmt.Sprint(CapturedStream(xs, zs)) },
			[]traffic{{2, 1, 0, 1}, {1, 1, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}})
	}
}

// TestCapturedGrid: the map's kept output stays on the device for the
// grid kernel that maps it (launch.ViewDev; the rows are uploaded as a
// captured slice); with the map on the CPU the grid uploads the Go
// slice, with the grid on the CPU it downloads it first. The results
// are the spec's.
func TestCapturedGrid(t *testing.T) {
	ks := swapped(t, redomapVar(&soacgenCLCapturedGrid), gridVar(&soacgenCLCapturedGrid2))
	for _, n := range []int{1, 7, 300} {
		xs := ints(n)
		m := make([][]int64, n/3+1)
		for i := range m {
			m[i] = ints(i % 5)
		}
		// xs uploaded by the map on the device; the grid's rows uploaded
		// as a capture, ys read on the device after a map there, else
		// uploaded; the grid's result downloaded, ys for a grid on the
		// CPU.
		ks.check(fmt.Sprintf("n=%d", n), fmt.Sprint(capturedGridSpec(xs, m)), func() string { return fmt.Sprint(CapturedGrid(xs, m)) },
			[]traffic{{1, 1, 1, 1}, {0, 1, 2, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}})
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
