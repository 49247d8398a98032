package directives

import "github.com/soacgen/soacgen/runtime/soac"

func inc(x int) int { return x + 1 }

//soac:fuse Good
func goodSpec(xs []int) []int { return soac.Map(soac.Map(xs, inc), inc) }

//soac:fuse GoodPar backend=parallel
func goodParSpec(xs []int) []int { return soac.Map(xs, inc) }

// A directive without SOAC calls still gets a Function.
//
//soac:fuse Empty backend=auto
func emptySpec(xs []int) []int { return xs }

//soac:fuse
func missingName(xs []int) []int { return soac.Map(xs, inc) }

//soac:fuse 1bad
func notIdent(xs []int) []int { return soac.Map(xs, inc) }

//soac:fuse Gpu backend=cuda
func badBackend(xs []int) []int { return soac.Map(xs, inc) }

//soac:fuse Opt level=3
func badKey(xs []int) []int { return soac.Map(xs, inc) }

//soac:fuse backend=cpu
func keyAsName(xs []int) []int { return soac.Map(xs, inc) }

//soac:fuse Good
func duplicate(xs []int) []int { return soac.Map(xs, inc) }

//soac:fuse Twice
//soac:fuse Again
func twice(xs []int) []int { return soac.Map(xs, inc) }

type T struct{}

//soac:fuse Method
func (T) method(xs []int) []int { return soac.Map(xs, inc) }

//soac:fuse OnVar
var v = 1

//soac:fuze Typo
func typo(xs []int) []int { return soac.Map(xs, inc) }

//soac:fuse selfSpec
func selfSpec(xs []int) []int { return soac.Map(xs, inc) }

func body(xs []int) []int {
	//soac:fuse Inside
	return soac.Map(xs, inc)
}

//soac:fuse _
func blankName(xs []int) []int { return soac.Map(xs, inc) }

// soac:fuse Spaced
func spaced(xs []int) []int { return soac.Map(xs, inc) }

/*soac:fuse Block*/
func block(xs []int) []int { return soac.Map(xs, inc) }

// soac: fuse Gap
func gap(xs []int) []int { return soac.Map(xs, inc) }

// notADirective mentions soac:fuse in prose, which is fine.
func notADirective(xs []int) []int { return soac.Map(xs, inc) }

// A spec may carry several directives, each generating its own function.
//
//soac:fuse Multi
//soac:fuse MultiPar backend=parallel
//soac:fuse MultiCL backend=opencl cluster=ilp
func multiSpec(xs []int) []int { return soac.Map(soac.Map(xs, inc), inc) }

// A second directive of one spec that repeats its first's NAME.
//
//soac:fuse Dup
//soac:fuse Dup backend=parallel
func dupInSpec(xs []int) []int { return soac.Map(xs, inc) }

// A second directive naming a function the package declares.
//
//soac:fuse Fresh
//soac:fuse body backend=parallel
func declaredName(xs []int) []int { return soac.Map(xs, inc) }

// A second directive with an option soacgen does not know.
//
//soac:fuse Known backend=cpu
//soac:fuse Unknown backend=parallel speed=fast
func unknownOption(xs []int) []int { return soac.Map(xs, inc) }

// A second directive naming another spec's first.
//
//soac:fuse Other
//soac:fuse MultiPar
func otherSpecName(xs []int) []int { return soac.Map(xs, inc) }

// A third directive whose backend is malformed; the first two stay.
//
//soac:fuse ThirdA
//soac:fuse ThirdB backend=opencl
//soac:fuse ThirdC backend=
func thirdBad(xs []int) []int { return soac.Map(xs, inc) }
