package matmul

import (
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// TestMatMulCL compares the opencl variant, run on the device, with the
// spec, bit for bit, and checks that the device ran it: each work-item
// sums a row times a column sequentially, left to right, with no
// contraction, as Go does. Ragged rows raise the spec's panic (the host
// does not launch the kernel; the CPU code raises it).
func TestMatMulCL(t *testing.T) {
	cltest.Require(t, soacgenCLMatMulCL)
	for _, s := range append(shapes, [3]int{130, 70, 33}) {
		r := extest.Rand(13, s[0]*s[1]*s[2]+s[0])
		a, bt := randMatrix(r, s[0], s[2]), randMatrix(r, s[1], s[2])
		want := matMulSpec(a, bt)
		k0, _ := launch.DeviceTime()
		var got [][]float64
		cltest.OnDevice(t, fmt.Sprintf("%v MatMulCL", s), func() { got = MatMulCL(a, bt) })
		if d := diff(got, want); d != "" {
			t.Errorf("%v MatMulCL: %s", s, d)
		}
		if k1, _ := launch.DeviceTime(); s[0]*s[1] > 0 && k1 == k0 {
			t.Errorf("%v MatMulCL: no kernel ran on the device", s)
		}
	}
	a := [][]float64{{1, 2}, {1, 2, 3}}
	bt := [][]float64{{1, 2}, {1, 2, 3}}
	want := extest.Panic(func() { matMulSpec(a, bt) })
	if got := extest.Panic(func() { MatMulCL(a, bt) }); got != want {
		t.Errorf("MatMulCL panics with %v, want %v", got, want)
	}
}
