package launch

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// TestRunPieces: a run cut into pieces (skel.SetPieces, several pieces
// at small n on any device) returns the uncut run's outputs and sum,
// counts one upload and one download (Transfers), and a panic flag set
// in the last piece only (or the first, or the middle) makes Run return
// false, as the uncut run does, without logging.
func TestRunPieces(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	defer skel.SetPieces(64, 64)()
	k := double("out0 = 2 * in0;\nred0 = in0;\nk__err = in0 == 7 ? 3 : 0;")
	for _, n := range []int{1, 7, 1000, 12345, 1_000_000, 1<<17 + 1} {
		xs := make([]int32, n)
		var want int32
		for i := range xs {
			xs[i] = int32(i%1000) - 500
			if xs[i] == 7 {
				xs[i] = 8
			}
			want += xs[i]
		}
		var ok bool
		var out []int32
		var sum int32
		up, down := moved(func() { ok, out, sum = run(k, xs) })
		if !ok || sum != want || up != 1 || down != 1 {
			t.Fatalf("n=%d: ok %v, sum %d (want %d), moved %d up %d down (want 1, 1)", n, ok, sum, want, up, down)
		}
		for i, v := range out {
			if v != 2*xs[i] {
				t.Fatalf("n=%d: out[%d] = %d, want %d", n, i, v, 2*xs[i])
			}
		}
		for _, at := range []int{0, n / 2, n - 1} {
			old := xs[at]
			xs[at] = 7
			if ok, _, _ := run(k, xs); ok {
				t.Errorf("n=%d: Run with the panic flag set at %d = true", n, at)
			}
			xs[at] = old
		}
	}
	if l := lines(); len(l) != 0 {
		t.Errorf("log lines %q", l)
	}
}

// TestRunOnPieces: a Session's runs cut into pieces, as Normalize2's
// two kernels are: the first uploads a shared input while it reduces,
// the second reads it on the device and downloads its output while it
// maps. Results, Transfers and the shared Array are the uncut runs';
// a flag in the last piece makes RunOn return false and keeps nothing.
func TestRunOnPieces(t *testing.T) {
	needDevice(t)
	defer skel.SetPieces(64, 64)()
	k1 := double("red0 = in0;\nk__err = in0 == 7 ? 3 : 0;")
	k1.Spec.Name, k1.Spec.Outputs = "sum_only", nil
	k2 := double("")
	for _, n := range []int{1000, 12345, 1<<17 + 1} {
		xs := make([]int32, n)
		var want int32
		for i := range xs {
			xs[i] = int32(i%999) - 400
			if xs[i] == 7 {
				xs[i] = 6
			}
			want += xs[i]
		}
		var s Session
		var dev *Array[int32]
		var sum [1]int32
		var out []int32
		var ok1, ok2 bool
		var sum2 int32
		up, down := moved(func() {
			ok1 = k1.RunOn(&s, nil, []Input{Share(&dev, xs)}, nil, []skel.HostSlice{skel.Slice(sum[:])})
			ok2, out, sum2 = runOn(k2, &s, Dev(dev, xs), n, nil)
		})
		if !ok1 || !ok2 || sum[0] != want || sum2 != want || dev == nil || up != 1 || down != 1 {
			t.Fatalf("n=%d: ok %v %v, sums %d %d (want %d), shared %v, moved %d up %d down (want 1, 1)", n, ok1, ok2, sum[0], sum2, want, dev != nil, up, down)
		}
		for i, v := range out {
			if v != 2*xs[i] {
				t.Fatalf("n=%d: out[%d] = %d, want %d", n, i, v, 2*xs[i])
			}
		}
		s.Release()
		xs[n-1] = 7
		dev = nil
		var s2 Session
		if k1.RunOn(&s2, nil, []Input{Share(&dev, xs)}, nil, []skel.HostSlice{skel.Slice(sum[:])}) {
			t.Errorf("n=%d: RunOn with the flag set in the last piece = true", n)
		}
		var kept *Array[int32]
		if ok, _, _ := runOn(double("out0 = 2 * in0;\nred0 = in0;\nk__err = in0 == 7 ? 3 : 0;"), &s2, Host(xs), n, &kept); ok || kept != nil {
			t.Errorf("n=%d: a failed RunOn kept its output (ok %v)", n, ok)
		}
		s2.Release()
	}
}
