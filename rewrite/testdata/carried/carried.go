// Package carried holds specs whose variables change between the SOACs
// of a kernel — results assigned back to a variable that an earlier or the
// same SOAC reads, in loops and branches, through tuple assignment and
// breaks — and two chains that depend on each other through captured
// scalars, on every backend.
package carried

import (
	"math/rand/v2"

	"github.com/soacgen/soacgen/runtime/soac"
)

func add(a, b float64) float64 { return a + b }

func addi(a, b int) int { return a + b }

// iters returns 0 to 4 iterations, the argument of every loop spec.
func iters(r *rand.Rand) int { return r.IntN(5) }

//soac:fuse Halve
func halveSpec(xs []float64, n int) float64 {
	s := 0.0
	for it := 0; it < n; it++ {
		xs = soac.Map(xs, func(x float64) float64 { return x * 0.5 })
		s = soac.Reduce(xs, 0.0, add)
	}
	return s
}

func halveSpecArgs(r *rand.Rand, n int) []any { return []any{floats(r, n), iters(r)} }

//soac:fuse HalvePar backend=parallel
func halveParSpec(xs []float64, n int) float64 {
	s := 0.0
	for it := 0; it < n; it++ {
		xs = soac.Map(xs, func(x float64) float64 { return x * 0.5 })
		s = soac.Reduce(xs, 0.0, add)
	}
	return s
}

func halveParSpecArgs(r *rand.Rand, n int) []any { return []any{floats(r, n), iters(r)} }

//soac:fuse HalveCL backend=opencl
func halveCLSpec(xs []float64, n int) float64 {
	s := 0.0
	for it := 0; it < n; it++ {
		xs = soac.Map(xs, func(x float64) float64 { return x * 0.5 })
		s = soac.Reduce(xs, 0.0, add)
	}
	return s
}

func halveCLSpecArgs(r *rand.Rand, n int) []any { return []any{floats(r, n), iters(r)} }

// smooth captures the previous iteration's sum (integers: sums that
// grow this fast would round differently when reassociated).
//
//soac:fuse Smooth
func smoothSpec(xs []int, n int) (int, []int) {
	s := 0
	for it := 0; it < n; it++ {
		xs = soac.Map(xs, func(x int) int { return x/2 + s })
		s = soac.Reduce(xs, 0, addi)
	}
	return s, xs
}

func smoothSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), iters(r)} }

//soac:fuse SmoothPar backend=parallel
func smoothParSpec(xs []int, n int) (int, []int) {
	s := 0
	for it := 0; it < n; it++ {
		xs = soac.Map(xs, func(x int) int { return x/2 + s })
		s = soac.Reduce(xs, 0, addi)
	}
	return s, xs
}

func smoothParSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), iters(r)} }

//soac:fuse SmoothCL backend=opencl
func smoothCLSpec(xs []int, n int) (int, []int) {
	s := 0
	for it := 0; it < n; it++ {
		xs = soac.Map(xs, func(x int) int { return x/2 + s })
		s = soac.Reduce(xs, 0, addi)
	}
	return s, xs
}

func smoothCLSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), iters(r)} }

// swap is a double buffer.
//
//soac:fuse Swap
func swapSpec(xs, ys []int, n int) int {
	for it := 0; it < n; it++ {
		xs, ys = ys, soac.Map(xs, func(x int) int { return x*3 + 1 })
	}
	return soac.Reduce(soac.Map2(xs, ys, func(a, b int) int { return a*10 + b }), 0, addi)
}

func swapSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), ints(r, n), iters(r)} }

// breakOut leaves its loop with the Map's result.
//
//soac:fuse BreakOut
func breakOutSpec(xs []int, n int) int {
	s := 0
	for it := 0; it < n; it++ {
		xs = soac.Map(xs, func(x int) int { return x*2 - it })
		if it == 2 {
			break
		}
		s += soac.Reduce(xs, 0, addi)
	}
	return s + soac.Reduce(xs, 0, addi)
}

func breakOutSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), iters(r)} }

// branch assigns xs in one arm only.
//
//soac:fuse Branch backend=parallel
func branchSpec(xs []int, c bool) (int, []int) {
	s := 0
	if c {
		xs = soac.Map(xs, func(x int) int { return x - 7 })
		s = soac.Reduce(xs, 0, addi)
	}
	return s, xs
}

func branchSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), r.IntN(2) == 0} }

// condKeep: where the if does not run, a is still the Scan's result,
// which the kernel fusing the Scan into the Reduce must write out.
//
//soac:fuse CondKeep
//soac:fuse CondKeepPar backend=parallel
//soac:fuse CondKeepCL backend=opencl
func condKeepSpec(xs []int) ([]int, int) {
	a := soac.Scan(xs, 0, addi)
	s := soac.Reduce(a, 0, addi)
	if len(xs)%2 == 1 {
		a = soac.Map(xs, func(x int) int { return -x })
	}
	return a, s
}

// twoCopies: both Maps capture s, which the Reduce reassigns before the
// kernel they join runs; each reads a copy taken where it is written.
//
//soac:fuse TwoCopies
//soac:fuse TwoCopiesPar backend=parallel
//soac:fuse TwoCopiesCL backend=opencl
func twoCopiesSpec(xs, ys []int) (int, int) {
	s := 3
	a := soac.Map(xs, func(x int) int { return x + s })
	b := soac.Map(a, func(x int) int { return x * s })
	s = soac.Reduce(ys, 0, addi)
	t := soac.Reduce(soac.Map(b, func(v int) int { return v - s }), 0, addi)
	return t, s
}

func twoCopiesSpecArgs(r *rand.Rand, n int) []any { return []any{ints(r, n), ints(r, r.IntN(4))} }

// selfStream: xs = soac.Map(xs, f) fused into the stream that reads it,
// and written out: the kernel reads the earlier xs while it fills the
// new one.
//
//soac:fuse SelfStream
//soac:fuse SelfStreamPar backend=parallel
//soac:fuse SelfStreamCL backend=opencl
func selfStreamSpec(xs []int, k int) ([]int, int) {
	s := soac.Reduce(xs, 0, addi)
	xs = soac.Map(xs, func(x int) int { return x*k + s })
	r := soac.StreamRed(xs, addi, func(ch []int) int {
		t := 0
		for _, v := range ch {
			t += v ^ 5
		}
		return t
	})
	return xs, r
}

// crossCapture: the Map at v6 reads v0 and v1, computed with v4, which
// captures v3.
//
//soac:fuse CrossCapture
func crossCaptureSpec(xs []int) (int, []int) {
	v0 := soac.Map(xs, func(x int) int { return x + 1 })
	v1 := soac.Reduce(v0, 0, addi)
	v3 := soac.Reduce(xs, 0, addi)
	v4 := soac.Map(v0, func(v int) int { return v - v3 })
	v6 := soac.Reduce(soac.Map(v0, func(v int) int { return v + v1 }), 0, addi)
	return v6, v4
}

//soac:fuse CrossCapturePar backend=parallel
func crossCaptureParSpec(xs []int) (int, []int) {
	v0 := soac.Map(xs, func(x int) int { return x + 1 })
	v1 := soac.Reduce(v0, 0, addi)
	v3 := soac.Reduce(xs, 0, addi)
	v4 := soac.Map(v0, func(v int) int { return v - v3 })
	v6 := soac.Reduce(soac.Map(v0, func(v int) int { return v + v1 }), 0, addi)
	return v6, v4
}

//soac:fuse CrossCaptureCL backend=opencl
func crossCaptureCLSpec(xs []int) (int, []int) {
	v0 := soac.Map(xs, func(x int) int { return x + 1 })
	v1 := soac.Reduce(v0, 0, addi)
	v3 := soac.Reduce(xs, 0, addi)
	v4 := soac.Map(v0, func(v int) int { return v - v3 })
	v6 := soac.Reduce(soac.Map(v0, func(v int) int { return v + v1 }), 0, addi)
	return v6, v4
}

// floats makes multiples of 1/16 in [-64, 64]: halved a few times and
// summed in any order, they stay exact, so the parallel and opencl
// backends, which may reassociate sums, give the spec's bits too.
func floats(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(r.IntN(2049)-1024) / 16
	}
	return xs
}

func ints(r *rand.Rand, n int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.IntN(2001) - 1000
	}
	return xs
}
