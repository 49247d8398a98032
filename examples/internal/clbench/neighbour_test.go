package clbench

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

// BenchmarkAfterNeighbour times one device call right after each of
// several neighbours, to tell what makes a device call slow after a
// 16-core parallel call (BenchmarkAutoRounds's -after- figures): back to
// back with another device call (device), after a 1 ms sleep (sleep),
// after the example's parallel variant (parallel), and after as long a
// spin of GOMAXPROCS plain goroutines that never touch runtime/parallel
// (spin). If spin slows the device call as parallel does, the host's
// state after an all-core burst is the cause, not the parallel runtime.
// The examples: CallPrices at 1e4 and MatMul at 256², where the effect
// was largest. It reports the median of the device call's times
// (dev-ns/op) and of the neighbour's (neighbour-ns/op).
func BenchmarkAfterNeighbour(b *testing.B) {
	for _, c := range autoCasesAt([]int{10_000}, []int{256}) {
		if c.name != "CallPrices/n=10000" && c.name != "MatMul/m=256" {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			cl, par, _ := c.setup()
			cl()
			par()
			t0 := time.Now()
			par()
			parTime := time.Since(t0)
			for _, n := range []struct {
				name string
				f    func()
			}{
				{"device", cl},
				{"sleep", func() { time.Sleep(time.Millisecond) }},
				{"parallel", par},
				{"spin", func() { spin(runtime.GOMAXPROCS(0), parTime) }},
			} {
				b.Run(n.name, func(b *testing.B) {
					devs, ns := make([]float64, 0, b.N), make([]float64, 0, b.N)
					b.ResetTimer()
					for range b.N {
						t0 := time.Now()
						n.f()
						t1 := time.Now()
						cl()
						ns, devs = append(ns, float64(t1.Sub(t0))), append(devs, float64(time.Since(t1)))
					}
					b.StopTimer()
					b.ReportMetric(extest.Median(devs), "dev-ns/op")
					b.ReportMetric(extest.Median(ns), "neighbour-ns/op")
				})
			}
		})
	}
}

// spin keeps g goroutines busy for d, each checking the clock.
func spin(g int, d time.Duration) {
	var wg sync.WaitGroup
	end := time.Now().Add(d)
	for range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
			}
		}()
	}
	wg.Wait()
}
