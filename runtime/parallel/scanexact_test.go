package parallel_test

// ScanExact: the sequential scan's results (an exactly associative,
// non-commutative operator on integers) into an uncleared output, under
// GOMAXPROCS 1, 2 and 8; one goroutine runs every chunk in one pass.

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/soacgen/soacgen/runtime/parallel"
	"github.com/soacgen/soacgen/runtime/soac"
)

// exactScan scans fs with then into an Alloc'd output (uncleared when
// large, so a chunk that skipped an element shows) and counts the chunks
// fixed up after their local scan.
func exactScan(fs []affine, grain int, fixed *atomic.Int64) ([]affine, affine) {
	n := len(fs)
	out := parallel.Alloc[affine](n)
	total := parallel.ScanExact(n, grain, affine{1, 0}, func(lo, hi int, start affine) affine {
		acc := start
		for i := lo; i < hi; i++ {
			acc = then(acc, fs[i])
			out[i] = acc
		}
		return acc
	}, func(lo, hi int, carry affine) {
		fixed.Add(1)
		for i := lo; i < hi; i++ {
			out[i] = then(carry, out[i])
		}
	}, then)
	return out, total
}

func TestScanExact(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(15, 16))
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, grain := range grains {
			for _, n := range sizes(grain) {
				fs := affines(ints(r, n))
				var fixed atomic.Int64
				out, total := exactScan(fs, grain, &fixed)
				if want := soac.Scan(fs, affine{1, 0}, then); !slices.Equal(out, want) {
					t.Fatalf("GOMAXPROCS %d grain %d n %d: ScanExact differs from soac.Scan", procs, grain, n)
				}
				if want := soac.Reduce(fs, affine{1, 0}, then); total != want {
					t.Errorf("GOMAXPROCS %d grain %d n %d: total %v, want %v", procs, grain, n, total, want)
				}
				if procs == 1 && fixed.Load() != 0 {
					t.Errorf("GOMAXPROCS 1 grain %d n %d: %d chunks fixed up, want every chunk scanned from its known carry", grain, n, fixed.Load())
				}
			}
		}
	}
}
