package sumsq

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// BenchmarkSumSqMixed: 32 goroutines per core calling SumSq at once,
// one call in 16 over 2^20 elements and the others over one
// (cltest.Mixed), for the opencl, auto and parallel variants; auto-any
// is auto with the model deciding on any device type, PoCL's too
// (launch.ModelAnyDevice), so that the device's load decides there.
func BenchmarkSumSqMixed(b *testing.B) {
	xs := extest.Floats(extest.Rand(9, 1<<20), 1<<20, -1, 1)
	one := xs[:1]
	for _, v := range []struct {
		name   string
		fn     func([]float64) float64
		choice launch.Choice
	}{{"opencl", SumSqCL, launch.ByModel}, {"auto", SumSqAuto, launch.ByModel}, {"auto-any", SumSqAuto, launch.ModelAnyDevice}, {"parallel", SumSqPar, launch.ByModel}} {
		b.Run(v.name, func(b *testing.B) {
			if v.name == "opencl" {
				cltest.Require(b, soacgenCLSumSqCL)
			}
			defer launch.SetChoice(launch.SetChoice(v.choice))
			busy := launch.BusyChoices()
			cltest.Mixed(b, func() { v.fn(xs) }, func() { v.fn(one) })
			b.ReportMetric(float64(launch.BusyChoices()-busy)/float64(b.N), "busy-host/op")
		})
	}
}
