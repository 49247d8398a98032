package blackscholes

import (
	"math"

	"github.com/soacgen/soacgen/runtime/parallel"
	"github.com/soacgen/soacgen/runtime/soac"
)

// callPricesParCaptured is CallPricesPar's parallel branch as the
// parallel backend generated it before its chunk functions declared their
// own copies of the function literals (hostgo.Func.LocalFuncsUsed): the
// chunk function calls fn, evaluated outside it, through the captured
// variable once per element, where the compiler inlines the literal into
// the cpu backend's loop. BenchmarkParPaired times it beside
// CallPricesPar.
func callPricesParCaptured(opts []Option) []float64 {
	fn := soac.Opaque(func(o Option) float64 {
		vst := o.V * math.Sqrt(o.T)
		d1 := (math.Log(o.S/o.K) + (o.R+0.5*o.V*o.V)*o.T) / vst
		d2 := d1 - vst
		return o.S*cnd(d1) - o.K*math.Exp(-o.R*o.T)*cnd(d2)
	})
	n := len(opts)
	in := opts[:n]
	out := parallel.Alloc[float64](n)[:n]
	parallel.For(n, 77, func(lo, hi int) {
		in := in[:hi]
		_ = in[lo:]
		out := out[:hi]
		_ = out[lo:]
		for i := lo; i < hi; i++ {
			out[i] = float64(fn(in[i]))
		}
	})
	return out
}
