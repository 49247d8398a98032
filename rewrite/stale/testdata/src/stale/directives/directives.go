// Package directives has specs of several directives; after generation
// one spec got a third directive and another changed its body.
package directives

import "github.com/soacgen/soacgen/runtime/soac"

// sqSpec's SqWSP is new: it is missing; Sq and SqILP are up to date.
//
// want +5 `^stale: SqWSP is missing from directives_soac.go; run go generate to generate it from sqSpec$`
// want +2 `^stale: directives_soacsimd.go is out of date with directives.go; run go generate$`
//
//soac:fuse Sq
//soac:fuse SqILP cluster=ilp
//soac:fuse SqWSP cluster=wsp
func sqSpec(xs []int) []int {
	return soac.Map(xs, func(x int) int { return x * x })
}

// twiceSpec triples now (it doubled when directives_soac.go was generated): both its functions are out of date.
//
// want +3 `^stale: Twice in directives_soac.go is out of date with twiceSpec; run go generate$`
// want +3 `^stale: TwiceILP in directives_soac.go is out of date with twiceSpec; run go generate$`
//
//soac:fuse Twice
//soac:fuse TwiceILP cluster=ilp
func twiceSpec(xs []int) []int {
	return soac.Map(xs, func(x int) int { return x + x + x })
}
