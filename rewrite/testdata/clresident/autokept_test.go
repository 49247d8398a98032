package clresident

import (
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// TestCapturedAuto: under backend=auto, the map-reduce reading the
// map's kept output as a captured slice runs on the device whenever the
// map did, though its own model says no (launch.NeverDevice): it reads
// the output there. After a map on the CPU it decides alone (the CPU).
func TestCapturedAuto(t *testing.T) {
	onDevice(t, soacgenCLCapturedAuto, soacgenCLCapturedAuto2)
	k1 := soacgenCLCapturedAuto
	defer func() { soacgenCLCapturedAuto = k1 }()
	defer launch.SetChoice(launch.SetChoice(launch.NeverDevice))
	// The map without backend=auto's model: always the device.
	forced := &launch.Redomap{At: k1.At, FP64: k1.FP64, Spec: k1.Spec}
	for _, n := range []int{1, 7, 4097, 100_003} {
		xs, zs := ints(n), mixed(n+5)
		want := capturedAutoSpec(xs, zs)
		for _, k := range []*launch.Redomap{forced, k1} {
			soacgenCLCapturedAuto = k
			var got int64
			var tr traffic
			noFallback(t, func() { tr = measure(func() { got = CapturedAuto(xs, zs) }) }, "n=%d, map forced to the device %v", n, k == forced)
			if got != want {
				t.Errorf("n=%d, map forced to the device %v: %d, want %d", n, k == forced, got, want)
			}
			// xs uploaded by the map, zs by the map-reduce, ys read
			// there; or nothing on the device.
			w := traffic{2, 0, 0, 1}
			if k != forced {
				w = traffic{}
			}
			if tr != w {
				t.Errorf("n=%d, map forced to the device %v: moved %+v, want %+v", n, k == forced, tr, w)
			}
		}
	}
}
