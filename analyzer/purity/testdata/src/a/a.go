package a

import "fmt"

var hits int

func Add(x, y int) int { return x + y } // want `^pure$`

func Bump() { // want `^impure: writes package-level variable hits$`
	hits++
}

func Hello() { // want `^impure: calls fmt.Println \(I/O\); maypanic$`
	fmt.Println("hello")
}

func Fill(xs []int) { // want `^impure: writes xs\[i\], memory reachable from parameter xs; maypanic$`
	for i := range xs {
		xs[i] = 1
	}
}

func Fresh(n int) []int { // want `^pure; maypanic$`
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func Counter() func() int { // want `^pure$`
	count := 0
	return func() int { // want `^impure: writes captured variable count$`
		count++
		return count
	}
}
