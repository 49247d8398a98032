package panics

import "github.com/soacgen/soacgen/runtime/soac"

// FuseEasy4 (Futhark's fuseEasy4): y and z both panic when len(arr) !=
// n, with different messages (the lengths swapped): one kernel asserts
// both lengths before its loop and runs them unfused, in spec order,
// when one differs, so y's panic is the one raised.
//
//soac:fuse FuseEasy4
func fuseEasy4Spec(arr []float64, n int) float64 {
	x := soac.Replicate(max(n, 0), 2.0)
	y := soac.Map2(x, arr, func(a, b float64) float64 { return a + b + 3 })
	z := soac.Map2(arr, x, func(a, b float64) float64 { return a * b * 3 })
	if len(y) == 0 {
		return -1
	}
	return y[0] + z[len(z)-1]
}

// IotaReplicate: Iota(n) and Replicate(n, 1) panic with different
// messages when n < 0; fused, each check stays where it is written.
//
//soac:fuse IotaReplicate
func iotaReplicateSpec(n int) ([]int, []int) {
	a := soac.Map(soac.Iota(n%50), func(i int) int { return i * i })
	b := soac.Map(soac.Replicate(n%50, 1), func(v int) int { return v + 1 })
	return a, b
}

// LambdaAndLength: the first map's lambda may panic (division), the
// second's Map2 lengths may differ: fused, the spec's first panic wins.
//
//soac:fuse LambdaAndLength
func lambdaAndLengthSpec(xs, ys []int) ([]int, []int) {
	a := soac.Map(xs, func(v int) int { return 100 / (v % 4) })
	b := soac.Map2(xs, ys, func(p, q int) int { return p - q })
	return a, b
}
