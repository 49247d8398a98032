package opencl

import (
	"slices"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// TestScanAutoDevice runs ScanAuto, a scan and the map after it as two
// launches under backend=auto, on the device whatever it is
// (launch.AlwaysDevice) and on the host (launch.NeverDevice): both equal
// the spec, and the device runs kernels only in the first case.
func TestScanAutoDevice(t *testing.T) {
	_, err := device.Default()
	has := err == nil
	defer launch.SetChoice(launch.SetChoice(launch.AlwaysDevice))
	for _, choice := range []launch.Choice{launch.AlwaysDevice, launch.NeverDevice} {
		launch.SetChoice(choice)
		for _, n := range []int{1, 7, 1000, 100_003} {
			xs := make([]int64, n)
			for i := range xs {
				xs[i] = int64(i*7919%1000) - 500
			}
			k0, _ := launch.DeviceTime()
			var got []int64
			if fb := fallbacks(func() { got = ScanAuto(xs) }); fb != 0 {
				t.Errorf("choice %d n=%d: %d launches fell back", choice, n, fb)
			}
			k1, _ := launch.DeviceTime()
			if want := scanAutoSpec(xs); !slices.Equal(got, want) {
				t.Fatalf("choice %d n=%d: differs from the spec", choice, n)
			}
			if ran := k1 > k0; ran != (choice == launch.AlwaysDevice && has) {
				t.Errorf("choice %d n=%d: ran on the device: %v", choice, n, ran)
			}
		}
	}
}
