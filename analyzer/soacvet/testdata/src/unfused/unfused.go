// Package unfused holds pipelines outside specs: those that would fuse get
// an unfused finding, the rest none.
package unfused

import (
	"sync"

	"github.com/soacgen/soacgen/runtime/soac"
)

func square(x float64) float64 { return x * x }

func add(a, b float64) float64 { return a + b }

// twoPipelines has two independent pipelines; only the first finding
// carries the fix, which marks the whole function.
func twoPipelines(xs, ys []float64) (float64, float64) {
	a := soac.Reduce(soac.Map(soac.Map(xs, square), square), 0, add) // want `^pipeline of 3 SOACs makes 3 passes and allocates 2 intermediate slices; //soac:fuse would make it 1 pass$`
	zs := soac.Scan(soac.Map(ys, square), 0, add)                    // want `^pipeline of 2 SOACs makes 2 passes and allocates 1 intermediate slice; //soac:fuse would make it 1 pass$`
	return a, zs[len(zs)-1]
}

// minMax makes two reductions over xs, which fusion merges horizontally:
// one pass instead of two, and no intermediate slice either way.
func minMax(xs []float64) (float64, float64) {
	lo := soac.Reduce(xs, xs[0], func(a, b float64) float64 { return min(a, b) }) // want `^pipeline of 2 SOACs makes 2 passes; //soac:fuse would make it 1 pass$`
	hi := soac.Reduce(xs, xs[0], func(a, b float64) float64 { return max(a, b) })
	return lo, hi
}

// norm's default name is taken by a function, and normFused2 by another
// spec's directive: the fix uses normFused3.
func norm(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, square), 0, add) // want `pipeline of 2 SOACs`
}

func normFused() {}

//soac:fuse normFused2
func other(xs []float64) []float64 {
	return soac.Map(soac.Map(xs, square), square)
}

// Indices maps over an index space: Iota makes no pass of its own, so the
// gain of fusion is the allocation.
func Indices(n int) []float64 {
	return soac.Map(soac.Iota(n), func(i int) float64 { return float64(i) / 2 }) // want `^pipeline of 2 SOACs makes 1 pass and allocates 1 intermediate slice; //soac:fuse would make it 1 pass allocating none$`
}

type box struct{ k float64 }

// scaledSum is a method: it gets the finding but no fix, since a directive
// applies to top-level functions only.
func (b box) scaledSum(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * b.k }), 0, add) // want `pipeline of 2 SOACs`
}

// single has one SOAC: nothing to fuse.
func single(xs []float64) float64 {
	return soac.Reduce(xs, 0, add)
}

// independent has two SOACs over different arrays of unrelated lengths:
// they cannot share a pass.
func independent(xs, ys []float64) (float64, float64) {
	return soac.Reduce(xs, 0, add), soac.Reduce(ys, 0, add)
}

// writeBetween writes the intermediate between producer and consumer:
// fusing would lose the write (the reduction would see 100 replaced by
// square(xs[0])), so there is no pipeline to report.
func writeBetween(xs []float64) float64 {
	ys := soac.Map(xs, square)
	ys[0] = 100
	return soac.Reduce(ys, 0, add)
}

// captureReassigned reassigns a variable the producer's lambda captures
// before the consumer runs: fusing would compute the map with c.k = 3
// instead of 2, and c holds a lock, which is never copied.
func captureReassigned(xs []float64) float64 {
	c := locked{k: 2}
	ys := soac.Map(xs, func(x float64) float64 { return x * c.k })
	c = locked{k: 3}
	return soac.Reduce(ys, c.k, add) + c.k
}

// locked is a factor guarded by a lock.
type locked struct {
	mu sync.Mutex
	k  float64
}

// already is a spec: its pipeline is fused by soacgen, so no unfused
// finding.
//
//soac:fuse AlreadyFused
func already(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, square), 0, add)
}
