package launch

import (
	"errors"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// fellBackDuring returns the fallbacks counted during f, and the last
// reason when there was one.
func fellBackDuring(f func()) (int64, string) {
	n0 := Fallbacks()
	f()
	n := Fallbacks() - n0
	if n == 0 {
		return 0, ""
	}
	return n, LastFallback()
}

// TestFallbacksCounted: every run of a built kernel that returns false
// counts one fallback with its reason (a panic flag set, by each
// skeleton's Run and RunOn; a stream reduction's row too long; a failed
// launch); runs that succeed count none.
func TestFallbacksCounted(t *testing.T) {
	needDevice(t)
	logs(t)
	var s Session
	defer s.Release()
	var sum [1]int32
	sums := []skel.HostSlice{skel.Slice(sum[:])}
	flagged := double("out0 = in0;\nred0 = in0;\nk__err = in0 == 7 ? 3 : 0;")
	odd := odds("out0 = in0;\nred0 = in0;\nk__err = in0 == 4 ? 2 : 0;\nkeep = (in0 & 1) != 0 || k__err != 0;")
	grid := &Grid{At: "g.go:1:1", Spec: skel.Grid{
		Name: "gridflag", Result: "long", Out: "c__p",
		Args: []skel.Arg{{Name: "a__p", Decl: "__global const long *restrict a__p"}, {Name: "a__n", Decl: "const long a__n"},
			{Name: "c__p", Decl: "__global long *restrict c__p"}},
		Body: "soac_v = a__p[soac_i];\nif (soac_v < 0) { soac_err = 1; }",
	}}
	inc, hist := incMap(), histRows()
	var kept *Array[int32]
	var row *Array[int64]
	for _, c := range []struct {
		name string
		run  func() bool
		why  string // "" for a run that succeeds
	}{
		{"Redomap.Run", func() bool { ok, _, _ := run(flagged, []int32{1, 8}); return ok }, ""},
		{"Redomap.Run flagged", func() bool { ok, _, _ := run(flagged, []int32{1, 7}); return ok }, "t.go:1:1: OpenCL kernel double: " + whyFlag},
		{"Redomap.RunOn flagged", func() bool { ok, _, _ := runOn(flagged, &s, Host([]int32{7}), 1, nil); return ok }, whyFlag},
		{"Filter.Run", func() bool { ok, _, _ := runFilter(odd, []int32{1, 3}); return ok }, ""},
		{"Filter.Run flagged", func() bool { ok, _, _ := runFilter(odd, []int32{1, 4}); return ok }, "OpenCL kernel odds: " + whyFlag},
		{"Filter.RunOn flagged", func() bool {
			_, ok := odd.RunOn(&s, nil, []Input{Host([]int32{4})}, []Output{Keep(&kept)}, sums)
			return ok
		}, whyFlag},
		{"Grid.Run", func() bool { return grid.Run(1, 2, 0, []any{View([]int64{1}), Out(make([]int64, 2))}) }, ""},
		{"Grid.Run flagged", func() bool { return grid.Run(1, 2, 0, []any{View([]int64{-1}), Out(make([]int64, 2))}) }, "g.go:1:1: OpenCL kernel gridflag: " + whyFlag},
		{"Grid.RunOn flagged", func() bool { return grid.RunOn(&s, 1, 2, 0, []any{View([]int64{-1}), Out(make([]int64, 2))}) }, whyFlag},
		{"StreamMap.Run flagged", func() bool {
			return inc.Run(nil, []skel.HostSlice{skel.Slice([]int32{99})}, skel.Slice(make([]int32, 1)))
		}, "m.go:1:1: OpenCL kernel inc_map: " + whyFlag},
		{"StreamMap.RunOn flagged", func() bool { return inc.RunOn(&s, nil, []Input{Host([]int32{1, 99})}, Keep(&kept)) }, whyFlag},
		{"StreamRed.Run", func() bool {
			return hist.Run(nil, []skel.HostSlice{skel.Slice([]int64{1})}, skel.Slice(make([]int64, 4)))
		}, ""},
		{"StreamRed.Run flagged", func() bool {
			return hist.Run(nil, []skel.HostSlice{skel.Slice([]int64{42})}, skel.Slice(make([]int64, 4)))
		}, "t.go:4:1: OpenCL kernel hist_rows: " + whyFlag},
		{"StreamRed.RunOn flagged", func() bool { return hist.RunOn(&s, nil, []Input{Host([]int64{42})}, 4, Keep(&row)) }, whyFlag},
		{"StreamRed.RunOn row too long", func() bool { return hist.RunOn(&s, nil, []Input{Host([]int64{1})}, 1<<23, Keep(&row)) }, whyRoom},
		// Left to the CPU code before a launch: not counted.
		{"Redomap.Run empty", func() bool { ok, _, _ := run(flagged, nil); return !ok }, ""},
		{"StreamRed.RunOn wrong room", func() bool {
			return !hist.RunOn(&s, nil, []Input{Host([]int64{1})}, 3, Download(make([]int64, 4)))
		}, ""},
	} {
		var ok bool
		n, why := fellBackDuring(func() { ok = c.run() })
		switch {
		case c.why == "" && (!ok || n != 0):
			t.Errorf("%s: %v, %d fallbacks (%q); want true, 0", c.name, ok, n, why)
		case c.why != "" && (ok || n != 1 || !strings.HasSuffix(why, c.why)):
			t.Errorf("%s: %v, %d fallbacks (%q); want false, 1 (%q)", c.name, ok, n, why, c.why)
		}
	}
}

// TestFallbacksLaunchFails: a failed launch counts one fallback; the
// later calls of its kernel (Kernel nil), a failed build and a missing
// device count none: their log line says why.
func TestFallbacksLaunchFails(t *testing.T) {
	needDevice(t)
	logs(t)
	k, sc := double(""), prefix()
	xs := []int32{1, 2}
	n, why := fellBackDuring(func() {
		k.Run([]any{int32(1)}, []skel.HostSlice{skel.Slice(xs)}, []skel.HostSlice{skel.Slice(make([]int32, 2))}, []skel.HostSlice{skel.Slice(make([]int32, 1))})
	})
	if n != 1 || !strings.HasPrefix(why, "t.go:1:1: OpenCL kernel double: "+whyFailed+": ") {
		t.Errorf("failed launch: %d fallbacks (%q), want 1", n, why)
	}
	n, why = fellBackDuring(func() {
		sc.Run([]any{int32(1)}, []skel.HostSlice{skel.Slice(xs)}, skel.Slice(make([]int32, 2)))
	})
	if n != 1 || !strings.HasPrefix(why, "s.go:1:1: OpenCL kernel prefix: "+whyFailed+": ") {
		t.Errorf("failed scan launch: %d fallbacks (%q), want 1", n, why)
	}
	if n, why := fellBackDuring(func() {
		run(k, xs)
		run(double("out0 = no_such_variable;\nred0 = in0;\nk__err = 0;"), xs)
	}); n != 0 {
		t.Errorf("a broken kernel's runs: %d fallbacks (%q), want 0", n, why)
	}
	old := openDevice
	openDevice = func() (*device.Device, error) { return nil, errors.New("no platform (test)") }
	defer func() { openDevice = old }()
	if n, why := fellBackDuring(func() { run(double(""), xs) }); n != 0 {
		t.Errorf("without a device: %d fallbacks (%q), want 0", n, why)
	}
}
