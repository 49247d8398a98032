//go:build goexperiment.simd

package difftest

import "slices"

// A build with GOEXPERIMENT=simd runs generated vector forms: every case
// also runs at the lengths around their lane counts (4, 8 and 16 lanes)
// and unrolled steps, where the vector loop hands over to the scalar one.
func init() {
	Sizes = append(Sizes, 3, 4, 5, 8, 9, 15, 16, 17, 31, 32, 33, 63, 65)
	slices.Sort(Sizes)
}
