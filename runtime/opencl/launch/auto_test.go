package launch

import (
	"errors"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/device"
)

func TestWorth(t *testing.T) {
	stream := Cost{Bytes: 8, Ops: 2}   // sum of squares
	heavy := Cost{Bytes: 48, Ops: 264} // a Black-Scholes price
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
// (measured 46.6 ms on the H100 against 98.5 ms on 16
// cores at n = 2^23, 2026-11-23), and so does a kernel of much more arithmetic per
// byte; on one core the model is the cpu backend's.
func TestWorthParallel(t *testing.T) {
	stream := Cost{Bytes: 8, Ops: 2, Parallel: true}
	heavy := Cost{Bytes: 48, Ops: 264, Parallel: true}
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
	r := &Redomap{Cost: Cost{Bytes: 48, Ops: 264}}
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

// TestWorthGrid: a grid's cost grows with its inner length: a matrix
// product (one add and one multiply per step, 8-byte elements) stays on
// the host when small, goes to a GPU when large, against one core and
// against 16; an element of no inner work never pays for its transfers
// against 16 cores.
func TestWorthGrid(t *testing.T) {
	dot := GridCost{Out: 8, Row: 8, Col: 8, ColRows: true, Ops: 1, OpsK: 2, Parallel: true}
	flat := GridCost{Out: 8, Row: 8, Col: 8, Ops: 2, Parallel: true}
	for _, c := range []struct {
		c             GridCost
		rows, cols, k int
		cores         int
		want          bool
	}{
		{dot, 16, 16, 16, 1, false},
		{dot, 16, 16, 16, 16, false},
		{dot, 1024, 1024, 1024, 1, true},
		{dot, 1024, 1024, 1024, 16, true},
		{dot, 0, 0, 0, 16, false},
		{flat, 4096, 4096, 1, 16, false},
	} {
		bytes, ops := c.c.work(c.rows, c.cols, c.k)
		if got := workOn(bytes, ops, launchNs, c.cores); got != c.want {
			t.Errorf("%+v at %d×%d×%d on %d cores: %v, want %v", c.c, c.rows, c.cols, c.k, c.cores, got, c.want)
		}
	}
	if got := WorthGrid(dot, 8, 8, 8); got {
		t.Errorf("WorthGrid of an 8×8×8 product = true")
	}
}

// TestWorthStream: a stream reduction's cost per element is its chunk
// loop's trip (k-means with 16 centres: about 130 operations a point, 16
// bytes; a histogram: 11 operations, 8 bytes): the heavy one goes to the
// device at 1e7 points against 16 cores and stays on the host at 1e3;
// the light one stays on the host at 1e3 and, against one core, goes to
// the device at 1e7.
func TestWorthStream(t *testing.T) {
	kmeans := Cost{Bytes: 16, Ops: 130, Parallel: true}
	hist := Cost{Bytes: 8, Ops: 11, Parallel: true}
	for _, c := range []struct {
		c     Cost
		n     int
		cores int
		want  bool
	}{
		{kmeans, 1_000, 16, false},
		{kmeans, 10_000_000, 16, true},
		{hist, 1_000, 16, false},
		{hist, 10_000_000, 1, true}, // one core: PCIe beats its bandwidth
	} {
		if got := worthOn(c.c, c.n, c.cores); got != c.want {
			t.Errorf("worthOn(%+v, %d, %d cores) = %v, want %v", c.c, c.n, c.cores, got, c.want)
		}
	}
}

// TestWorthShortcut: the early answer that skips GOMAXPROCS agrees with
// the full model on every core count, on sizes around the launch.
func TestWorthShortcut(t *testing.T) {
	for _, c := range []Cost{{Bytes: 8, Ops: 2}, {Bytes: 48, Ops: 264}, {Bytes: 16, Ops: 2000}, {Bytes: 16, Ops: 130}} {
		for n := 1; n < 1<<24; n = n*3/2 + 1 {
			bytes, ops := float64(n)*float64(c.Bytes), float64(n)*float64(c.Ops)
			if bytes/pcieBytes+ops/gpuOps+launchNs < bytes/cpuBytes+ops/cpuOps+forkNs {
				continue // the shortcut does not answer
			}
			for _, cores := range []int{1, 2, 4, 16, 64} {
				if workOn(bytes, ops, launchNs, cores) {
					t.Errorf("%+v n=%d: the shortcut says host, the model on %d cores the device", c, n, cores)
				}
			}
		}
	}
}

// TestChoice: SetChoice's settings: the device always (when there is
// one, of any type) and never.
func TestChoice(t *testing.T) {
	r := &Redomap{Auto: true, Cost: Cost{Bytes: 8, Ops: 2}}
	defer SetChoice(SetChoice(NeverDevice))
	if r.Use(1 << 30) {
		t.Errorf("NeverDevice: Use = true")
	}
	SetChoice(AlwaysDevice)
	_, err := openDevice()
	if got := r.Use(1); got != (err == nil) {
		t.Errorf("AlwaysDevice: Use(1) = %v with device error %v", got, err)
	}
	old := openDevice
	openDevice = func() (*device.Device, error) { return nil, errors.New("no platform (test)") }
	defer func() { openDevice = old }()
	if r.Use(1 << 30) {
		t.Errorf("AlwaysDevice without a device: Use = true")
	}
}

// TestUseAllocs: the choice allocates nothing, on either side of the
// model's threshold.
func TestUseAllocs(t *testing.T) {
	r := &Redomap{Auto: true, Cost: Cost{Bytes: 48, Ops: 264, Parallel: true}}
	g := &Grid{Auto: true, Cost: GridCost{Out: 8, Row: 8, Col: 8, ColRows: true, Ops: 1, OpsK: 2, Parallel: true}}
	for _, n := range []int{1_000, 10_000_000} {
		if a := testing.AllocsPerRun(100, func() { r.Use(n); g.Use(n/100, n/100, 64) }); a != 0 {
			t.Errorf("n=%d: Use allocates %v times", n, a)
		}
	}
}

// BenchmarkChoice is backend=auto's choice alone, the cost of auto over
// the code it chooses: a Black-Scholes kernel's Use at n = 1e3 (the host
// by the model, decided without reading GOMAXPROCS) and at 1e5 (the
// model in full: GOMAXPROCS read, and the device opened once, outside
// the timing), and a 64² matrix product's Grid.Use.
func BenchmarkChoice(b *testing.B) {
	r := &Redomap{Auto: true, Cost: Cost{Bytes: 48, Ops: 264, Parallel: true}}
	g := &Grid{Auto: true, Cost: GridCost{Out: 8, Row: 8, Col: 8, ColRows: true, Ops: 1, OpsK: 2, Parallel: true}}
	GPU()
	for _, c := range []struct {
		name string
		f    func() bool
	}{
		{"redomap/n=1e3", func() bool { return r.Use(1_000) }},
		{"redomap/n=1e5", func() bool { return r.Use(100_000) }},
		{"grid/64", func() bool { return g.Use(64, 64, 64) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				c.f()
			}
		})
	}
}

// TestWorthH100 checks the model against the faster side measured on
// the H100 host (every example on the H100, 2026-11-26, n = 2^23,
// 16 cores; BenchmarkAuto, 2026-11-23, 1e3 and 1e4), with the costs the
// generator gives the examples' auto variants: Black-Scholes, the
// k-means step and a 512² product on the device; the histogram (its
// kernel 3.8 ms against 2.4 ms on 16 cores), the sum of squares and
// normalize2 on the host; at 1e3 every one on the host, at 1e4
// Black-Scholes on the device.
func TestWorthH100(t *testing.T) {
	const n = 1 << 23
	for _, c := range []struct {
		name string
		c    Cost
		n    int
		want bool
	}{
		{"CallPrices", Cost{Bytes: 48, Ops: 264}, n, true},
		{"ClusterSizes", Cost{Bytes: 16, Ops: 130}, n, true},
		{"Histogram", Cost{Bytes: 8, Ops: 11}, n, false},
		{"SumSq", Cost{Bytes: 8, Ops: 2}, n, false},
		{"Normalize2", Cost{Bytes: 24, Ops: 5}, n, false},
		{"CallPrices", Cost{Bytes: 48, Ops: 264}, 1_000, false},
		{"CallPrices", Cost{Bytes: 48, Ops: 264}, 10_000, true},
		{"SumSq", Cost{Bytes: 8, Ops: 2}, 1_000, false},
	} {
		if got := worthOn(c.c, c.n, 16); got != c.want {
			t.Errorf("%s at %d on 16 cores: device %v, want %v", c.name, c.n, got, c.want)
		}
	}
	// The k-means step is a stream reduction (streamLaunchNs): on the
	// host at 1e4 points (149 µs on 16 cores against 207 on the device,
	// H100, 2026-11-26), on the device at 1e5 (561 against
	// 381). With a map-reduce kernel's launch the model took the device
	// at 1e4.
	step := Cost{Bytes: 16, Ops: 130}
	for _, c := range []struct {
		n    int
		want bool
	}{{10_000, false}, {100_000, true}} {
		bytes, ops := float64(c.n*step.Bytes), float64(c.n*step.Ops)
		if got := workOn(bytes, ops, streamLaunchNs, 16); got != c.want {
			t.Errorf("ClusterSizes at %d on 16 cores: device %v, want %v", c.n, got, c.want)
		}
	}
	if bytes, ops := float64(10_000*step.Bytes), float64(10_000*step.Ops); !workOn(bytes, ops, launchNs, 16) {
		t.Errorf("ClusterSizes at 1e4 with a map-reduce kernel's launch: not the device (the case above no longer shows the stream's launch)")
	}
	dot := GridCost{Out: 8, Row: 8, Col: 8, ColRows: true, Ops: 1, OpsK: 2}
	if bytes, ops := dot.work(512, 512, 512); !workOn(bytes, ops, launchNs, 16) {
		t.Errorf("MatMul 512² on 16 cores: not the device")
	}
}

// TestUseCPUDevice: on a CPU device (PoCL, as on the development VM)
// backend=auto never takes the device, however large the call: the
// model's constants are a GPU's, and a CPU device competes with the
// host's own code for the same cores.
func TestUseCPUDevice(t *testing.T) {
	d, err := openDevice()
	if err != nil || d.Info.IsGPU() {
		t.Skip("the device is not a CPU one")
	}
	r := &Redomap{Auto: true, Cost: Cost{Bytes: 16, Ops: 2000, Parallel: true}}
	g := &Grid{Auto: true, Cost: GridCost{Out: 8, Row: 8, Col: 8, ColRows: true, Ops: 1, OpsK: 2, Parallel: true}}
	if !Worth(r.Cost, 1<<24) || r.Use(1<<24) || g.Use(2048, 2048, 2048) {
		t.Errorf("backend=auto takes the CPU device %s", d.Info.Name)
	}
}
