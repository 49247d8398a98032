// Package fma holds specs whose lambdas may or may not fuse x*y + z into
// one FMA (GOAMD64=v3, arm64, ...): named functions, method values,
// literals with captures, nested calls, chains of products. Under FMA the
// generated code must give the spec's bits: a lambda that may fuse runs
// its own compiled body through soac.Opaque, as the spec's combinator runs
// it; the others (products only returned, compared, converted or passed to
// math.Sqrt/Abs, integer code) are inlined (TestFMAOpaque).
package fma

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// Scaler is an affine map.
type Scaler struct{ Factor, Offset float64 }

// Apply returns x*Factor + Offset.
func (s Scaler) Apply(x float64) float64 { return x*s.Factor + s.Offset }

// Count has no floating-point arithmetic: it is inlined.
func (s Scaler) Count(x int) int { return x/len("ab") + x%3 }

func sq(x float64) float64     { return x * x }
func add(a, b float64) float64 { return a + b }

//soac:fuse MethodMap
func methodMapSpec(s Scaler, xs []float64) []float64 {
	return soac.Map(xs, s.Apply)
}

//soac:fuse MethodSum
func methodSumSpec(s *Scaler, xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, s.Apply), 0, add)
}

//soac:fuse IntMethod
func intMethodSpec(s Scaler, xs []int) []int {
	return soac.Map(xs, s.Count)
}

//soac:fuse ScanSq
func scanSqSpec(xs []float64) []float64 {
	return soac.Scan(soac.Map(xs, sq), 0, add)
}

//soac:fuse SumSqNamed
func sumSqNamedSpec(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, sq), 0, func(a, b float64) float64 { return a + b })
}

// mulAdd is a named function computing x*y + 0.1: passed to Map2 the
// spec's combinator (not inlined) calls its own compiled body, which
// contracts under FMA; inlined into a loop reading x and y from memory,
// the compiler merges a load into the multiplication and does not.
func mulAdd(x, y float64) float64 { return x*y + 0.1 }

func fma3(x, y, z float64) float64 { return x*y + z }

//soac:fuse Named2
func named2Spec(xs, ys []float64) []float64 {
	return soac.Map2(xs, ys, mulAdd)
}

//soac:fuse Named3
func named3Spec(xs, ys, zs []float64) []float64 {
	return soac.Map3(xs, ys, zs, fma3)
}

//soac:fuse Captures
func capturesSpec(xs []float64, c, d float64) []float64 {
	return soac.Map(xs, func(x float64) float64 { return x*c + d })
}

//soac:fuse CapturesSum
func capturesSumSpec(xs []float64, c, d float64) float64 {
	ys := soac.Map(xs, func(x float64) float64 { return x*x*c + d })
	return soac.Reduce(ys, 0, func(a, b float64) float64 { return a + b })
}

// lin is inlined into the literals that call it: its product then meets
// their addition.
func lin(x float64) float64 { return x * 1.5 }

//soac:fuse Nested
func nestedSpec(xs []float64, d float64) []float64 {
	return soac.Map(xs, func(x float64) float64 { return lin(x) + d })
}

// Shift calls Apply: a method whose float arithmetic is a call.
func (s Scaler) Shift(x float64) float64 { return s.Apply(x) - x*s.Offset }

//soac:fuse MethodNested
func methodNestedSpec(s Scaler, xs []float64) []float64 {
	return soac.Map(xs, s.Shift)
}

//soac:fuse Chain
func chainSpec(xs, ws []float64, c float64) float64 {
	ys := soac.Map(xs, func(x float64) float64 { return x * c })
	zs := soac.Map2(ys, ws, func(y, w float64) float64 { return y*w - c })
	return soac.Reduce(zs, 0, func(a, b float64) float64 { return a + b*b })
}

//soac:fuse Products
func productsSpec(xs, ys []float64) float64 {
	ps := soac.Map2(xs, ys, func(x, y float64) float64 { return x * y })
	return soac.Reduce(ps, 0, func(a, b float64) float64 { return a + b })
}

//soac:fuse Keep
func keepSpec(xs []float64, c float64) []float64 {
	return soac.Filter(xs, func(x float64) bool { return x*c+1 > 0 })
}

//soac:fuse Rounded
func roundedSpec(xs []float64, c, d float64) []float64 {
	return soac.Map(xs, func(x float64) float64 { return float64(x*c) + d })
}

//soac:fuse Exact
func exactSpec(xs []float64, c float64) float64 {
	ys := soac.Map(xs, func(x float64) float64 { return math.Sqrt(x*x) + math.Abs(x/c) + math.Floor(x) })
	return soac.Reduce(ys, 0, func(a, b float64) float64 { return max(a, b) })
}

//soac:fuse Doubled
func doubledSpec(xs []float64, c, d float64) []float64 {
	return soac.Map(xs, func(x float64) float64 { return x * c * d })
}

//soac:fuse Complex
func complexSpec(xs []complex128, c complex128) []complex128 {
	return soac.Map(xs, func(x complex128) complex128 { return x * c })
}

// moments is a count-free first and second moment: a struct result whose
// literal holds a product.
type moments struct{ Sum, SumSq float64 }

func addMoments(a, b moments) moments { return moments{a.Sum + b.Sum, a.SumSq + b.SumSq} }

//soac:fuse Moments
func momentsSpec(xs []float64) moments {
	ms := soac.Map(xs, func(x float64) moments { return moments{x, x * x} })
	return soac.Reduce(ms, moments{}, func(a, b moments) moments {
		return moments{a.Sum + b.Sum, a.SumSq + b.SumSq}
	})
}

// momentsOf is called, not inlined, by the generated code: the compiler
// may inline it, so its result's fields are rounded at the call.
func momentsOf(x float64) moments { return moments{SumSq: x * x, Sum: x} }

//soac:fuse MomentsNamed
func momentsNamedSpec(xs []float64) moments {
	return soac.Reduce(soac.Map(xs, momentsOf), moments{}, addMoments)
}

// spread nests a struct and an array of products in its result.
type spread struct {
	In  moments
	Arr [2]float64
	N   int
}

//soac:fuse Spread
func spreadSpec(xs []float64, c float64) spread {
	ss := soac.Map(xs, func(x float64) spread {
		return spread{In: moments{x * c, (x * x)}, Arr: [2]float64{-(x * c), x / c}, N: 1}
	})
	return soac.Reduce(ss, spread{}, func(a, b spread) spread {
		return spread{addMoments(a.In, b.In), [2]float64{a.Arr[0] + b.Arr[0], a.Arr[1] + b.Arr[1]}, a.N + b.N}
	})
}

//soac:fuse MomentsSum
func momentsSumSpec(xs []float64) moments {
	ms := soac.Map(xs, func(x float64) moments { return moments{x, x*x + 1} })
	return soac.Reduce(ms, moments{}, addMoments)
}

//soac:fuse MomentsVar
func momentsVarSpec(xs []float64) moments {
	ms := soac.Map(xs, func(x float64) moments {
		m := moments{x, x * x}
		return m
	})
	return soac.Reduce(ms, moments{}, addMoments)
}

// pairT converts to moments: a conversion of a struct rounds nothing.
type pairT struct{ Sum, SumSq float64 }

//soac:fuse MomentsConv
func momentsConvSpec(xs []float64) moments {
	ms := soac.Map(xs, func(x float64) moments { return moments(pairT{x, x * x}) })
	return soac.Reduce(ms, moments{}, addMoments)
}

// boxed holds a product in an interface field, which rounding the
// result's float fields does not reach.
type boxed struct {
	V any
	W float64
}

//soac:fuse Boxed
func boxedSpec(xs []float64) float64 {
	bs := soac.Map(xs, func(x float64) boxed { return boxed{x * x, x} })
	ws := soac.Map(bs, func(b boxed) float64 { return b.V.(float64) + b.W })
	return soac.Reduce(ws, 0, add)
}
