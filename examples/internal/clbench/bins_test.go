package clbench

import (
	"testing"

	"github.com/soacgen/soacgen/examples/histogram"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
	"github.com/soacgen/soacgen/runtime/opencl/pinned"
)

// BenchmarkHistogramBins times HistogramCL, which runs on the bins
// skeleton (work-group bins in local memory, atomic additions), at 1e7
// and 1e8 values into 256 bins: opencl from pageable and from pinned
// memory (ns/op end to end, kernel-ns/op and transfer-ns/op from
// profiling events, input-GB/s: the values' bytes over the kernel time,
// to set against skel's BenchmarkCopy, whose GB/s counts bytes read
// and written), and parallel, HistogramPar on every core (GOMAXPROCS).
// It fails when a call did not run the bins skeleton, which it runs on
// CPU devices too (launch.SetBinsOnCPU).
func BenchmarkHistogramBins(b *testing.B) {
	defer launch.SetBinsOnCPU(launch.SetBinsOnCPU(true))
	for _, c := range []struct {
		name string
		n    int
	}{{"n=1e7", 10_000_000}, {"n=1e8", 100_000_000}} {
		b.Run(c.name, func(b *testing.B) {
			xs := floats(c.n, 11)
			for _, mem := range []string{"pageable", "pinned"} {
				x := xs
				if mem == "pinned" {
					p, free := pinned.Make[float64](len(xs))
					copy(p, xs)
					x = p
					defer free()
				}
				b.Run("opencl-"+mem, func(b *testing.B) {
					runs := launch.BinsRuns()
					k := onDevice(b, func() { histogram.HistogramCL(x, -1, 1, 256) })
					if launch.BinsRuns()-runs < int64(b.N) {
						b.Fatal("a call did not run on the bins skeleton")
					}
					b.ReportMetric(float64(8*c.n)/k, "input-GB/s")
				})
			}
			b.Run("parallel", func(b *testing.B) {
				b.SetBytes(int64(8 * c.n))
				for range b.N {
					histogram.HistogramPar(xs, -1, 1, 256)
				}
			})
		})
	}
}
