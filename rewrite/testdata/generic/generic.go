// Package generic holds a generic spec.
package generic

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse Sum
func sumSpec[T int | float64](xs []T) T {
	return soac.Reduce(soac.Map(xs, func(x T) T { return x + 1 }), 0, func(a, b T) T { return a + b })
}
