package blackscholes

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// BenchmarkCallPricesMixed: 32 goroutines per core pricing at once, one
// call in 16 over 2^16 options and the others over one (cltest.Mixed),
// for the opencl, auto and parallel variants; auto-any is auto with the
// model deciding on any device type, PoCL's too (launch.ModelAnyDevice),
// so that the device's load decides there.
func BenchmarkCallPricesMixed(b *testing.B) {
	opts := randOptions(1 << 16)
	one := opts[:1]
	for _, v := range []struct {
		name   string
		fn     func([]Option) []float64
		choice launch.Choice
	}{{"opencl", CallPricesCL, launch.ByModel}, {"auto", CallPricesAuto, launch.ByModel}, {"auto-any", CallPricesAuto, launch.ModelAnyDevice}, {"parallel", CallPricesPar, launch.ByModel}} {
		b.Run(v.name, func(b *testing.B) {
			if v.name == "opencl" {
				cltest.Require(b, soacgenCLCallPricesCL)
			}
			defer launch.SetChoice(launch.SetChoice(v.choice))
			busy := launch.BusyChoices()
			cltest.Mixed(b, func() { v.fn(opts) }, func() { v.fn(one) })
			b.ReportMetric(float64(launch.BusyChoices()-busy)/float64(b.N), "busy-host/op")
		})
	}
}
