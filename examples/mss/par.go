package mss

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names.

import "github.com/soacgen/soacgen/runtime/soac"

// mssParSpec is mssSpec for the parallel backend.
//
//soac:fuse MSSPar backend=parallel
func mssParSpec(xs []int) int {
	return soac.Reduce(soac.Map(xs, func(x int) segs {
		m := max(x, 0)
		return segs{m, m, m, x}
	}), segs{}, combine).Best
}
