// Command quickstart runs the normalize2 pipeline of the README and prints
// its results.
//
// The pipeline is written as a spec marked for fusion; go generate has
// soacgen write the fused Normalize2 into main_soac.go (two loops instead of
// five passes). The program calls Normalize2 and checks that it returns
// exactly what the spec returns on the reference combinators of package
// soac.
package main

//go:generate go run github.com/soacgen/soacgen/cmd/soacgen

import (
	"fmt"
	"slices"

	"github.com/soacgen/soacgen/runtime/soac"
)

// normalize2Spec divides every element of xs once by the sum of all elements
// (ys1) and once by the sum of the positive elements (ys2).
//
//soac:fuse Normalize2
func normalize2Spec(xs []float64) (ys1, ys2 []float64) {
	sum1 := soac.Reduce(xs, 0.0, func(a, b float64) float64 { return a + b })
	gts := soac.Filter(xs, func(x float64) bool { return x > 0 })
	sum2 := soac.Reduce(gts, 0.0, func(a, b float64) float64 { return a + b })
	ys1 = soac.Map(xs, func(x float64) float64 { return x / sum1 })
	ys2 = soac.Map(xs, func(x float64) float64 { return x / sum2 })
	return ys1, ys2
}

// dotSpec returns the dot product of xs and ys (which must have the same
// length): a Map2 feeding a Reduce, fused into one loop.
//
//soac:fuse Dot
func dotSpec(xs, ys []int) int {
	return soac.Reduce(soac.Map2(xs, ys, func(a, b int) int { return a * b }), 0,
		func(a, b int) int { return a + b })
}

func main() {
	xs := []float64{2, -1, 3, 4}
	ys1, ys2 := Normalize2(xs)
	specYs1, specYs2 := normalize2Spec(xs)
	fmt.Printf("xs  = %v\n", xs)
	fmt.Printf("ys1 = %.4f\n", ys1)
	fmt.Printf("ys2 = %.4f\n", ys2)
	fmt.Printf("fused == spec: %v\n", slices.Equal(ys1, specYs1) && slices.Equal(ys2, specYs2))

	// The other combinators, on a small deterministic input.
	is := soac.Iota(10)
	sq := soac.Map(is, func(i int) int { return i * i })
	fmt.Printf("squares        = %v\n", sq)
	fmt.Printf("prefix sums    = %v\n", soac.Scan(sq, 0, func(a, b int) int { return a + b }))
	fmt.Printf("even squares   = %v\n", soac.Filter(sq, func(x int) bool { return x%2 == 0 }))
	fmt.Printf("dot(is, sq)    = %d\n", Dot(is, sq))
	fmt.Printf("sum via stream = %d\n", soac.StreamRed(sq, func(a, b int) int { return a + b }, func(c []int) int {
		return soac.Reduce(c, 0, func(a, b int) int { return a + b })
	}))
}
