package blackscholes

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// TestBlackScholesCLPieces runs the opencl variants' tests with every
// device run cut into pieces of 4 KiB an array (skel.SetPieces).
func TestBlackScholesCLPieces(t *testing.T) {
	defer skel.SetPieces(4096, 64)()
	t.Run("CallPrices", TestCallPricesCL)
	t.Run("PortfolioValue", TestPortfolioValueCL)
	t.Run("CallPrices32", TestCallPrices32CL)
}
