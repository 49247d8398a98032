// Package orphan had a spec whose directive was removed after generation:
// soacgen would delete its output (the test puts the want comment there).
package orphan

import "github.com/soacgen/soacgen/runtime/soac"

func inc(x int) int { return x + 1 }

func inc2Spec(xs []int) []int { return soac.Map(soac.Map(xs, inc), inc) }
