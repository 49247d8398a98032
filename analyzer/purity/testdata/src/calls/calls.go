// Package calls checks Result.Call: the effect of each call expression at
// its site (the analyzer under test reports every call of this package).
package calls

import (
	"fmt"
	"io"
	"os"
	"sort"
)

var g int

func set(p *int) { *p = 1 }

func impure() { g++ }

func id(x int) int { return x }

func Calls(xs []int, w io.Writer, f func()) {
	_ = id(1)            // want `^call pure$`
	_ = float64(len(xs)) // want `^call pure$` `^call pure$`
	_ = [2]int(xs)       // want `^call pure; maypanic$`
	sort.Ints(xs)        // want `^call impure: calls sort.Ints, which writes argument 0 \(xs\); writes \[0\]; argwritesonly$`
	set(&g)              // want `^call impure: calls set, which writes argument 0 \(&g\); maypanic; writes \[0\]; argwritesonly$`
	impure()             // want `^call impure: calls impure, which writes package-level variable g; writes global$`
	fmt.Println()        // want `^call impure: calls fmt.Println \(I/O\); maypanic; writes global$`
	w.Write(nil)         // want `^call impure: calls interface method io.Writer.Write; maypanic; writes \[-1 0\]; writes global$`
	f()                  // want `^call impure: calls its function parameter f, which cannot be resolved here; maypanic; writes global$`
	_ = append(xs, 1)    // want `^call impure: appends to xs; writes \[0\]; argwritesonly$`
	os.Exit(1)           // want `^call impure: calls os.Exit \(exits the program\); writes global; noreturn$`
	panic("x")           // want `^call pure; maypanic; noreturn$`
}

func made(n int) []int { return make([]int, n) } // want `^call pure; maypanic$`

func kept(xs []int) []int { return xs }

func pair(n int) ([]int, []int) { return make([]int, n), nil } // want `^call pure; maypanic$`

// Fresh lists the results a call's callee allocates itself: made's and
// both of pair's (nil is fresh), not kept's (its argument).
func Fresh(xs []int) {
	_ = made(3)                 // want `^call pure; maypanic; fresh \[0\]$`
	_ = kept(xs)                // want `^call pure$`
	_, _ = pair(2)              // want `^call pure; maypanic; fresh \[0 1\]$`
	_ = append(xs[:0:0], xs...) // want `^call impure: appends to xs\[:0:0\]; writes \[0\]; argwritesonly$`
}
