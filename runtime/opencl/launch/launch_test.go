package launch

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// logs replaces Logf for one test and returns the lines it printed.
// Every cause is logged again in the test (logOnce), as in a fresh
// process.
func logs(t *testing.T) func() []string {
	var mu sync.Mutex
	var lines []string
	fallbackMu.Lock()
	clear(logged)
	fallbackMu.Unlock()
	old := Logf
	Logf = func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(format, args...))
	}
	t.Cleanup(func() { Logf = old })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
}

// needDevice skips t without OpenCL, unless SOACGEN_REQUIRE_OPENCL=1.
func needDevice(t *testing.T) {
	if _, err := device.Default(); err != nil {
		if os.Getenv("SOACGEN_REQUIRE_OPENCL") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
}

// double is a kernel doubling int32 elements into out0 and summing them
// into red0; body replaces its element code when not "".
func double(body string) *Redomap {
	if body == "" {
		body = "out0 = 2 * in0;\nred0 = in0;\nk__err = 0;"
	}
	return &Redomap{At: "t.go:1:1", Spec: skel.Redomap{
		Name:       "double",
		Inputs:     []skel.Param{{Name: "in0", Type: skel.Int32}},
		Outputs:    []skel.Param{{Name: "out0", Type: skel.Int32}},
		Reductions: []skel.Reduction{{Name: "red0", Type: skel.Int32, Op: "r = a + b;", Neutral: "0"}, ErrFlagReduction()},
		Body:       body,
	}}
}

func run(k *Redomap, xs []int32) (bool, []int32, int32) {
	out := make([]int32, len(xs))
	var sum [1]int32
	ok := k.Run(nil, []skel.HostSlice{skel.Slice(xs)}, []skel.HostSlice{skel.Slice(out)}, []skel.HostSlice{skel.Slice(sum[:])})
	return ok, out, sum[0]
}

func TestRun(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	k := double("")
	xs := []int32{1, -2, 3, 40, 5}
	ok, out, sum := run(k, xs)
	if !ok || fmt.Sprint(out) != "[2 -4 6 80 10]" || sum != 47 {
		t.Errorf("Run = %v, %v, %d; want true, [2 -4 6 80 10], 47", ok, out, sum)
	}
	// Empty and unequal lengths are left to the CPU code, with no log.
	if ok, _, _ := run(k, nil); ok {
		t.Errorf("Run on no elements = true")
	}
	if k.Run(nil, []skel.HostSlice{skel.Slice(xs)}, []skel.HostSlice{skel.Slice(make([]int32, 4))}, []skel.HostSlice{skel.Slice(make([]int32, 1))}) {
		t.Errorf("Run with an output of another length = true")
	}
	if l := lines(); len(l) != 0 {
		t.Errorf("log lines %q", l)
	}
}

// TestPanicFlag: a work-item that sets the flag makes Run return false,
// every time, without logging or disabling the kernel.
func TestPanicFlag(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	k := double("out0 = in0;\nred0 = in0;\nk__err = in0 == 7 ? 3 : 0;")
	for range 2 {
		if ok, _, _ := run(k, []int32{1, 7, 2}); ok {
			t.Errorf("Run with a panic flag set = true")
		}
	}
	if ok, _, _ := run(k, []int32{1, 8, 2}); !ok {
		t.Errorf("Run without a panic = false")
	}
	if l := lines(); len(l) != 0 {
		t.Errorf("log lines %q", l)
	}
}

// TestNoDevice: without OpenCL, Kernel is nil and Run false, with one log
// line saying why, however often it is called.
func TestNoDevice(t *testing.T) {
	lines := logs(t)
	old := openDevice
	openDevice = func() (*device.Device, error) { return nil, errors.New("no platform (test)") }
	defer func() { openDevice = old }()
	k := double("")
	for range 3 {
		if ok, _, _ := run(k, []int32{1, 2}); ok {
			t.Fatal("Run without a device = true")
		}
	}
	l := lines()
	if len(l) != 1 || !strings.Contains(l[0], "t.go:1:1: OpenCL kernel double runs on the CPU: no OpenCL device: no platform (test)") {
		t.Errorf("log lines %q, want one about the missing device", l)
	}
	if GPU() {
		t.Errorf("GPU() without a device")
	}
}

// TestBuildFails: a program the device's compiler rejects runs on the
// CPU, with one log line.
func TestBuildFails(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	k := double("out0 = no_such_variable;\nred0 = in0;\nk__err = 0;")
	for range 2 {
		if ok, _, _ := run(k, []int32{1, 2}); ok {
			t.Fatal("Run of a broken program = true")
		}
	}
	if l := lines(); len(l) != 1 || !strings.Contains(l[0], "runs on the CPU: build failed") {
		t.Errorf("log lines %q, want one about the failed build", l)
	}
}

// TestLaunchFails: a launch that fails (here: an argument the kernel
// does not declare) disables the kernel for the process, logged once.
func TestLaunchFails(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	k := double("")
	xs := []int32{1, 2}
	for range 2 {
		if k.Run([]any{int32(1)}, []skel.HostSlice{skel.Slice(xs)}, []skel.HostSlice{skel.Slice(make([]int32, 2))}, []skel.HostSlice{skel.Slice(make([]int32, 1))}) {
			t.Fatal("Run with a wrong argument = true")
		}
	}
	if ok, _, _ := run(k, xs); ok || k.Kernel() != nil {
		t.Errorf("a kernel whose launch failed still runs")
	}
	if l := lines(); len(l) != 1 || !strings.Contains(l[0], "failed, it runs on the CPU from now on") {
		t.Errorf("log lines %q, want one about the failed launch", l)
	}
}

// TestUsable: a float64 kernel needs cl_khr_fp64.
func TestUsable(t *testing.T) {
	info := device.Info{Platform: "P", Name: "D"}
	if err := usable(info, true); err == nil || !strings.Contains(err.Error(), "no cl_khr_fp64") {
		t.Errorf("usable(no fp64, float64 kernel) = %v", err)
	}
	if err := usable(info, false); err != nil {
		t.Errorf("usable(no fp64, float32 kernel) = %v", err)
	}
	info.FP64 = true
	if err := usable(info, true); err != nil {
		t.Errorf("usable(fp64, float64 kernel) = %v", err)
	}
}

func TestArg(t *testing.T) {
	type pt struct {
		X float64
		B bool
	}
	if b := Arg(pt{X: 1, B: true}); len(b) != 16 || b[7] != 0x3f || b[8] != 1 {
		t.Errorf("Arg(pt) = %v", b)
	}
	if b := Arg(int16(-2)); len(b) != 2 || b[0] != 0xfe || b[1] != 0xff {
		t.Errorf("Arg(int16(-2)) = %v", b)
	}
}
