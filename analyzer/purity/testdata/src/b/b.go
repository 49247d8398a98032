package b

import "a"

func UsesPure(x int) int { return a.Add(x, 1) } // want `^pure$`

func UsesImpure() { // want `^impure: calls a.Bump, which writes package-level variable hits$`
	a.Bump()
}
