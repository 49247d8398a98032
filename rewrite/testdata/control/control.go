// Package control mixes SOAC pipelines with every kind of statement: if
// and switch with inits, range over SOAC results, labels, closures, var
// blocks, defers and local types.
package control

import (
	"fmt"
	"strings"

	"github.com/soacgen/soacgen/runtime/soac"
)

type pair struct{ a, b int }

//soac:fuse Mixed
func mixedSpec(xs []int, words []string) (out []int, msg string) {
	const k = 3
	type local struct{ v int }
	defer func() { msg += "!" }()
	var (
		ys    = soac.Map(xs, func(x int) int { return x * k })
		total = 0
	)
	if s := soac.Reduce(ys, 0, func(a, b int) int { return a + b }); s > 10 {
		total += s
	} else if len(ys) > 2 {
		total -= ys[0]
	} else {
		total = -1
	}
	switch n := soac.Reduce(soac.Map(xs, func(x int) int { return x & 1 }), 0, func(a, b int) int { return a + b }); {
	case n > 3:
		total += n
	case n == 0:
		total *= 2
	}
outer:
	for i, v := range soac.Filter(ys, func(y int) bool { return y%2 == 0 }) {
		for j := 0; j < 3; j++ {
			if v+j == 7 {
				continue outer
			}
			if i > 5 {
				break outer
			}
		}
		total += v
	}
	lens := soac.Map(words, func(w string) int { return len(strings.TrimSpace(w)) })
	f := func(d int) int {
		return soac.Reduce(soac.Map(lens, func(l int) int { return l + d }), 0, func(a, b int) int { return a + b })
	}
	total += f(1) + f(2)
	var l local
	l.v = total
	ps := soac.Map(xs, func(x int) pair { return pair{x, x * x} })
	sum := soac.Reduce(soac.Map(ps, func(p pair) int { return p.b - p.a }), 0, func(a, b int) int { return a + b })
	out = soac.Scan(soac.Map(xs, func(x int) int { return x + l.v }), sum, func(a, b int) int { return a + b })
	msg = fmt.Sprint(total, sum)
	return
}

//soac:fuse Nested
func nestedSpec(xss [][]float64) ([]float64, float64) {
	means := soac.Map(xss, func(xs []float64) float64 {
		if len(xs) == 0 {
			return 0
		}
		s := soac.Reduce(xs, 0.0, func(a, b float64) float64 { return a + b })
		g := func(v float64) float64 { return v / float64(len(xs)) }
		return g(s)
	})
	return means, soac.Reduce(soac.Map(means, func(m float64) float64 { return m * m }), 0, func(a, b float64) float64 { return a + b })
}

//soac:fuse Goto
func gotoSpec(xs []int, c int) int {
	n := 0
	if c > 0 {
		goto end
	}
	n = soac.Reduce(soac.Map(xs, func(x int) int { return x - c }), 0, func(a, b int) int { return a + b })
end:
	return n + soac.Reduce(xs, 0, func(a, b int) int { return a ^ b })
}

//soac:fuse TypeSwitch
func typeSwitchSpec(xs []float64, v any) float64 {
	switch t := v.(type) {
	case int:
		return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * float64(t) }), 0.0, func(a, b float64) float64 { return a + b })
	default:
		return soac.Reduce(xs, 1.0, func(a, b float64) float64 { return a * b })
	}
}
