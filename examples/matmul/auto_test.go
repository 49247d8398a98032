package matmul

import (
	"testing"

	"github.com/soacgen/soacgen/examples/internal/cltest"
	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// autoChoices are the ways the auto tests run backend=auto's variants:
// by the cost model (on this machine's PoCL, a CPU device, always the
// host's code), on the device whenever there is one (the grid kernel),
// and never on it (the code that runs without OpenCL).
var autoChoices = []struct {
	name   string
	choice launch.Choice
}{{"model", launch.ByModel}, {"device", launch.AlwaysDevice}, {"host", launch.NeverDevice}}

// TestMatMulAuto compares MatMulAuto bit for bit under every choice
// with the spec where the device ran (its dot product sums each element
// left to right) and with the parallel backend's association where the
// host's code did (matMulAssoc), ragged rows included: they raise the
// spec's panic.
func TestMatMulAuto(t *testing.T) {
	for _, c := range autoChoices {
		t.Run(c.name, func(t *testing.T) {
			if c.choice == launch.AlwaysDevice {
				cltest.Require(t, soacgenCLMatMulAuto)
			}
			defer launch.SetChoice(launch.SetChoice(c.choice))
			for _, s := range append(shapes, [3]int{130, 70, 33}) {
				r := extest.Rand(14, s[0]*s[1]*s[2]+s[0])
				a, bt := randMatrix(r, s[0], s[2]), randMatrix(r, s[1], s[2])
				k0, _ := launch.DeviceTime()
				f0 := launch.Fallbacks()
				got := MatMulAuto(a, bt)
				k1, _ := launch.DeviceTime()
				ran := k1 != k0 && launch.Fallbacks() == f0 // a launch that fell back ran the CPU code
				want := matMulAssoc(matMulSpec, a, bt)
				if ran {
					want = matMulSpec(a, bt)
				}
				if d := diff(got, want); d != "" {
					t.Errorf("%v MatMulAuto (the device ran: %v): %s", s, ran, d)
				}
				// By the model either may run (the host on PoCL's CPU
				// device, the device on a GPU at the larger shapes).
				if c.choice == launch.NeverDevice && ran || c.choice == launch.AlwaysDevice && s[0]*s[1] > 0 && !ran {
					t.Errorf("%v MatMulAuto: the device ran: %v", s, ran)
				}
			}
			a := [][]float64{{1, 2}, {1, 2, 3}}
			want := extest.Panic(func() { matMulSpec(a, a) })
			if got := extest.Panic(func() { MatMulAuto(a, a) }); got != want {
				t.Errorf("MatMulAuto panics with %v, want %v", got, want)
			}
		})
	}
}

// TestMatMul32Auto is TestMatMulAuto for float32, NaN and ±Inf included.
func TestMatMul32Auto(t *testing.T) {
	for _, c := range autoChoices {
		t.Run(c.name, func(t *testing.T) {
			if c.choice == launch.AlwaysDevice {
				cltest.Require(t, soacgenCLMatMul32Auto)
			}
			defer launch.SetChoice(launch.SetChoice(c.choice))
			for _, s := range shapes32 {
				for _, special := range []bool{false, true} {
					r := extest.Rand(22, s[0]*s[1]*s[2]+s[0])
					a, bt := randMatrix32(r, s[0], s[2], special), randMatrix32(r, s[1], s[2], special)
					k0, _ := launch.DeviceTime()
					f0 := launch.Fallbacks()
					got := MatMul32Auto(a, bt)
					k1, _ := launch.DeviceTime()
					ran := k1 != k0 && launch.Fallbacks() == f0
					want := matMulAssoc(matMul32Spec, a, bt)
					if ran {
						want = matMul32Spec(a, bt)
					}
					if d := diff32(got, want); d != "" {
						t.Errorf("%v special=%v MatMul32Auto (the device ran: %v): %s", s, special, ran, d)
					}
				}
			}
			a := [][]float32{{1, 2}, {1, 2, 3}}
			want := extest.Panic(func() { matMul32Spec(a, a) })
			if got := extest.Panic(func() { MatMul32Auto(a, a) }); got != want {
				t.Errorf("MatMul32Auto panics with %v, want %v", got, want)
			}
		})
	}
}

// TestMatMulAutoModel checks the model's verdicts for the product: the
// host below some size, the device above it, with a GPU's constants
// (launch.WorthGrid does not look at the device).
func TestMatMulAutoModel(t *testing.T) {
	c := soacgenCLMatMulAuto.Cost
	if launch.WorthGrid(c, 8, 8, 8) {
		t.Errorf("an 8×8 product is worth the device")
	}
	if !launch.WorthGrid(c, 2048, 2048, 2048) {
		t.Errorf("a 2048×2048 product is not worth the device")
	}
}
