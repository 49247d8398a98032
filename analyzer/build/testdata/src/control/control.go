package control

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b int) int { return a + b }
func inc(x int) int    { return x + 1 }

// Versions after reassignment in branches.
func branches(xs []int, c bool) []int {
	ys := soac.Map(xs, inc)
	if c {
		ys = soac.Map(ys, inc)
	} else if len(xs) > 3 {
		ys = xs
	}
	return soac.Map(ys, inc)
}

// SOACs in an if's init and condition are hoisted before the if; an
// else-if condition into the else block.
func conds(xs []int) int {
	if s := soac.Reduce(xs, 0, add); s > 10 {
		return s
	} else if soac.Reduce(soac.Map(xs, inc), 0, add) > 5 {
		return 1
	}
	return 0
}

// Switch: tag hoisted; case blocks.
func switches(xs []int, k int) []int {
	var out []int
	switch soac.Reduce(xs, 0, add) {
	case 0:
		out = xs
	case 1, 2:
		out = soac.Map(xs, inc)
		break
	default:
		out = nil
	}
	return out
}

// Loops: variables assigned in the body are redefined at loop entry.
func loops(xs []int, n int) []int {
	for i := 0; i < n; i++ {
		xs = soac.Map(xs, inc)
	}
	total := 0
	for _, x := range soac.Map(xs, inc) {
		total += x
	}
	return soac.Map(xs, func(x int) int { return x + total })
}

// Early return and labelled loops.
func early(xss [][]int) int {
outer:
	for _, xs := range xss {
		for _, x := range xs {
			if x < 0 {
				continue outer
			}
			if x > 100 {
				break outer
			}
		}
		if s := soac.Reduce(xs, 0, add); s > 0 {
			return s
		}
	}
	return 0
}

// Closures: a variable assigned inside a closure is escaped.
func closures(xs []int) []int {
	k := 1
	bump := func() { k++ }
	ys := soac.Map(xs, func(x int) int { return x + k })
	bump()
	zs := soac.Map(ys, func(x int) int { return x * k })
	run := func() []int { return soac.Map(zs, inc) }
	return run()
}

// Local types, type switches, select, defer and go build.
func misc(xs []int, v any, ch chan int) int {
	type pair struct{ a, b int }
	p := pair{1, 2}
	switch t := v.(type) {
	case int:
		p.a = t
	case []int:
		xs = t
	}
	select {
	case x := <-ch:
		p.b = x
	default:
	}
	defer func() { _ = p }()
	go func() { ch <- 1 }()
	return soac.Reduce(xs, p.a, add)
}

// goto: the function's SOACs are not modelled.
func gotos(xs []int) int {
	i := 0
again:
	xs = soac.Map(xs, inc)
	i++
	if i < 3 {
		goto again
	}
	return soac.Reduce(xs, 0, add)
}

// A closure reads a variable reassigned after the closure is made: calling
// it reads (and so pins) the variable's current value.
func closureReads(xs []float64) []float64 {
	var ys []float64
	first := func() float64 { return ys[0] }
	ys = soac.Map(xs, func(x float64) float64 { return x + 1 })
	z := first()
	return soac.Map(ys, func(y float64) float64 { return y * z })
}

// carried: values that leave a loop body or a branch flow out of them
// (the loop's and the if's flows): the Map's result goes to the next
// iteration; after a continue, every value the body gave ys may.
func carried(xs, ys []int, n int, c bool) int {
	s := 0
	for i := 0; i < n; i++ {
		xs = soac.Map(xs, inc)
		s = soac.Reduce(xs, s, add)
	}
	for i := 0; i < n; i++ {
		ys = soac.Map(ys, inc)
		if i == 1 {
			continue
		}
		ys = soac.Map(ys, inc)
	}
	if c {
		xs = soac.Map(xs, inc)
	}
	return s + len(xs) + len(ys)
}
