package sumsq

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// TestSumSqCLPieces is TestSumSqCL with every device run cut into
// pieces of 4 KiB an array (skel.SetPieces).
func TestSumSqCLPieces(t *testing.T) {
	defer skel.SetPieces(4096, 64)()
	TestSumSqCL(t)
}
