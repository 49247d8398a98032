// Regression spec (random, seed 330280, reduced): a5 is declared by a
// plain statement and then assigned only by a Map that fuses into the Map
// reading it, so the generated code declared a5 and never read it:
// "declared and not used: a5".

package plaindefine

import "github.com/soacgen/soacgen/runtime/soac"

// plainDefineSpec has shapes reassign-read.
//
//soac:fuse PlainDefine
func plainDefineSpec(xs []int64, k int64) []int64 {
	a5 := xs
	a5 = soac.Map(xs, func(x int64) int64 { return x + k })
	return soac.Map(a5, func(x int64) int64 { return x * 2 })
}
