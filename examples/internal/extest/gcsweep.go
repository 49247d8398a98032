package extest

// This file measures what the collector and the kernel's page faults
// cost a benchmark that allocates a fresh output every call (the
// parallel scans and filters at 1e6 elements: an 8-16 MB output every
// 0.3-1 ms), by running the same calls under several GOGC settings and
// reporting collections and minor page faults per call beside the time.

import (
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
)

// Call is one named function of a benchmark, called once per iteration.
type Call struct {
	Name string
	Call func()
}

// GCSweep runs every call under every GOGC percentage of percents, as
// sub-benchmarks "gogc=P/NAME" (calls of one setting side by side, so
// their ratios come from one stretch of the run), and reports for each
// gc/op (collections per call) and faults/op (the process's minor page
// faults per call, 0 where the platform does not count them). It
// restores the GOGC it found, and collects before each sub-benchmark so
// that none inherits another's garbage.
func GCSweep(b *testing.B, bytes int64, percents []int, calls ...Call) {
	for _, p := range percents {
		b.Run("gogc="+strconv.Itoa(p), func(b *testing.B) {
			old := debug.SetGCPercent(p)
			defer debug.SetGCPercent(old)
			for _, c := range calls {
				b.Run(c.Name, func(b *testing.B) {
					runtime.GC()
					b.ReportAllocs()
					b.SetBytes(bytes)
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					faults := minorFaults()
					for b.Loop() {
						c.Call()
					}
					faults = minorFaults() - faults
					runtime.ReadMemStats(&after)
					b.ReportMetric(float64(after.NumGC-before.NumGC)/float64(b.N), "gc/op")
					b.ReportMetric(float64(faults)/float64(b.N), "faults/op")
				})
			}
		})
	}
}
