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
	defer skel.SetPieces(64)()
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
