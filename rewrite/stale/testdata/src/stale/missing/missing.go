// Package missing has specs but no generated file: go generate never ran.
package missing

import "github.com/soacgen/soacgen/runtime/soac"

func inc(x int) int { return x + 1 }

// want +2 `^stale: missing_soac.go is missing \(it holds Inc2, generated from inc2Spec\); run go generate$`
//
//soac:fuse Inc2
func inc2Spec(xs []int) []int { return soac.Map(soac.Map(xs, inc), inc) }

// want +2 `^stale: missing_soac.go is missing \(it holds Inc3, generated from inc3Spec\); run go generate$`
//
//soac:fuse Inc3
func inc3Spec(xs []int) []int { return soac.Map(soac.Map(soac.Map(xs, inc), inc), inc) }
