// Regression (found by randpipe on every batch): a value declared with
// `var a T` and assigned later, whose SOAC becomes internal to a kernel,
// left `var a T` in the generated code: "declared and not used: a".

package vardecl

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse VarDecl
func varDeclSpec(xs []int64) []int64 {
	var a []int64
	a = soac.Map(xs, func(x int64) int64 { return x + 1 })
	b := soac.Map(a, func(x int64) int64 { return x * 2 })
	return b
}
