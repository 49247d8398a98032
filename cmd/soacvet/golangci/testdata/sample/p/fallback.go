package p

import (
	"strings"

	"github.com/soacgen/soacgen/runtime/soac"
)

// lengthsSpec asks for opencl, which does not generate its kernel (the
// lambda calls a strings function): the parallel backend's code runs it.
//
//soac:fuse Lengths backend=opencl
func lengthsSpec(ns []int) []int {
	return soac.Map(ns, func(n int) int { return len(strings.Repeat("ab", n)) })
}
