// Package carried exercises variables whose values change between the
// SOACs of a kernel: results assigned back to a variable an earlier or the
// same SOAC reads, in loops and branches, through tuple assignment, and
// kernels that would depend on each other through captured scalars.
package carried

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b float64) float64 { return a + b }

// halve: the Map's result is the next iteration's input, so the fused
// kernel writes xs out (it flows along the loop's back edge).
func halve(xs []float64, iters int) float64 {
	s := 0.0
	for it := 0; it < iters; it++ {
		xs = soac.Map(xs, func(x float64) float64 { return x * 0.5 })
		s = soac.Reduce(xs, 0.0, add)
	}
	return s
}

// halveCaptured: the same, the Map also capturing the Reduce's result of
// the previous iteration.
func halveCaptured(xs []float64, iters int) float64 {
	s := 0.0
	for it := 0; it < iters; it++ {
		xs = soac.Map(xs, func(x float64) float64 { return x*0.5 + s })
		s = soac.Reduce(xs, 0.0, add)
	}
	return s
}

// doubleBuffer: ys is written out every iteration; the next one reads it
// as xs.
func doubleBuffer(xs, ys []float64, iters int) float64 {
	for it := 0; it < iters; it++ {
		xs, ys = ys, soac.Map(xs, func(x float64) float64 { return x + 1 })
	}
	return soac.Reduce(soac.Map2(xs, ys, func(a, b float64) float64 { return a*10 + b }), 0.0, add)
}

// breakOut: a break may leave the loop with the Map's result.
func breakOut(xs []float64, iters int) float64 {
	s := 0.0
	for it := 0; it < iters; it++ {
		xs = soac.Map(xs, func(x float64) float64 { return x * 0.5 })
		if it == 2 {
			break
		}
		s += soac.Reduce(xs, 0.0, add)
	}
	return s + soac.Reduce(xs, 0.0, add)
}

// branch: the Map's result leaves the if; the kernel writes it out.
func branch(xs []float64, c bool) (float64, []float64) {
	s := 0.0
	if c {
		xs = soac.Map(xs, func(x float64) float64 { return x * 2 })
		s = soac.Reduce(xs, 0.0, add)
	}
	return s, xs
}

// twice: two versions of xs in one body; only the last leaves it.
func twice(xs []float64, iters int) float64 {
	s := 0.0
	for it := 0; it < iters; it++ {
		xs = soac.Map(xs, func(x float64) float64 { return x + 1 })
		xs = soac.Map(xs, func(x float64) float64 { return x * 0.5 })
		s = soac.Reduce(xs, s, add)
	}
	return s
}

// crossCapture: the Map at v6 reads v0 and v1, which the kernel of v0's
// Map computes; that kernel's Map at v4 captures v3. Placing the v6 kernel
// at v3's Reduce would make the two kernels need each other first.
func crossCapture(xs []int) (int, []int) {
	v0 := soac.Map(xs, func(x int) int { return x + 1 })
	v1 := soac.Reduce(v0, 0, func(a, b int) int { return a + b })
	v3 := soac.Reduce(xs, 0, func(a, b int) int { return a + b })
	v4 := soac.Map(v0, func(v int) int { return v - v3 })
	v6 := soac.Reduce(soac.Map(v0, func(v int) int { return v + v1 }), 0, func(a, b int) int { return a + b }) // want `consumed-twice: v0 .* reads v1, computed by Reduce@carried.go:81:8`
	return v6, v4
}
