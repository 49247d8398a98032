// Package renamed has a spec whose directive names another function than
// when it was generated. The old name, out, is also the name the generator
// gives the output array of Dec2's kernel when the package declares no
// out: generated beside the function out, Dec2 names it out2, and now
// soacgen would write out. So Dec2 is stale too, although dec2Spec did not
// change; a check that generated with the stale file's names in scope (out
// among them) would miss it.
package renamed

import "github.com/soacgen/soacgen/runtime/soac"

func inc(x int) int { return x + 1 }

// want +2 `^stale: PlusTwo is missing from renamed_soac.go; run go generate to generate it from inc2Spec$`
//
//soac:fuse PlusTwo
func inc2Spec(xs []int) []int { return soac.Map(soac.Map(xs, inc), inc) }

// want +2 `^stale: Dec2 in renamed_soac.go is out of date with dec2Spec; run go generate$`
//
//soac:fuse Dec2
func dec2Spec(xs []int) []int {
	return soac.Map(soac.Map(xs, func(x int) int { return x - 1 }), func(x int) int { return x - 1 })
}
