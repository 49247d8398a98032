package parallel_test

// ForMeasured: every element exactly once for any element cost (cheap
// ones coarsen the grain, costly ones refine it), under GOMAXPROCS 1, 2
// and 8. Its panics are tested with the other operations (panic_test.go).

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/soacgen/soacgen/runtime/parallel"
)

func TestForMeasured(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, cost := range []time.Duration{0, 20 * time.Microsecond} {
			for _, grain := range []int{1, 3, 1000} {
				for _, n := range []int{0, 1, 2, 3, 7, 2*grain - 1, 2 * grain, 2*grain + 1, 5000} {
					if cost > 0 && n > 100 {
						continue
					}
					seen := make([]atomic.Int32, n)
					parallel.ForMeasured(n, grain, func(lo, hi int) {
						if lo < 0 || hi > n || lo > hi {
							t.Errorf("chunk [%d, %d) of n=%d", lo, hi, n)
							return
						}
						for i := lo; i < hi; i++ {
							if cost > 0 {
								time.Sleep(cost)
							}
							seen[i].Add(1)
						}
					})
					for i := range seen {
						if c := seen[i].Load(); c != 1 {
							t.Fatalf("GOMAXPROCS %d cost %v grain %d n %d: element %d ran %d times", procs, cost, grain, n, i, c)
						}
					}
				}
			}
		}
	}
}
