package clresident

import "github.com/soacgen/soacgen/runtime/soac"

// Grid results ([][]T) kept on the device for the later kernels that
// read them (launch.KeepRows, Grid.RunOn; launch.RowsDev).

// GridChain keeps the first grid's result on the device for the second
// grid, which maps its rows. (The write of ys between the two, which
// both read, keeps them two kernels: the fusion engine would merge the
// maps over a's rows.)
//
//soac:fuse GridChain backend=opencl
func gridChainSpec(a [][]int64, xs, ws []int64) [][]int64 {
	if len(xs) == 0 {
		return nil
	}
	ys, ws := xs[:min(len(xs), 40)], ws[:min(len(ws), 40)]
	c := soac.Map(a, func(row []int64) []int64 {
		return soac.Map(ys, func(y int64) int64 { return y*int64(len(row)) + 1 })
	})
	ys[0]++
	return soac.Map(c, func(row []int64) []int64 {
		return soac.Map(ws, func(w int64) int64 {
			if len(row) == 0 {
				return w
			}
			return w ^ row[uint64(w)%uint64(len(row))] + ys[0]
		})
	})
}

// GridDotIn keeps the product p = a·bᵀ on the device for the second
// product, p·bᵀ, which reads it as its rows (skel.Dot both; the write
// of b between keeps them two kernels).
//
//soac:fuse GridDotIn backend=opencl
func gridDotInSpec(a, b [][]float64) [][]float64 {
	// At most 64 rows: random inputs of many rows stay small.
	a, b = a[:min(len(a), 64)], b[:min(len(b), 64)]
	p := soac.Map(a, func(ra []float64) []float64 {
		return soac.Map(b, func(rb []float64) float64 {
			return soac.Reduce(soac.Map2(ra, rb, func(x, y float64) float64 { return x * y }), 0, func(s, t float64) float64 { return s + t })
		})
	})
	if len(b) > 0 && len(b[0]) > 0 {
		b[0][0] += 0.5
	}
	return soac.Map(p, func(rp []float64) []float64 {
		return soac.Map(b, func(rb []float64) float64 {
			return soac.Reduce(soac.Map2(rp, rb, func(x, y float64) float64 { return x * y }), 0, func(s, t float64) float64 { return s + t })
		})
	})
}

// gridSide bounds the matrices of GridDotXs: random inputs of many rows
// stay small; BenchmarkGridDotXs raises it.
var gridSide = 64

// GridDotXs keeps the product p = a·bᵀ on the device for the second
// product, c·pᵀ, whose inner Map runs over its rows.
//
//soac:fuse GridDotXs backend=opencl
func gridDotXsSpec(a, b, c [][]float64) [][]float64 {
	a, b, c = a[:min(len(a), gridSide)], b[:min(len(b), gridSide)], c[:min(len(c), gridSide)]
	p := soac.Map(a, func(ra []float64) []float64 {
		return soac.Map(b, func(rb []float64) float64 {
			return soac.Reduce(soac.Map2(ra, rb, func(x, y float64) float64 { return x * y }), 0, func(s, t float64) float64 { return s + t })
		})
	})
	return soac.Map(c, func(rc []float64) []float64 {
		return soac.Map(p, func(rp []float64) float64 {
			return soac.Reduce(soac.Map2(rc, rp, func(x, y float64) float64 { return x * y }), 0, func(s, t float64) float64 { return s + t })
		})
	})
}

// GridRowsCaptured keeps the grid's result on the device for the
// map-reduce whose lambda reads it at indices (a captured [][]T).
//
//soac:fuse GridRowsCaptured backend=opencl
func gridRowsCapturedSpec(a [][]int64, xs []int64) int64 {
	if len(a) == 0 || len(xs) == 0 {
		return 0
	}
	ys := xs[:min(len(xs), 40)]
	c := soac.Map(a, func(row []int64) []int64 {
		return soac.Map(ys, func(y int64) int64 { return y + int64(len(row)) })
	})
	return soac.Reduce(soac.Map(xs, func(x int64) int64 {
		r := c[uint64(x)%uint64(len(c))]
		return x * r[uint64(x)%uint64(len(r))]
	}), 0, func(s, t int64) int64 { return s + t })
}

// GridIntoRows keeps the grid's result for a kernel of one work-item
// per row (openclrows.go), which reads rows from Go memory: it
// downloads it first (the write of ys between keeps them two kernels).
//
//soac:fuse GridIntoRows backend=opencl
func gridIntoRowsSpec(a [][]int64, xs []int64) []int64 {
	if len(xs) == 0 {
		return nil
	}
	ys := xs[:min(len(xs), 40)]
	c := soac.Map(a, func(row []int64) []int64 {
		return soac.Map(ys, func(y int64) int64 { return y * int64(len(row)+1) })
	})
	ys[0]++
	return soac.Map(c, func(row []int64) int64 {
		return soac.Reduce(row, 0, func(s, t int64) int64 { return max(s, t) }) + ys[0]
	})
}

// GridReadBetween reads the grid's result in Go code between the
// kernels: the first grid downloads it.
//
//soac:fuse GridReadBetween backend=opencl
func gridReadBetweenSpec(a [][]int64, xs, ws []int64) [][]int64 {
	xs, ws = xs[:min(len(xs), 40)], ws[:min(len(ws), 40)]
	c := soac.Map(a, func(row []int64) []int64 {
		return soac.Map(xs, func(x int64) int64 { return x*int64(len(row)) + 1 })
	})
	if len(c) > 0 && len(c[0]) > 0 {
		c[0][0] = -c[0][0]
	}
	return soac.Map(c, func(row []int64) []int64 {
		return soac.Map(ws, func(w int64) int64 {
			if len(row) == 0 {
				return w
			}
			return w ^ row[uint64(w)%uint64(len(row))]
		})
	})
}

// GridRowsScanned keeps the grid's result on the device for a kernel
// that the opencl backend splits (a scan, then a map reading the scan):
// the split's second launch reads the kept [][]T as a capture there
// (launch.RowsDev), never the Go variable, which is unset while the
// device holds the array.
//
//soac:fuse GridRowsScanned backend=opencl
func gridRowsScannedSpec(a [][]int64, xs []int64) []int64 {
	if len(a) == 0 || len(xs) == 0 {
		return nil
	}
	ys := xs[:min(len(xs), 40)]
	c := soac.Map(a, func(row []int64) []int64 {
		return soac.Map(ys, func(y int64) int64 { return y - int64(len(row)) })
	})
	s := soac.Scan(xs, 0, func(p, q int64) int64 { return p + q })
	return soac.Map(s, func(v int64) int64 {
		r := c[uint64(v)%uint64(len(c))]
		return v ^ r[uint64(v)%uint64(len(r))]
	})
}
