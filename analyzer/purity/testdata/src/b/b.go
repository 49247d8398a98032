// Package b calls functions of package a: their verdicts come from facts.
package b

import "a"

func UsesPure(x int) int { return a.Add(x, 1) } // want `^pure$`

func UsesImpure() { // want `^impure: calls a.Bump, which writes package-level variable hits$`
	a.Bump()
}

func UsesIO() { // want `^impure: calls a.Hello, which calls fmt.Println \(I/O\); maypanic$`
	a.Hello()
}

func UsesRecursive(n int) int { return a.Fact(n) } // want `^pure$`

func UsesMayPanic(xs []int) int { return a.Index(xs, 0) } // want `^pure; maypanic$`

func UsesFillFresh() []int { // want `^pure$`
	out := make([]int, 2)
	a.Fill(out)
	return out
}

func UsesFillParam(xs []int) { // want `^impure: calls a.Fill, which writes argument 0 \(xs\), memory reachable from parameter xs$`
	a.Fill(xs)
}

func UsesMethod(c *a.Counter2) int { // want `^impure: calls a.Counter2.Inc, which writes its receiver c, memory reachable from parameter c; maypanic$`
	c.Inc()
	return c.Get()
}

func UsesMethodLocal() int { // want `^pure; maypanic$`
	var c a.Counter2
	c.Inc()
	return c.Get()
}

func UsesHigherOrder(x int) int { // want `^pure$`
	return a.CallValue(func() int { return x }) // want `^pure$`
}

func UsesHigherOrderImpure() int { // want `^impure: calls a.CallValue with a func literal, which writes package-level variable n$`
	return a.CallValue(func() int { // want `^impure: writes package-level variable n$`
		n++
		return n
	})
}

var n int
