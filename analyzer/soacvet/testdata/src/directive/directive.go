// Package directive has malformed //soac:fuse directives.
package directive

import "github.com/soacgen/soacgen/runtime/soac"

func inc(x int) int { return x + 1 }

// noName names no function to generate. A function with a malformed
// directive gets no unfused finding: its author meant it as a spec.
//
//soac:fuse backend=cpu // want `missing the name`
func noName(xs []int) []int { return soac.Map(soac.Map(xs, inc), inc) }

// badBackend names a backend that does not exist.
//
//soac:fuse BadBackend backend=gpu // want `unknown backend "gpu"`
func badBackend(xs []int) []int { return soac.Map(soac.Map(xs, inc), inc) }

//soac:fuse Floating // want `doc comment`

// good is well formed: no finding.
//
//soac:fuse Good backend=parallel
func good(xs []int) []int { return soac.Map(soac.Map(xs, inc), inc) }
