package launch

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// TestViewDev: a kept Array read by a later run's lambda as a captured
// slice is read where it is (no upload, no download); a nil Array gives
// the Go slice, uploaded for the run; a released one its host copy.
func TestViewDev(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	k := double("")
	red := &StreamRed{At: "t.go:3:1", Spec: skel.StreamRed{
		Name:   "reversed_rows",
		Inputs: []skel.Param{{Name: "x", Type: skel.Int64}},
		Row:    skel.Int64,
		Args:   []skel.Arg{{Name: "cap__w__p", Decl: "__global const int *restrict cap__w__p"}, {Name: "cap__w__n", Decl: "const long cap__w__n"}},
		Chunk: `long s = 0;
for (long i = soac_lo; i < soac_hi; i++) s += in_x[i] * cap__w__p[cap__w__n - 1 - i];
soac_row[0] = s;`,
		Combine: `soac_out[0] = soac_a[0] + soac_b[0];`,
	}}
	xs := []int32{1, -2, 3, 40, 5}
	ws := []int64{1, 10, 100, 1000, 10000}
	// want is the sum of ws[i] times doubled xs read backwards.
	want := int64(0)
	for i, w := range ws {
		want += w * 2 * int64(xs[len(xs)-1-i])
	}
	var s Session
	defer s.Release()
	var a *Array[int32]
	if ok, _, _ := runOn(k, &s, Host(xs), len(xs), &a); !ok || a == nil {
		t.Fatalf("first run: %v, %v", ok, a)
	}
	run := func(arg any) int64 {
		var r [1]int64
		if ok := red.RunOn(&s, []any{arg}, []Input{Host(ws)}, len(r), Download(r[:])); !ok {
			t.Fatal("the stream run failed")
		}
		return r[0]
	}
	v0, d0 := Views()
	up, down := moved(func() {
		if r := run(ViewDev(a, nil)); r != want {
			t.Errorf("on the device: %d, want %d", r, want)
		}
	})
	// The input and the row are counted; the capture is read there.
	if v, d := Views(); up != 1 || down != 1 || v-v0 != 0 || d-d0 != 1 {
		t.Errorf("on the device: %d uploads, %d downloads, %d captured uploads, %d device views; want 1, 1, 0, 1", up, down, v-v0, d-d0)
	}
	// Downloaded, then released: the host copy is uploaded.
	host := a.Host()
	a.Release()
	v0, _ = Views()
	if r := run(ViewDev(a, nil)); r != want {
		t.Errorf("released: %d, want %d", r, want)
	}
	// No array (its producer ran on the CPU): the Go slice.
	if r := run(ViewDev[int32](nil, host)); r != want {
		t.Errorf("nil array: %d, want %d", r, want)
	}
	if v, _ := Views(); v-v0 != 2 {
		t.Errorf("%d captured uploads, want 2", v-v0)
	}
	if l := lines(); len(l) != 0 {
		t.Errorf("log lines %q", l)
	}
}
