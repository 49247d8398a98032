package pinned_test

import (
	"fmt"

	"github.com/soacgen/soacgen/runtime/opencl/pinned"
)

// A program that uploads large inputs to a generated opencl function
// allocates them pinned, fills them, and frees them when no call uses
// them any more. The slice is an ordinary []float64 to every other code.
func ExampleMake() {
	xs, free := pinned.Make[float64](1 << 20)
	defer free()
	for i := range xs {
		xs[i] = float64(i % 10)
	}
	// sum := sumsq.SumSqCL(xs) // one direct upload on a GPU
	s := 0.0
	for _, x := range xs[:10] {
		s += x
	}
	fmt.Println(len(xs), s)
	// Output: 1048576 45
}
