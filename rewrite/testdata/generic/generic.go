// Package generic holds a generic spec.
package generic

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse Sum
func sumSpec[T int | float64](xs []T) T {
	return soac.Reduce(soac.Map(xs, func(x T) T { return x + 1 }), 0, func(a, b T) T { return a + b })
}

// sumSqSpec's lambdas are generic in a float type: the square is rounded
// where the map is inlined (T(x * x)), as the spec's call of the lambda
// rounds it, so that an instance cannot fuse it with the sum under
// GOAMD64=v3 or on arm64.
//
//soac:fuse SumSq
func sumSqSpec[T float32 | float64](xs []T) T {
	return soac.Reduce(soac.Map(xs, func(x T) T { return x * x }), 0, func(a, b T) T { return a + b })
}

// affineSumSpec's map may fuse x*c + 1 in its own body: it is called
// through soac.Opaque.
//
//soac:fuse AffineSum
func affineSumSpec[T float32 | float64](xs []T, c T) T {
	return soac.Reduce(soac.Map(xs, func(x T) T { return x*c + 1 }), 0, func(a, b T) T { return a + b })
}
