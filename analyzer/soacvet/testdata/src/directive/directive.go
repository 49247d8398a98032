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

// several has three directives, each generating its own function: no
// finding.
//
//soac:fuse Several
//soac:fuse SeveralPar backend=parallel
//soac:fuse SeveralCL backend=opencl cluster=ilp
func several(xs []int) []int { return soac.Map(soac.Map(xs, inc), inc) }

// repeated names one function twice, and another spec's.
//
// want +4 `duplicate //soac:fuse name Repeated: repeated already has a directive Repeated \(at directive.go:\d+:1\)`
// want +4 `duplicate //soac:fuse name Good \(already used at directive.go:\d+:1, on good\)`
//
//soac:fuse Repeated
//soac:fuse Repeated backend=parallel
//soac:fuse Good backend=opencl
func repeated(xs []int) []int { return soac.Map(soac.Map(xs, inc), inc) }

// declared names, in its second directive, a function of the package.
//
// want +3 `names inc, which the package already declares \(at directive.go:\d+:6\)`
//
//soac:fuse Declared
//soac:fuse inc backend=parallel
func declared(xs []int) []int { return soac.Map(soac.Map(xs, inc), inc) }
