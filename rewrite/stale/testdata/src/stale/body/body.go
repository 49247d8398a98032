// Package body has two specs; one of them changed after generation.
package body

import "github.com/soacgen/soacgen/runtime/soac"

// posSpec doubles the non-negative elements of xs (it kept the positive
// ones when body_soac.go was generated).
//
// want +2 `^stale: Pos in body_soac.go is out of date with posSpec; run go generate$` `^stale: body_soacsimd.go is out of date with body.go; run go generate$`
//
//soac:fuse Pos
func posSpec(xs []int) []int {
	return soac.Map(soac.Filter(xs, func(x int) bool { return x >= 0 }), func(x int) int { return 2 * x })
}

// negSpec negates the negative elements of xs: unchanged, so its
// generated function is not reported.
//
//soac:fuse Neg
func negSpec(xs []int) []int {
	return soac.Map(soac.Filter(xs, func(x int) bool { return x < 0 }), func(x int) int { return -x })
}
