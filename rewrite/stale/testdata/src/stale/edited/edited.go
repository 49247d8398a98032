// Package edited has a generated file that was edited by hand outside the
// generated function (the test appends a comment to it).
package edited

import "github.com/soacgen/soacgen/runtime/soac"

func inc(x int) int { return x + 1 }

// want +2 `^stale: edited_soac.go is out of date with edited.go; run go generate$`
//
//soac:fuse Inc2
func inc2Spec(xs []int) []int { return soac.Map(soac.Map(xs, inc), inc) }
