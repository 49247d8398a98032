package normalize2

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// TestNormalize2CLPieces is TestNormalize2CL with every device run cut
// into pieces of 4 KiB an array (skel.SetPieces): the shared upload
// overlapping the sums, the downloads overlapping the maps.
func TestNormalize2CLPieces(t *testing.T) {
	defer skel.SetPieces(4096, 64)()
	TestNormalize2CL(t)
}
