// Package fig9 writes the six don't-fuse cases of Henriksen & Oancea, "A T2 Graph-Reduction Approach to Fusion" (2013) [T2-fusion] Fig. 9 in Go.
// Each comment says what a wrong fusion would compute.
package fig9

import "github.com/soacgen/soacgen/runtime/soac"

func inc(v float64) float64    { return v + 1 }
func dbl(v float64) float64    { return v * 2 }
func add(a, b float64) float64 { return a + b }

// case1: a = [1 2]: y must be [5 9.66]; fused, y[1] would be computed
// from the written a[1] = 3.33 and be 12.32. y reads a too, so it cannot
// move up to x either (placement).
func case1(a []float64) []float64 {
	x := soac.Map(a, inc)
	a[1] = 3.33 // want `write-between: x \(Map@fig9.go:\d+:\d+\) not fused into Map2@fig9.go:\d+:\d+: a, read by Map@fig9.go:\d+:\d+, may be written through a at fig9.go:\d+:\d+`
	y := soac.Map2(x, a, add)
	return y
}

// case2: the filtered lengths are known only after both filters ran; a
// single loop over a would pair x[i] with the wrong element of y.
func case2(a, b []float64) []float64 {
	x := soac.Filter(a, func(v float64) bool { return v > 0 })
	y := soac.Filter(b, func(v float64) bool { return v > 0 })
	z := soac.Map2(x, y, add) // want `size-unknown: x .*` `size-unknown: y .*`
	return z
}

// case3: fused into the loop, Map(a, inc) would run n times: the result is
// the same but the work is multiplied by n (and a panic in the lambda
// would repeat).
func case3(a, arr []float64, n int) []float64 {
	x := soac.Map(a, inc)
	for i := 0; i < n; i++ {
		arr = soac.Map2(arr, x, add) // want `loop-boundary: x .*`
	}
	return arr
}

// case4: x feeds a kernel in the if and another after it on the same
// path: fusing into both computes inc twice per element; fusing into one
// leaves the other reading an x that does not exist.
func case4(arr []float64, c bool) ([]float64, []float64) {
	x := soac.Map(arr, inc)
	var y []float64
	if c {
		y = soac.Map(x, dbl)
	} else {
		y = soac.Map(x, inc)
	}
	z := soac.Map(x, dbl) // want `consumed-twice: x .*`
	return y, z
}

// case4b is case4 without z: the producer is copied into both branches.
func case4b(arr []float64, c bool) []float64 {
	x := soac.Map(arr, inc)
	var y []float64
	if c {
		y = soac.Map(x, dbl)
	} else {
		s := soac.Reduce(x, 0.0, add)
		y = []float64{s}
	}
	return y
}

// case5: x[0] is read before the consumer: fused, x would not exist yet.
// The consumer's lambda may panic and so may x[0]: it cannot move up to
// x either (placement).
func case5(a []float64) float64 {
	x := soac.Map(a, inc)
	v := x[0] // want `used-before: x .*`
	y := soac.Map(x, func(e float64) float64 { return float64(100 / int(e)) })
	return v + y[0]
}

// case5mapout is [T2-fusion]'s literal case 5: x is used only after the
// consumer, so it fuses and stays materialised as a map-out array
// (Spiegelhauer & Sprent, "Implementing Map-Scan Fusion in the Futhark Compiler" (2016) [Map-scan] §5.2).
func case5mapout(a []float64, i int) float64 {
	x := soac.Map(a, inc)
	y := soac.Map(x, dbl)
	return x[i] + y[i]
}

// case6: u and w both consume x but w needs u complete: they cannot share
// a kernel, and fusing x into both would compute inc twice per element. x
// fuses into u's kernel, which writes it out for w (map-out).
func case6(a []float64) []float64 {
	x := soac.Map(a, inc)
	u := soac.Reduce(x, 0.0, add)
	w := soac.Map(x, func(e float64) float64 { return e / u }) // want `consumed-twice: x .*written out \(map-out\) for this one`
	return w
}
