package skel

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/pinned"
	"github.com/soacgen/soacgen/runtime/parallel"
)

// linkBytes is the size of one link measurement: large enough that
// per-transfer overhead is negligible.
const linkBytes = 256 << 20

// pinnedBuffer allocates a CL_MEM_ALLOC_HOST_PTR buffer of size bytes and
// maps it; cleanup unmaps and releases it.
func pinnedBuffer(tb testing.TB, d *device.Device, size int) []byte {
	b, err := d.Ctx.CreateEmptyBuffer(cl.MemReadWrite|cl.MemAllocHostPtr, size)
	if err != nil {
		tb.Fatal(err)
	}
	host, ev, err := d.Queue.EnqueueMapBuffer(b, true, cl.MapRead|cl.MapWrite, 0, size, nil)
	if err != nil {
		tb.Fatal(err)
	}
	ev.Release()
	tb.Cleanup(func() {
		if e, err := d.Queue.EnqueueUnmapMemObject(b, host, nil); err == nil {
			e.Wait()
			e.Release()
		}
		b.Release()
	})
	return host
}

var (
	linkOnce         sync.Once
	linkUp, linkDown float64 // GB/s, wall time of blocking transfers
)

// measureLink times blocking clEnqueueWriteBuffer and clEnqueueReadBuffer
// of linkBytes between a mapped pinned buffer and a device buffer, the
// best of five each: the link's bandwidth as plain OpenCL reaches it.
func measureLink(b *testing.B, d *device.Device) (up, down float64) {
	linkOnce.Do(func() {
		host := pinnedBuffer(b, d, linkBytes)
		dev, err := d.Buffer(linkBytes)
		if err != nil {
			b.Fatal(err)
		}
		defer d.Recycle(dev)
		best := func(f func() (*cl.Event, error)) float64 {
			var ts []time.Duration
			for range 5 {
				t0 := time.Now()
				e, err := f()
				if err != nil {
					b.Fatal(err)
				}
				ts = append(ts, time.Since(t0))
				e.Release()
			}
			sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
			return float64(linkBytes) / float64(ts[0].Nanoseconds())
		}
		linkUp = best(func() (*cl.Event, error) { return d.Queue.EnqueueWriteBuffer(dev, true, 0, host, nil) })
		linkDown = best(func() (*cl.Event, error) { return d.Queue.EnqueueReadBuffer(dev, true, 0, host, nil) })
	})
	return linkUp, linkDown
}

// BenchmarkLink reports the link's bandwidth from pinned memory (GB/s of
// device time per transfer of linkBytes, and link-GB/s: the best wall
// time of blocking transfers, which the transfer benchmarks compare with).
func BenchmarkLink(b *testing.B) {
	d := benchDevice(b)
	host := pinnedBuffer(b, d, linkBytes)
	dev := deviceBuf(b, d, linkBytes)
	for _, dir := range []string{"up", "down"} {
		b.Run(dir, func(b *testing.B) {
			up, down := measureLink(b, d)
			runKernelBench(b, func() (Timing, error) {
				var e *cl.Event
				var err error
				if dir == "up" {
					e, err = d.Queue.EnqueueWriteBuffer(dev, true, 0, host, nil)
				} else {
					e, err = d.Queue.EnqueueReadBuffer(dev, true, 0, host, nil)
				}
				if err != nil {
					return Timing{}, err
				}
				defer e.Release()
				t, err := e.Duration()
				return Timing{Kernel: t}, err
			}, linkBytes)
			if dir == "up" {
				b.ReportMetric(up, "link-GB/s")
			} else {
				b.ReportMetric(down, "link-GB/s")
			}
		})
	}
}

// BenchmarkTransfer moves n float32s of Go memory to the device (up) and
// back (down): plain blocking transfers from pageable memory against the
// staged pipeline (transfer.go) and against slices of package pinned
// (one direct transfer, the path run.write and run.read take for them),
// wall time per call, and pct-of-link against the link measured in the
// same process (measureLink). The down/fresh cases download into a
// destination allocated by each call, as generated code allocates its
// results: with make (the runtime clears a reused span on the calling
// goroutine) and with parallel.Alloc (not cleared: the staged copy's
// goroutines fault the pages in, in parallel).
func BenchmarkTransfer(b *testing.B) {
	d := benchDevice(b)
	n := benchN(d)
	x := benchInput(n)
	y := make([]float32, n)
	xp, freeX := pinned.MakeOn[float32](d, n)
	defer freeX()
	yp, freeY := pinned.MakeOn[float32](d, n)
	defer freeY()
	copy(xp, x)
	if !pinned.Is(xp) || !pinned.Is(yp) {
		b.Fatal("pinned.MakeOn fell back to Go memory")
	}
	dev := deviceBuf(b, d, 4*n)
	bytes := 4 * int64(n)
	pol := stagePolicy{on: true, chunk: stageChunk, min: stageMin, pieceMin: stagePieceMin}
	for _, c := range []struct {
		name string
		up   bool
		f    func() error
	}{
		{"up/pageable", true, func() error {
			e, err := d.Queue.EnqueueWriteBuffer(dev, true, 0, cl.Bytes(x), nil)
			if err == nil {
				e.Release()
			}
			return err
		}},
		{"up/staged", true, func() error {
			_, err := doRun(d, func(r *run) error { return r.stagedWrite(dev, cl.Bytes(x), pol) })
			return err
		}},
		{"up/usehostptr", true, func() error {
			// The Go slice as a CL_MEM_USE_HOST_PTR buffer, copied on the
			// device: zero host copies if the driver reads it in place.
			var pin runtime.Pinner
			defer pin.Unpin()
			pin.Pin(&x[0])
			hb, err := d.Ctx.CreateBufferHost(cl.MemUseHostPtr|cl.MemReadOnly, cl.Bytes(x))
			if err != nil {
				return err
			}
			defer hb.Release()
			e, err := d.Queue.EnqueueCopyBuffer(hb, dev, 0, 0, int(bytes), nil)
			if err != nil {
				return err
			}
			defer e.Release()
			return e.Wait()
		}},
		{"up/pinned", true, func() error {
			_, err := doRun(d, func(r *run) error { return r.write(dev, cl.Bytes(xp)) })
			return err
		}},
		{"up/pinned-offset", true, func() error {
			// A sub-slice from 4 bytes into the mapping: the driver must
			// see interior pointers of pinned memory as pinned too.
			_, err := doRun(d, func(r *run) error { return r.write(dev, cl.Bytes(xp[1:])) })
			return err
		}},
		{"down/pageable", false, func() error {
			e, err := d.Queue.EnqueueReadBuffer(dev, true, 0, cl.Bytes(y), nil)
			if err == nil {
				e.Release()
			}
			return err
		}},
		{"down/staged", false, func() error {
			_, err := doRun(d, func(r *run) error { return r.stagedRead(dev, cl.Bytes(y), pol) })
			return err
		}},
		{"down/fresh-make-staged", false, func() error {
			_, err := doRun(d, func(r *run) error { return r.stagedRead(dev, cl.Bytes(make([]float32, n)), pol) })
			return err
		}},
		{"down/fresh-alloc-staged", false, func() error {
			_, err := doRun(d, func(r *run) error { return r.stagedRead(dev, cl.Bytes(parallel.Alloc[float32](n)), pol) })
			return err
		}},
		{"down/pinned", false, func() error {
			_, err := doRun(d, func(r *run) error { return r.read(dev, cl.Bytes(yp)) })
			return err
		}},
		// The host copy alone, Go slice into pinned memory as the staged
		// upload's copies do, without the DMA: the most a staged transfer
		// from pageable memory can reach on this host (its pct-of-link
		// against the upload link).
		{"copy/host-staged", true, func() error {
			parallelCopy(cl.Bytes(yp), cl.Bytes(x), copyWorkersUp)
			return nil
		}},
	} {
		workers := []int{0}
		if strings.HasSuffix(c.name, "staged") {
			workers = []int{4, 8, 16}
		}
		for _, w := range workers {
			name := c.name
			if len(workers) > 1 {
				name += fmt.Sprintf("-w%d", w)
			}
			b.Run(name, func(b *testing.B) {
				if w > 0 {
					defer func(up, down int) { copyWorkersUp, copyWorkersDown = up, down }(copyWorkersUp, copyWorkersDown)
					copyWorkersUp, copyWorkersDown = w, w
				}
				up, down := measureLink(b, d)
				link := down
				if c.up {
					link = up
				}
				runE2E(b, c.f, bytes)
				gbs := float64(bytes) * float64(b.N) / float64(b.Elapsed().Nanoseconds())
				b.ReportMetric(100*gbs/link, "pct-of-link")
			})
		}
	}
}
