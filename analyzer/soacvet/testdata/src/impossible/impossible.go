// Package impossible has a spec whose NAME is declared by hand: the
// package compiles, but soacgen cannot declare Inc again, so go generate
// and soacgen -check fail; vet must say so.
package impossible

import "github.com/soacgen/soacgen/runtime/soac"

// Inc is written by hand.
func Inc(xs []int) []int { return xs }

// want +2 `^soacgen cannot generate this package \(go generate fails\), so its generated files are not checked: the package does not type-check with each spec's NAME declared, as soacgen loads it: impossible\.go:13:13: Inc redeclared in this block$`
//
//soac:fuse Inc
func incSpec(xs []int) []int { return soac.Map(xs, func(x int) int { return x + 1 }) }
