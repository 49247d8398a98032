package unfused

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/soac"
)

// A pipeline in a test file gets no unfused finding: soacgen does not
// generate specs of _test.go files, so //soac:fuse could not help.
func TestPipeline(t *testing.T) {
	xs := []float64{1, 2}
	if soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0, func(a, b float64) float64 { return a + b }) != 5 {
		t.Fail()
	}
}
