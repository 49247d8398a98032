package clresident

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// The tests of grid results kept on the device (gridkept.go's specs;
// rewrite's differential test runs them beside the generated file, and
// compares every spec with its own on random inputs).

// matrix returns a rows × cols [][]T of small values, seeded by seed.
func matrix[T int64 | float64](rows, cols, seed int) [][]T {
	m := make([][]T, rows)
	for i := range m {
		m[i] = make([]T, cols)
		for j := range m[i] {
			m[i][j] = T((i*31+j*7+seed*13)%17) - 8
		}
	}
	return m
}

// deep returns a copy of m that shares no memory with it (the specs
// write their inputs).
func deep[T any](m [][]T) [][]T {
	c := make([][]T, len(m))
	for i, r := range m {
		c[i] = slices.Clone(r)
	}
	return c
}

// gridShapes are the shapes of the tests' matrices: rows, inner
// length, columns.
var gridShapes = [][3]int{{1, 1, 1}, {3, 5, 7}, {33, 17, 40}, {130, 64, 40}}

// TestGridChain: the first grid's result stays on the device for the
// second grid, which maps its rows (launch.RowsDev); with the second on
// the CPU it is downloaded once, with the first there nothing is kept.
func TestGridChain(t *testing.T) {
	ks := swapped(t, gridVar(&soacgenCLGridChain), gridVar(&soacgenCLGridChain2))
	for _, s := range gridShapes {
		a, xs, ws := matrix[int64](s[0], s[1], 1), ints(s[2]), ints(s[2]+3)
		want := fmt.Sprint(gridChainSpec(deep(a), slices.Clone(xs), slices.Clone(ws)))
		// Captured uploads: a and ys by the first grid, ws and ys by the
		// second, and c by it after a first grid on the CPU; c read on
		// the device after a first grid there. Downloads: each grid's
		// result on the device unless kept, c for a second on the CPU.
		ks.check(fmt.Sprint(s), want, func() string { return fmt.Sprint(GridChain(deep(a), slices.Clone(xs), slices.Clone(ws))) },
			[]traffic{{0, 1, 4, 1}, {0, 1, 3, 0}, {0, 1, 2, 0}, {0, 0, 0, 0}})
	}
}

// TestGridDotIn: the product p stays on the device for the second
// product, which reads it as its rows (two skel.Dot kernels).
func TestGridDotIn(t *testing.T) {
	ks := swapped(t, gridVar(&soacgenCLGridDotIn), gridVar(&soacgenCLGridDotIn2))
	for _, s := range gridShapes {
		a, b := matrix[float64](s[0], s[1], 1), matrix[float64](s[1], s[1], 2)
		want := fmt.Sprint(gridDotInSpec(deep(a), deep(b)))
		ks.check(fmt.Sprint(s), want, func() string { return fmt.Sprint(GridDotIn(deep(a), deep(b))) },
			[]traffic{{0, 1, 3, 1}, {0, 1, 2, 0}, {0, 1, 2, 0}, {0, 0, 0, 0}})
	}
}

// TestGridDotXs: the product p stays on the device for the second
// product, whose inner Map runs over its rows.
func TestGridDotXs(t *testing.T) {
	ks := swapped(t, gridVar(&soacgenCLGridDotXs), gridVar(&soacgenCLGridDotXs2))
	for _, s := range gridShapes {
		a, b, c := matrix[float64](s[0], s[1], 1), matrix[float64](s[2], s[1], 2), matrix[float64](s[0]+2, s[2], 3)
		want := fmt.Sprint(gridDotXsSpec(a, b, c))
		ks.check(fmt.Sprint(s), want, func() string { return fmt.Sprint(GridDotXs(a, b, c)) },
			[]traffic{{0, 1, 3, 1}, {0, 1, 2, 0}, {0, 1, 2, 0}, {0, 0, 0, 0}})
	}
}

// TestGridRowsCaptured: the grid's result stays on the device for the
// map-reduce whose lambda reads it as a captured [][]T.
func TestGridRowsCaptured(t *testing.T) {
	ks := swapped(t, gridVar(&soacgenCLGridRowsCaptured), redomapVar(&soacgenCLGridRowsCaptured2))
	for _, s := range gridShapes {
		a, xs := matrix[int64](s[0], s[1], 1), mixed(s[2]*50+1)
		want := fmt.Sprint(gridRowsCapturedSpec(a, xs))
		// xs uploaded by the map-reduce on the device; a and ys by the
		// grid there; c read there, uploaded as a capture after a grid
		// on the CPU, downloaded for a map-reduce on the CPU.
		ks.check(fmt.Sprint(s), want, func() string { return fmt.Sprint(GridRowsCaptured(a, xs)) },
			[]traffic{{1, 0, 2, 1}, {1, 0, 1, 0}, {0, 1, 2, 0}, {0, 0, 0, 0}})
	}
}

// TestGridIntoRows: the grid's result is kept, and the kernel of one
// work-item per row downloads it before it runs (it reads rows from Go
// memory).
func TestGridIntoRows(t *testing.T) {
	ks := swapped(t, gridVar(&soacgenCLGridIntoRows), redomapVar(&soacgenCLGridIntoRows2))
	for _, s := range gridShapes {
		a, xs := matrix[int64](s[0], s[1], 1), ints(s[2])
		want := fmt.Sprint(gridIntoRowsSpec(deep(a), slices.Clone(xs)))
		// The row kernel on the device: the spans uploaded, the rows'
		// elements and ys as captures, its output downloaded, and c
		// before it after a grid on the device.
		ks.check(fmt.Sprint(s), want, func() string { return fmt.Sprint(GridIntoRows(deep(a), slices.Clone(xs))) },
			[]traffic{{1, 2, 4, 0}, {1, 1, 2, 0}, {0, 1, 2, 0}, {0, 0, 0, 0}})
	}
}

// TestGridReadBetween: Go code writes the first grid's result between
// the grids, so the first downloads it and the second uploads it.
func TestGridReadBetween(t *testing.T) {
	ks := swapped(t, gridVar(&soacgenCLGridReadBetween), gridVar(&soacgenCLGridReadBetween2))
	for _, s := range gridShapes {
		a, xs, ws := matrix[int64](s[0], s[1], 1), ints(s[2]), ints(s[2]+3)
		want := fmt.Sprint(gridReadBetweenSpec(a, xs, ws))
		ks.check(fmt.Sprint(s), want, func() string { return fmt.Sprint(GridReadBetween(a, xs, ws)) },
			[]traffic{{0, 2, 4, 0}, {0, 1, 2, 0}, {0, 1, 2, 0}, {0, 0, 0, 0}})
	}
}

// BenchmarkGridDotXs measures what keeping the first product of
// GridDotXs (c·pᵀ for p = a·bᵀ) on the device saves, in one run: "kept"
// against "roundtrip" (launch.KeepOnDevice false: p downloaded and
// uploaded again), square float64 matrices of side SOACGEN_BENCH_SIDE
// (default 256).
func BenchmarkGridDotXs(b *testing.B) {
	side := 256
	if s := os.Getenv("SOACGEN_BENCH_SIDE"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			side = v
		}
	}
	old := gridSide
	gridSide = side
	defer func() { gridSide = old }()
	a, m, c := matrix[float64](side, side, 1), matrix[float64](side, side, 2), matrix[float64](side, side, 3)
	for _, keep := range []bool{true, false} {
		b.Run(fmt.Sprintf("side=%d/%s", side, map[bool]string{true: "kept", false: "roundtrip"}[keep]), func(b *testing.B) {
			if soacgenCLGridDotXs.Kernel() == nil || soacgenCLGridDotXs2.Kernel() == nil {
				b.Skip("no usable OpenCL device")
			}
			launch.KeepOnDevice = keep
			defer func() { launch.KeepOnDevice = true }()
			GridDotXs(a, m, c) // builds the programs
			b.ReportAllocs()
			b.SetBytes(int64(2 * 8 * side * side * side))
			var down int64
			for b.Loop() {
				_, d := moved(func() { GridDotXs(a, m, c) })
				down += d
			}
			b.ReportMetric(float64(down)/float64(b.N), "downloads/op")
		})
	}
}

// TestGridRowsScanned: a kernel split in two launches (a scan, then a
// map reading it) reads the grid's kept result as a captured [][]T
// (launch.RowsDev) and gives the spec's result, every launch on the
// device. (Reading the Go variable instead, unset while the device holds
// the array, flags the second launch and the CPU code downloads the
// array: the same result and the same counted transfers, but one
// launch.Fallbacks; TestOpenCLKeptGrids in package rewrite checks the
// generated code.)
func TestGridRowsScanned(t *testing.T) {
	if soacgenCLGridRowsScanned.Kernel() == nil || soacgenCLGridRowsScannedRest.Kernel() == nil {
		t.Skip("no usable OpenCL device")
	}
	for _, s := range gridShapes {
		a, xs := matrix[int64](s[0], s[1], 1), mixed(s[2]*50+1)
		want := fmt.Sprint(gridRowsScannedSpec(a, xs))
		var got string
		noFallback(t, func() { got = fmt.Sprint(GridRowsScanned(a, xs)) }, "%v: GridRowsScanned", s)
		if got != want {
			t.Errorf("%v: GridRowsScanned = %s, want %s", s, got, want)
		}
	}
}
