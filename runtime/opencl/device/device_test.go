package device

import (
	"errors"
	"os"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

func open(t *testing.T) *Device {
	t.Helper()
	d, err := Default()
	if err != nil {
		if os.Getenv("SOACGEN_REQUIRE_OPENCL") == "1" {
			t.Fatalf("SOACGEN_REQUIRE_OPENCL=1 but: %v", err)
		}
		t.Skipf("no OpenCL device: %v", err)
	}
	return d
}

func TestChoose(t *testing.T) {
	cands := []Candidate{{0, 0, cl.Device{}}, {1, 0, cl.Device{}}, {1, 1, cl.Device{}}}
	names := map[[2]int]string{{0, 0}: "Portable Computing Language / pthread-cpu", {1, 0}: "NVIDIA CUDA / NVIDIA H100", {1, 1}: "NVIDIA CUDA / NVIDIA A100"}
	types := map[[2]int]cl.DeviceType{{0, 0}: cl.DeviceTypeCPU, {1, 0}: cl.DeviceTypeGPU, {1, 1}: cl.DeviceTypeGPU}
	describe := func(c Candidate) (string, cl.DeviceType) {
		k := [2]int{c.PlatformIndex, c.DeviceIndex}
		return names[k], types[k]
	}
	for sel, want := range map[string][2]int{"": {1, 0}, "a100": {1, 1}, "PTHREAD": {0, 0}, "1:1": {1, 1}, "0:0": {0, 0}} {
		c, err := choose(cands, sel, describe)
		if err != nil {
			t.Errorf("%q: %v", sel, err)
			continue
		}
		if got := [2]int{c.PlatformIndex, c.DeviceIndex}; got != want {
			t.Errorf("%q picked %v, want %v", sel, got, want)
		}
	}
	for _, sel := range []string{"2:0", "radeon"} {
		if _, err := choose(cands, sel, describe); !errors.Is(err, cl.ErrNoDevice) {
			t.Errorf("%q: %v, want ErrNoDevice", sel, err)
		}
	}
}

func TestDefaultAndCaches(t *testing.T) {
	d := open(t)
	t.Logf("device: %v", d.Info)
	if d.Info.ComputeUnits < 1 || d.Info.MaxWorkGroupSize < 1 || d.Info.LocalMemSize <= 0 {
		t.Fatalf("implausible info %+v", d.Info)
	}
	src := "__kernel void k(__global int *x) { x[get_global_id(0)] = 1; }"
	p1, err := d.Program(src, "")
	if err != nil {
		t.Fatal(err)
	}
	n := d.ProgramsBuilt()
	p2, err := d.Program(src, "")
	if err != nil || p1 != p2 || d.ProgramsBuilt() != n {
		t.Fatalf("second Program call rebuilt: %p %p %v", p1, p2, err)
	}
	if p3, err := d.Program(src, "-cl-fast-relaxed-math"); err != nil || p3 == p1 {
		t.Fatalf("other options must build another program: %v", err)
	}
	if _, err := d.Program("__kernel void bad( {", ""); err == nil {
		t.Fatal("bad source built")
	}
	a := d.BuffersAllocated()
	for range 5 {
		b, err := d.Buffer(12345)
		if err != nil {
			t.Fatal(err)
		}
		d.Recycle(b)
	}
	if got := d.BuffersAllocated() - a; got != 1 {
		t.Fatalf("5 get/put rounds of one size allocated %d buffers, want 1", got)
	}
}
