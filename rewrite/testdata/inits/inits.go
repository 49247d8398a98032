// Package inits holds SOACs in the init of for, if and switch statements
// whose variables closures capture: the generated statement must declare
// them in its own header, so that a for loop's body gets a fresh copy each
// iteration (Go 1.22) as the spec's does.
package inits

import "github.com/soacgen/soacgen/runtime/soac"

// call returns the results of fs, called in order.
func call(fs []func() int) []int {
	out := make([]int, 0, len(fs))
	for _, f := range fs {
		out = append(out, f())
	}
	return out
}

//soac:fuse ForInit
func forInitSpec(xs []int) []int {
	var fs []func() int
	for ys := soac.Map(xs, func(x int) int { return x * 2 }); len(ys) > 0; ys = ys[1:] {
		fs = append(fs, func() int {
			if len(ys) == 0 {
				return -1 // the loop's last value, seen only by a shared variable
			}
			return len(ys) + ys[0]
		})
	}
	return call(fs)
}

//soac:fuse ForInitTwo
func forInitTwoSpec(xs []int) []int {
	var fs []func() int
	for i, s := 0, soac.Reduce(soac.Map(xs, func(x int) int { return x & 7 }), 0, func(a, b int) int { return a + b }); i < len(xs) && i < 50; i, s = i+1, s-1 {
		fs = append(fs, func() int { return 100*i + s })
		s += i
	}
	return call(fs)
}

//soac:fuse ForInitNoPost
func forInitNoPostSpec(xs []int) []int {
	var fs []func() int
	for ys := soac.Filter(xs, func(x int) bool { return x > 0 }); len(ys) > 0; {
		fs = append(fs, func() int { return len(ys) })
		ys = ys[1:]
	}
	return call(fs)
}

//soac:fuse IfInit
func ifInitSpec(xs []int) []int {
	var fs []func() int
	if s := soac.Reduce(xs, 0, func(a, b int) int { return a + b }); s > 0 {
		fs = append(fs, func() int { return s })
		s = -s
		fs = append(fs, func() int { return s })
	} else {
		fs = append(fs, func() int { return s * 2 })
	}
	return call(fs)
}

//soac:fuse SwitchInit
func switchInitSpec(xs []int, v any) []int {
	var fs []func() int
	switch ys := soac.Map(xs, func(x int) int { return x + 1 }); t := v.(type) {
	case int:
		fs = append(fs, func() int { return len(ys) + t })
	default:
		for range 3 {
			fs = append(fs, func() int { return len(ys) })
			ys = append(ys, 0)
		}
	}
	return call(fs)
}
