package clbench

import (
	"testing"

	"github.com/soacgen/soacgen/examples/dotprod"
	"github.com/soacgen/soacgen/examples/normalize2"
	"github.com/soacgen/soacgen/examples/sumsq"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
	"github.com/soacgen/soacgen/runtime/opencl/pinned"
)

// BenchmarkPinned runs SumSqCL, DotCL and Normalize2CL end to end on the
// same inputs in pageable Go memory (skel stages them on GPUs) and in
// pinned memory from pinned.Make (one direct transfer each): ns/op, the
// device's transfer time per call, and moved-GB/s, the bytes uploaded
// and downloaded over the wall time of a call. Normalize2's two results
// are allocated by the generated code (pageable, staged either way). On
// a CPU device pinned.Make gives Go memory, so both forms are the same
// there (pinned = 0).
func BenchmarkPinned(b *testing.B) {
	n := size()
	pin := func(xs []float64) []float64 {
		p, free := pinned.Make[float64](len(xs))
		b.Cleanup(free)
		copy(p, xs)
		return p
	}
	xs, ys := floats(n, 1), floats(n, 3)
	pxs, pys := pin(xs), pin(ys)
	for _, c := range []struct {
		name  string
		bytes int
		f     func(xs, ys []float64)
	}{
		{"SumSq", 8 * n, func(xs, _ []float64) { sumsq.SumSqCL(xs) }},
		{"Dot", 16 * n, func(xs, ys []float64) { dotprod.DotCL(xs, ys) }},
		{"Normalize2", 24 * n, func(xs, _ []float64) { normalize2.Normalize2CL(xs) }},
	} {
		for _, mem := range []string{"pageable", "pinned"} {
			x, y := xs, ys
			if mem == "pinned" {
				x, y = pxs, pys
			}
			b.Run(c.name+"/"+mem, func(b *testing.B) {
				c.f(x, y) // builds the program
				k0, t0 := launch.DeviceTime()
				b.ResetTimer()
				for range b.N {
					c.f(x, y)
				}
				b.StopTimer()
				k1, t1 := launch.DeviceTime()
				if k1 == k0 {
					b.Fatal("no kernel ran on the device")
				}
				b.ReportMetric(float64(t1-t0)/float64(b.N), "transfer-ns/op")
				b.ReportMetric(float64(c.bytes)*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "moved-GB/s")
				isPinned := 0.0
				if pinned.Is(x) {
					isPinned = 1
				}
				b.ReportMetric(isPinned, "pinned")
			})
		}
	}
}
