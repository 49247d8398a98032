// Package shadows holds specs whose parameters and locals are named like
// the builtins, types, packages and package-level names that generated
// code refers to: len, min, make, append, panic, int, fmt, ... The
// generated code must still mean the builtin where it means it, and the
// spec's variable where the spec does.
package shadows

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b int) int { return a + b }

var scale = 2

//soac:fuse Params
func paramsSpec(len, min []int, make int) []int {
	append := soac.Map2(len, min, func(a, b int) int { return a*make + b })
	return soac.Filter(append, func(x int) bool { return x > 0 })
}

//soac:fuse Locals
func localsSpec(xs []int) (int, []int) {
	cap := soac.Map(xs, func(x int) int { return x * 3 })
	new := soac.Filter(cap, func(x int) bool { return x%2 == 0 })
	copy, clear := soac.Reduce(new, 0, add), soac.Scan(cap, 0, add)
	return copy, clear
}

//soac:fuse Results
func resultsSpec(xs []int) (len int, max []int) {
	max = soac.Map(xs, func(x int) int { return x - 1 })
	len = soac.Reduce(max, 0, add)
	return
}

// generatorsSpec's Iota and Replicate panic on a negative length with a
// message the generated code formats with fmt.Sprintf.
//
//soac:fuse Generators
func generatorsSpec(xs []int, panic int) []int {
	fmt, iota := soac.Iota(panic), soac.Replicate(panic, 7)
	bool := soac.Map2(fmt, iota, func(a, b int) int { return a * b })
	return soac.Map2(bool, xs[:min(panic, len(xs))], add)
}

// lambdaParamsSpec's lambdas name their parameters like builtins; the
// outer one's body holds a SOAC whose kernel runs inside it.
//
//soac:fuse LambdaParams
func lambdaParamsSpec(xss [][]int) []int {
	return soac.Map(xss, func(make []int) int {
		return soac.Reduce(soac.Map(make, func(len int) int { return len * 2 }), 0, func(append, int int) int { return append + int })
	})
}

// laterSpec declares min and scale after the map whose lambda calls the
// builtin min and reads the package-level scale; the kernel runs where
// the locals are in scope.
//
//soac:fuse Later
func laterSpec(xs []int) int {
	ys := soac.Map(xs, func(x int) int { return min(x, 3) * scale })
	min, scale := 5, 10
	return soac.Reduce(ys, 0, add) + min*scale
}

// localTypeSpec names a local type like a builtin.
//
//soac:fuse LocalType
func localTypeSpec(xs []int) int {
	type len struct{ v int }
	ps := soac.Map(xs, func(x int) len { return len{x} })
	return soac.Reduce(soac.Map(ps, func(p len) int { return p.v }), 0, add)
}

// typeParamSpec names its type parameter like a builtin.
//
//soac:fuse TypeParam
func typeParamSpec[append any](xs []append, f func(append) int) int {
	return soac.Reduce(soac.Map(xs, f), 0, add)
}

// laterGlobalSpec declares scale after the map whose lambda reads the
// package-level scale; inlined where the kernel runs, the lambda must
// still read the global.
//
//soac:fuse LaterGlobal
func laterGlobalSpec(xs []int) int {
	ys := soac.Map(xs, func(x int) int { return x * scale })
	scale := 10
	return soac.Reduce(ys, 0, add) + scale
}

// pkgNameSpec's fmt is in scope where Iota's negative-length check
// formats its panic message with fmt.Sprintf.
//
//soac:fuse PkgName
func pkgNameSpec(n int) (int, []int) {
	fmt := n + 1
	ys := soac.Iota(n)
	return fmt, soac.Map(ys, func(y int) int { return y * fmt })
}

//soac:fuse TypeSwitchVar
func typeSwitchVarSpec(xs []int, v any) int {
	switch len := v.(type) {
	case int:
		return soac.Reduce(soac.Map(xs, func(x int) int { return x * len }), 0, add)
	default:
		_ = len
		return soac.Reduce(xs, 1, add)
	}
}

// closureSpec's closure and its parameter are named like builtins.
//
//soac:fuse Closure
func closureSpec(xs []int) []int {
	print := func(len int) int { return len + 1 }
	return soac.Map(soac.Map(xs, print), func(cap int) int { return print(cap) * 2 })
}

// chunkRangeSpec's chunk function ranges over its chunk with a value
// named like a builtin: the map runs inside that loop.
//
//soac:fuse ChunkRange
func chunkRangeSpec(xs []int) int {
	return soac.StreamRed(soac.Map(xs, func(x int) int { return x + 1 }), add, func(chunk []int) int {
		s := 0
		for _, make := range chunk {
			s += make * 2
		}
		return s
	})
}
