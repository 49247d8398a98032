package clbench

import (
	"sort"
	"testing"
	"time"

	"github.com/soacgen/soacgen/examples/blackscholes"
	"github.com/soacgen/soacgen/examples/dotprod"
	"github.com/soacgen/soacgen/examples/normalize2"
	"github.com/soacgen/soacgen/examples/sumsq"
	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
	"github.com/soacgen/soacgen/runtime/opencl/pinned"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// linkGBs measures the link from pinned memory: the best wall time of
// five blocking transfers of 256 MiB each way between a pinned.MakeOn
// slice and a device buffer (what BenchmarkLink in package skel
// measures), in GB/s.
func linkGBs(b *testing.B, d *device.Device) (up, down float64) {
	const size = 256 << 20
	host, free := pinned.MakeOn[byte](d, size)
	defer free()
	buf, err := d.Buffer(size)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Recycle(buf)
	best := func(write bool) float64 {
		var ts []time.Duration
		for range 5 {
			t0 := time.Now()
			var err error
			if write {
				_, err = skel.Write(d, buf, host)
			} else {
				_, err = skel.Read(d, buf, host)
			}
			if err != nil {
				b.Fatal(err)
			}
			ts = append(ts, time.Since(t0))
		}
		sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
		return float64(size) / float64(ts[0].Nanoseconds())
	}
	return best(true), best(false)
}

// BenchmarkOverlap runs transfer-bound examples end to end with their
// runs uncut ("serial": skel.SetPieces(0), upload, kernel, download one
// after the other) and cut into pieces whose transfers overlap the
// kernel ("overlap": skel.SetPieces(PieceBytes, MaxPieces), the GPU's default, forced
// on any device), on inputs in Go memory (pageable: staged on a GPU)
// and in pinned memory (pinned.Make: direct transfers; results are
// allocated by the generated code, so pageable). It reports the device
// time per call of the uploads (up-ms), kernels (kernel-ms) and
// downloads (down-ms), the wall time (wall-ms), the link measured in
// the same process (link-up-GB/s, link-down-GB/s, from pinned memory),
// and pct-of-link: the time the link needs for the call's bytes,
// max(up bytes / link up, down bytes / link down) (the two directions
// run at once), over the wall time: the end-to-end throughput as a
// fraction of the link. SOACGEN_BENCH_N sets n (default 1<<22).
func BenchmarkOverlap(b *testing.B) {
	d, err := device.Default()
	if err != nil {
		b.Skip(err)
	}
	n := size()
	xs, ys := floats(n, 1), floats(n, 3)
	opts := options()
	pin := func(xs []float64) []float64 {
		p, free := pinned.Make[float64](len(xs))
		b.Cleanup(free)
		copy(p, xs)
		return p
	}
	popts, free := pinned.Make[blackscholes.Option](len(opts))
	b.Cleanup(free)
	copy(popts, opts)
	pxs, pys := pin(xs), pin(ys)
	var linkUp, linkDown float64
	for _, c := range []struct {
		name     string
		up, down int // bytes per call
		f        func(pinned bool)
	}{
		{"SumSq", 8 * n, 0, func(p bool) { sumsq.SumSqCL(pick(p, pxs, xs)) }},
		{"Dot", 16 * n, 0, func(p bool) { dotprod.DotCL(pick(p, pxs, xs), pick(p, pys, ys)) }},
		{"CallPrices", 40 * n, 8 * n, func(p bool) { blackscholes.CallPricesCL(pick(p, popts, opts)) }},
		{"PortfolioValue", 40 * n, 0, func(p bool) { blackscholes.PortfolioValueCL(pick(p, popts, opts)) }},
		{"Normalize2", 8 * n, 16 * n, func(p bool) { normalize2.Normalize2CL(pick(p, pxs, xs)) }},
	} {
		for _, mem := range []string{"pageable", "pinned"} {
			for _, mode := range []string{"serial", "overlap"} {
				b.Run(c.name+"/"+mem+"/"+mode, func(b *testing.B) {
					if linkUp == 0 {
						linkUp, linkDown = linkGBs(b, d)
					}
					defer skel.SetPieces(map[string]int{"serial": 0, "overlap": skel.PieceBytes}[mode], skel.MaxPieces)()
					p := mem == "pinned"
					c.f(p) // builds the program
					k0, _ := launch.DeviceTime()
					u0, d0 := launch.TransferTimes()
					b.ResetTimer()
					for range b.N {
						c.f(p)
					}
					b.StopTimer()
					k1, _ := launch.DeviceTime()
					u1, d1 := launch.TransferTimes()
					if k1 == k0 {
						b.Fatal("no kernel ran on the device")
					}
					ms := func(t time.Duration) float64 { return float64(t.Nanoseconds()) / float64(b.N) / 1e6 }
					wall := ms(b.Elapsed())
					b.ReportMetric(ms(u1-u0), "up-ms")
					b.ReportMetric(ms(k1-k0), "kernel-ms")
					b.ReportMetric(ms(d1-d0), "down-ms")
					b.ReportMetric(wall, "wall-ms")
					b.ReportMetric(linkUp, "link-up-GB/s")
					b.ReportMetric(linkDown, "link-down-GB/s")
					need := max(float64(c.up)/linkUp, float64(c.down)/linkDown) / 1e6 // ms
					b.ReportMetric(100*need/wall, "pct-of-link")
				})
			}
		}
	}
}

// pick returns p when pinned is set, else s.
func pick[T any](pinned bool, p, s []T) []T {
	if pinned {
		return p
	}
	return s
}
