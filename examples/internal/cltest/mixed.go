package cltest

import (
	"sync/atomic"
	"testing"
	"time"
)

// MixedParallelism is how many goroutines per GOMAXPROCS a Mixed
// benchmark runs: 32, so 64 on two cores.
const MixedParallelism = 32

// MixedLargeEvery says which calls of a Mixed benchmark are large: every
// 16th call of all the goroutines' (in the order they start), the others
// n = 1.
const MixedLargeEvery = 16

// Mixed measures throughput under concurrent load: MixedParallelism
// goroutines per GOMAXPROCS call at once, one call in MixedLargeEvery
// large and the others n = 1. ns/op is the time per call
// of the mix; small-µs/call and large-ms/call are the mean latencies of
// the two kinds (what a caller of each waits), reported beside it.
func Mixed(b *testing.B, large, small func()) {
	b.ReportAllocs()
	large() // builds the kernels outside the measurement
	small()
	var calls, smallNs, smallN, largeNs, largeN atomic.Int64
	b.SetParallelism(MixedParallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			t := time.Now()
			if calls.Add(1)%MixedLargeEvery == 0 {
				large()
				largeNs.Add(int64(time.Since(t)))
				largeN.Add(1)
			} else {
				small()
				smallNs.Add(int64(time.Since(t)))
				smallN.Add(1)
			}
		}
	})
	if n := smallN.Load(); n > 0 {
		b.ReportMetric(float64(smallNs.Load())/float64(n)/1e3, "small-µs/call")
	}
	if n := largeN.Load(); n > 0 {
		b.ReportMetric(float64(largeNs.Load())/float64(n)/1e6, "large-ms/call")
	}
}
