package blackscholes

// This file holds copies of the package's specs with backend=parallel, so
// that soacgen's parallel backend is generated, tested against the specs
// (par_test.go) and benchmarked beside the cpu backend. The copies must
// stay identical to the specs apart from their names.

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// callPricesParSpec is callPricesSpec for the parallel backend.
//
//soac:fuse CallPricesPar backend=parallel
func callPricesParSpec(opts []Option) []float64 {
	return soac.Map(opts, func(o Option) float64 {
		vst := o.V * math.Sqrt(o.T)
		d1 := (math.Log(o.S/o.K) + (o.R+0.5*o.V*o.V)*o.T) / vst
		d2 := d1 - vst
		return o.S*cnd(d1) - o.K*math.Exp(-o.R*o.T)*cnd(d2)
	})
}

// portfolioValueParSpec is portfolioValueSpec for the parallel backend.
//
//soac:fuse PortfolioValuePar backend=parallel
func portfolioValueParSpec(opts []Option) float64 {
	prices := soac.Map(opts, callPrice)
	return soac.Reduce(prices, 0.0, func(a, b float64) float64 { return a + b })
}
