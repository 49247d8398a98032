// Package refusals holds one lambda per reason the translator refuses,
// each in a function whose doc comment says, after "want:", what the
// refusal must name.
package refusals

import (
	"fmt"
	"math"
	"strings"

	"github.com/soacgen/soacgen/runtime/soac"
)

var global = 3

type box struct{ p *int }

type shape interface{ Area() float64 }

func id[T any](x T) T { return x }

func rec(n int) int {
	if n == 0 {
		return 0
	}
	return rec(n - 1)
}

// want: string
func strs(xs []string) []int {
	return soac.Map(xs, func(s string) int { return len(s) })
}

// want: map
func maps(xs []int, m map[int]int) []int {
	return soac.Map(xs, func(x int) int { return m[x] })
}

// want: interface
func ifaces(xs []shape) []float64 {
	return soac.Map(xs, func(s shape) float64 { return s.Area() })
}

// want: pointer
func pointers(xs []int, p *int) []int {
	return soac.Map(xs, func(x int) int { return x + *p })
}

// want: pointer
func pointerFields(xs []box) []int {
	return soac.Map(xs, func(b box) int { return 1 })
}

// want: call of fmt.Sprint
func calls(xs []int) []int {
	return soac.Map(xs, func(x int) int { return len(fmt.Sprint(x)) })
}

// want: call of strings.Count
func otherPackage(xs []int) []int {
	return soac.Map(xs, func(x int) int { return strings.Count("", "") + x })
}

// want: go statement
func goroutines(xs []int) []int {
	return soac.Map(xs, func(x int) int {
		go func() {}()
		return x
	})
}

// want: defer statement
func defers(xs []int) []int {
	return soac.Map(xs, func(x int) int {
		defer func() {}()
		return x
	})
}

// want: package-level variable global
func globals(xs []int) []int {
	return soac.Map(xs, func(x int) int { return x + global })
}

// want: assignment to k
func writesCapture(xs []int, k int) []int {
	return soac.Map(xs, func(x int) int {
		k = x
		return x
	})
}

// want: assignment to a slice element
func writesSlice(xs []int, ys []int) []int {
	return soac.Map(xs, func(x int) int {
		ys[0] = x
		return x
	})
}

// want: builtin make
func allocates(xs []int) []int {
	return soac.Map(xs, func(x int) int { return len(make([]int, x)) })
}

// want: recursive call
func recursion(xs []int) []int {
	return soac.Map(xs, func(x int) int { return rec(x) })
}

// want: generic
func generics(xs []int) []int {
	return soac.Map(xs, func(x int) int { return id(x) })
}

// want: function value f
func funcValues(xs []int, f func(int) int) []int {
	return soac.Map(xs, func(x int) int { return f(x) })
}

// want: channel
func channels(xs []int, c chan int) []int {
	return soac.Map(xs, func(x int) int { return x + <-c })
}

// want: complex number
func complexes(xs []complex128) []float64 {
	return soac.Map(xs, func(c complex128) float64 { return real(c) })
}

// want: nested soac.Filter
func nestedFilter(xs []int, ys []int) []int {
	return soac.Map(xs, func(x int) int {
		return soac.Reduce(soac.Filter(ys, func(y int) bool { return y > x }), 0, func(a, b int) int { return a + b })
	})
}

// want: nested soac.Map
func nestedMapValue(xs []int, ys []int) []int {
	return soac.Map(xs, func(x int) int { zs := soac.Map(ys, func(y int) int { return y }); return len(zs) })
}

// want: goto statement
func gotos(xs []int) []int {
	return soac.Map(xs, func(x int) int {
		if x > 0 {
			goto end
		}
		x++
	end:
		return x
	})
}

// want: multi-value assignment
func commaOK(xs []int, v any) []int {
	return soac.Map(xs, func(x int) int {
		n, ok := v.(int)
		if ok {
			return n
		}
		return x
	})
}

// want: a called function returning a slice
func sliceResults(xs []int, ys []int) []int {
	return soac.Map(xs, func(x int) int { return len(self(ys)) })
}

func self(xs []int) []int { return xs }

// want: closures are translated only as the function argument
func closures(xs []int) []int {
	return soac.Map(xs, func(x int) int {
		g := func() int { return x }
		return g()
	})
}

// want: empty struct
func empties(xs []struct{}) []int {
	return soac.Map(xs, func(struct{}) int { return 1 })
}

// want: slice of slices of slices
func deep(xs []int, ys [][][]int) []int {
	return soac.Map(xs, func(x int) int { return len(ys) })
}

// want: nested lambda returning a slice
func sliceLambda(xs []int, ys [][]int) []int {
	return soac.Map(xs, func(x int) int {
		return soac.Reduce(ys, ys[0], func(a, b []int) []int { return a })[0]
	})
}

// want: fallthrough
func fallthroughs(xs []int) []int {
	return soac.Map(xs, func(x int) int {
		switch x {
		case 1:
			fallthrough
		default:
			return 2
		}
	})
}

// want: select statement
func selects(xs []int, c chan int) []int {
	return soac.Map(xs, func(x int) int {
		select {
		case <-c:
		default:
		}
		return x
	})
}

// want: type switch
func typeSwitches(xs []int, v any) []int {
	return soac.Map(xs, func(x int) int {
		switch v.(type) {
		case int:
			return 1
		}
		return x
	})
}

// want: nextafter returns y, not x, when x == y
func nextafter(xs []float64) []float64 {
	return soac.Map(xs, func(x float64) float64 { return math.Nextafter(x, 0) })
}

// want: ilogb returns implementation-defined values
func ilogb(xs []float64) []int {
	return soac.Map(xs, func(x float64) int { return math.Ilogb(x) })
}

// want: Go's Pow10 is exact
func pow10(xs []int) []float64 {
	return soac.Map(xs, func(n int) float64 { return math.Pow10(n) })
}

// want: it returns two results
func frexp(xs []float64) []float64 {
	return soac.Map(xs, func(x float64) float64 {
		f, _ := math.Frexp(x)
		return f
	})
}
