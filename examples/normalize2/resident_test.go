package normalize2

import (
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// transfers returns the arrays uploaded and downloaded by generated
// kernels during f.
func transfers(f func()) (up, down int64) {
	u0, d0 := launch.Transfers()
	f()
	u1, d1 := launch.Transfers()
	return u1 - u0, d1 - d0
}

// TestNormalize2CLUploadsOnce: Normalize2CL's two kernels read xs from
// one upload and download the two results; each kernel uploading its
// inputs (launch.KeepOnDevice false) takes two uploads.
func TestNormalize2CLUploadsOnce(t *testing.T) {
	cltest.Require(t, soacgenCLNormalize2CL, soacgenCLNormalize2CL2)
	xs := extest.Floats(extest.Rand(3, 1000), 1000, -1, 2)
	want1, want2 := Normalize2CL(xs)
	for _, keep := range []bool{true, false} {
		launch.KeepOnDevice = keep
		var got1, got2 []float64
		var up, down int64
		cltest.OnDevice(t, fmt.Sprintf("keep %v", keep), func() { up, down = transfers(func() { got1, got2 = Normalize2CL(xs) }) })
		launch.KeepOnDevice = true
		wantUp := int64(1)
		if !keep {
			wantUp = 2
		}
		if up != wantUp || down != 2 {
			t.Errorf("keep %v: %d uploads and %d downloads per call, want %d and 2", keep, up, down, wantUp)
		}
		if d := extest.DiffFloats(got1, want1) + extest.DiffFloats(got2, want2); d != "" {
			t.Errorf("keep %v: results differ: %s", keep, d)
		}
	}
}
