package soac_test

// This file pins the user-facing API fixed in the project's docs/contract.md:
// each function is assigned to a variable of its exact contract signature,
// instantiated with concrete types, so that any signature drift breaks
// compilation of the tests. It is an external test package, as user code is.

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/soac"
)

type point struct{ x, y float64 }

var (
	_ func([]int, func(int) string) []string                                       = soac.Map[int, string]
	_ func([]int, []float64, func(int, float64) point) []point                     = soac.Map2[int, float64, point]
	_ func([]int, []string, []bool, func(int, string, bool) byte) []byte           = soac.Map3[int, string, bool, byte]
	_ func([]float64, float64, func(float64, float64) float64) float64             = soac.Reduce[float64]
	_ func([]point, point, func(point, point) point) []point                       = soac.Scan[point]
	_ func([]string, func(string) bool) []string                                   = soac.Filter[string]
	_ func([]int, func(chunk []int) []float64) []float64                           = soac.StreamMap[int, float64]
	_ func([]float64, func(point, point) point, func(chunk []float64) point) point = soac.StreamRed[float64, point]
	_ func(int) []int                                                              = soac.Iota
	_ func(int, string) []string                                                   = soac.Replicate[string]
	_ func(string, ...int) string                                                  = soac.LengthError
	_ int                                                                          = soac.ChunkSize
)

// TestContractCalls calls every contract function with the documented type
// arguments inferred from its arguments, as a user program does, and checks
// one result of each.
func TestContractCalls(t *testing.T) {
	xs := []float64{1, -2, 3}
	add := func(a, b float64) float64 { return a + b }

	if got := soac.Map(xs, func(x float64) string { return "s" }); len(got) != 3 {
		t.Errorf("Map: %v", got)
	}
	if got := soac.Map2(xs, []int{1, 2, 3}, func(x float64, n int) float64 { return x * float64(n) }); got[1] != -4 {
		t.Errorf("Map2: %v", got)
	}
	if got := soac.Map3(xs, xs, xs, func(a, b, c float64) float64 { return a + b + c }); got[2] != 9 {
		t.Errorf("Map3: %v", got)
	}
	if got := soac.Reduce(xs, 0.0, add); got != 2 {
		t.Errorf("Reduce: %v", got)
	}
	if got := soac.Scan(xs, 0.0, add); got[1] != -1 {
		t.Errorf("Scan: %v", got)
	}
	if got := soac.Filter(xs, func(x float64) bool { return x > 0 }); len(got) != 2 {
		t.Errorf("Filter: %v", got)
	}
	if got := soac.StreamMap(xs, func(c []float64) []bool { return make([]bool, len(c)) }); len(got) != 3 {
		t.Errorf("StreamMap: %v", got)
	}
	if got := soac.StreamRed(xs, func(a, b int) int { return a + b }, func(c []float64) int { return len(c) }); got != 3 {
		t.Errorf("StreamRed: %v", got)
	}
	if got := soac.Iota(3); got[2] != 2 {
		t.Errorf("Iota: %v", got)
	}
	if got := soac.Replicate(2, point{1, 2}); got[1] != (point{1, 2}) {
		t.Errorf("Replicate: %v", got)
	}
}
