// Regression: parameters and locals named like builtins (len, min, make,
// append, panic) shadowed the builtins that generated kernels call, and a
// local declared after a lambda reading a package-level variable of the
// same name captured the inlined lambda's reference.

package shadowed

import "github.com/soacgen/soacgen/runtime/soac"

var scale int64 = 3

//soac:fuse Builtins
func builtinsSpec(len, min []int64, panic int64) []int64 {
	make := soac.Map2(len, min, func(a, b int64) int64 { return a*panic + b })
	append := soac.Filter(make, func(x int64) bool { return x > 0 })
	return soac.Scan(append, 0, func(a, b int64) int64 { return a + b })
}

//soac:fuse Global
func globalSpec(xs []int64) int64 {
	ys := soac.Map(xs, func(x int64) int64 { return x * scale })
	scale := int64(10)
	return soac.Reduce(ys, 0, func(a, b int64) int64 { return a + b }) + scale
}
