package dotprod

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// TestDotCLPieces is TestDotCL with every device run cut into pieces of
// 4 KiB an array (skel.SetPieces).
func TestDotCLPieces(t *testing.T) {
	defer skel.SetPieces(4096, 64)()
	TestDotCL(t)
}
