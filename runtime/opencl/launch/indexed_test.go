package launch

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// TestRunN runs a kernel without inputs: the squares of the indices and
// their sum, over lengths around the skeleton's group sizes; a length
// that is not positive, or an output of another length, is left to the
// CPU code, and an element reaching a panic site sets the flag.
func TestRunN(t *testing.T) {
	needDevice(t)
	k := &Redomap{At: "t.go:1:1", Spec: skel.Redomap{
		Name:       "squares",
		Outputs:    []skel.Param{{Name: "out0", Type: skel.Int64}},
		Reductions: []skel.Reduction{{Name: "red0", Type: skel.Int64, Op: "r = a + b;", Neutral: "0", Commutative: true}, ErrFlagReduction()},
		Body:       "out0 = soac_index * soac_index;\nred0 = soac_index;\nk__err = soac_index == 123457 ? 9 : 0;",
	}}
	for _, n := range []int{1, 7, 1000, 123457, 1 << 18} {
		out := make([]int64, n)
		var sum [1]int64
		ok := k.RunN(n, nil, []skel.HostSlice{skel.Slice(out)}, []skel.HostSlice{skel.Slice(sum[:])})
		if n > 123457 {
			if ok {
				t.Errorf("n=%d: RunN = true past the element that sets the panic flag", n)
			}
			continue
		}
		if !ok {
			t.Fatalf("n=%d: RunN = false", n)
		}
		for i, v := range out {
			if v != int64(i)*int64(i) {
				t.Fatalf("n=%d: out[%d] = %d, want %d", n, i, v, i*i)
			}
		}
		if want := int64(n) * int64(n-1) / 2; sum[0] != want {
			t.Errorf("n=%d: sum = %d, want %d", n, sum[0], want)
		}
	}
	var sum [1]int64
	for _, n := range []int{0, -3} {
		if k.RunN(n, nil, []skel.HostSlice{skel.Slice([]int64{})}, []skel.HostSlice{skel.Slice(sum[:])}) {
			t.Errorf("RunN(%d) = true", n)
		}
	}
	if k.RunN(5, nil, []skel.HostSlice{skel.Slice(make([]int64, 4))}, []skel.HostSlice{skel.Slice(sum[:])}) {
		t.Errorf("RunN with an output of another length = true")
	}
}
