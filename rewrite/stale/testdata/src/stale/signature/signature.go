// Package signature has a spec whose signature changed after generation:
// the generated file's guard no longer compiles.
package signature

import "github.com/soacgen/soacgen/runtime/soac"

// want +2 `^stale: Scale in signature_soac.go is out of date with scaleSpec; run go generate$` `^stale: signature_soacsimd.go is out of date with signature.go; run go generate$` `^stale: signature_soacscalar.go is out of date with signature.go; run go generate$`
//
//soac:fuse Scale
func scaleSpec(xs []float64, k float64) []float64 {
	return soac.Map(soac.Map(xs, func(x float64) float64 { return x + 1 }), func(x float64) float64 { return x * k })
}
