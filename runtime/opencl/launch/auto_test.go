package launch

import (
	"errors"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/device"
)

func TestWorth(t *testing.T) {
	stream := Cost{Bytes: 8, Ops: 2}   // sum of squares
	heavy := Cost{Bytes: 48, Ops: 115} // a Black-Scholes price
	for _, c := range []struct {
		c    Cost
		n    int
		want bool
	}{
		{stream, 1000, false},      // the launch dominates
		{heavy, 100, false},        // still the launch
		{heavy, 1_000_000, true},   // arithmetic dominates
		{stream, 1 << 30, true},    // PCIe (20 B/ns) beats one core (10 B/ns) at any size past the launch
		{Cost{Bytes: 8}, 0, false}, // nothing to do
	} {
		if got := Worth(c.c, c.n); got != c.want {
			t.Errorf("Worth(%+v, %d) = %v, want %v", c.c, c.n, got, c.want)
		}
	}
}

// TestWorthParallel: against the parallel backend on 16 cores, a
// streaming kernel never pays for PCIe, a Black-Scholes price does
// (BENCHMARKS.md measured 46.6 ms on the H100 against 98.5 ms on 16
// cores at n = 2^23), and so does a kernel of much more arithmetic per
// byte; on one core the model is the cpu backend's.
func TestWorthParallel(t *testing.T) {
	stream := Cost{Bytes: 8, Ops: 2, Parallel: true}
	heavy := Cost{Bytes: 48, Ops: 115, Parallel: true}
	dense := Cost{Bytes: 16, Ops: 2000, Parallel: true}
	for _, c := range []struct {
		c     Cost
		n     int
		cores int
		want  bool
	}{
		{stream, 1 << 30, 16, false},
		{heavy, 1 << 23, 16, true},
		{heavy, 1000, 16, false}, // the launch dominates
		{heavy, 1 << 23, 1, true},
		{dense, 1 << 20, 16, true},
		{dense, 10, 16, false}, // the launch dominates
	} {
		if got := worthOn(c.c, c.n, c.cores); got != c.want {
			t.Errorf("worthOn(%+v, %d, %d cores) = %v, want %v", c.c, c.n, c.cores, got, c.want)
		}
	}
}

// TestUse: backend=opencl always uses its kernel; backend=auto only on a
// GPU (never without OpenCL) and when the model says so.
func TestUse(t *testing.T) {
	r := &Redomap{Cost: Cost{Bytes: 48, Ops: 115}}
	if !r.Use(1) {
		t.Errorf("a backend=opencl kernel is not used")
	}
	r.Auto = true
	old := openDevice
	openDevice = func() (*device.Device, error) { return nil, errors.New("no platform (test)") }
	defer func() { openDevice = old }()
	if r.Use(1 << 20) {
		t.Errorf("backend=auto uses OpenCL without a device")
	}
}
