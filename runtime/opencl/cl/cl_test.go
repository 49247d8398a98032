package cl

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// requireEnv, when "1", turns a missing OpenCL platform into a failure.
const requireEnv = "SOACGEN_REQUIRE_OPENCL"

// firstDevice returns a device of any type, skipping (or failing under
// SOACGEN_REQUIRE_OPENCL=1) when OpenCL is absent.
func firstDevice(t *testing.T) Device {
	t.Helper()
	ps, err := GetPlatforms()
	if err == nil {
		for _, p := range ps {
			if ds, err2 := p.GetDevices(DeviceTypeAll); err2 == nil {
				return ds[0]
			} else {
				err = err2
			}
		}
	}
	if os.Getenv(requireEnv) == "1" {
		t.Fatalf("%s=1 but OpenCL is unusable: %v", requireEnv, err)
	}
	t.Skipf("no OpenCL: %v", err)
	return Device{}
}

func TestCodeNames(t *testing.T) {
	for code, want := range map[int32]string{-11: "CL_BUILD_PROGRAM_FAILURE", -54: "CL_INVALID_WORK_GROUP_SIZE", -1001: "CL_PLATFORM_NOT_FOUND_KHR", 7: "CL_UNKNOWN_ERROR"} {
		if got := CodeName(code); got != want {
			t.Errorf("CodeName(%d) = %s, want %s", code, got, want)
		}
	}
	err := check("clFoo", -54)
	if got := err.Error(); got != "clFoo: CL_INVALID_WORK_GROUP_SIZE (-54)" {
		t.Errorf("error text %q", got)
	}
	if !errors.Is(check("clGetDeviceIDs", -1), ErrNoDevice) || !errors.Is(check("clGetPlatformIDs", -1001), ErrNoPlatform) {
		t.Error("status codes do not map to sentinels")
	}
	for code := int32(-72); code <= 0; code++ {
		if (code > -20 || code <= -30) && CodeName(code) == "CL_UNKNOWN_ERROR" {
			t.Errorf("standard code %d has no name", code)
		}
	}
}

func TestMissingLibrary(t *testing.T) {
	_, err := openLibrary("/nonexistent/libOpenCL.so.1")
	if !errors.Is(err, ErrNoLibrary) {
		t.Fatalf("openLibrary of a missing path: %v, want ErrNoLibrary", err)
	}
	// Through the environment variable, in a fresh process, since the
	// library is loaded once per process.
	if os.Getenv("SOACGEN_CL_CHILD") == "1" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMissingLibraryChild$", "-test.v")
	cmd.Env = append(os.Environ(), LibraryEnv+"=/nonexistent/libOpenCL.so.1", "SOACGEN_CL_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "sentinel ok") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func TestMissingLibraryChild(t *testing.T) {
	if os.Getenv("SOACGEN_CL_CHILD") != "1" {
		t.Skip("run by TestMissingLibrary")
	}
	_, err := GetPlatforms()
	if !errors.Is(err, ErrNoLibrary) {
		t.Fatalf("GetPlatforms: %v, want ErrNoLibrary", err)
	}
	if !errors.Is(Load(), ErrNoLibrary) {
		t.Fatal("Load does not report ErrNoLibrary")
	}
	t.Log("sentinel ok")
}

func TestDeviceInfo(t *testing.T) {
	d := firstDevice(t)
	if d.Name() == "" || d.MaxComputeUnits() < 1 || d.MaxWorkGroupSize() < 1 || d.GlobalMemSize() <= 0 || d.LocalMemSize() <= 0 {
		t.Fatalf("implausible device info: %q cu=%d wg=%d gmem=%d lmem=%d", d.Name(), d.MaxComputeUnits(), d.MaxWorkGroupSize(), d.GlobalMemSize(), d.LocalMemSize())
	}
	t.Logf("%v: type %v, %d CUs, wg %d, gmem %d, lmem %d, fp64 %v", d, d.Type(), d.MaxComputeUnits(), d.MaxWorkGroupSize(), d.GlobalMemSize(), d.LocalMemSize(), d.HasFP64())
}

const squareSrc = `__kernel void square(__global const float *x, __global float *y, const long n) {
	long i = get_global_id(0);
	if (i < n) y[i] = x[i] * x[i];
}`

func TestKernelRoundTrip(t *testing.T) {
	d := firstDevice(t)
	ctx, err := CreateContext([]Device{d})
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Release()
	q, err := ctx.CreateCommandQueue(d, CommandQueueProfilingEnable)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	p, err := ctx.CreateProgramWithSource([]string{squareSrc})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if err := p.BuildProgram(nil, ""); err != nil {
		t.Fatal(err)
	}
	k, err := p.CreateKernel("square")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	const n = 1000
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(i) / 3
	}
	bx, _ := ctx.CreateEmptyBuffer(MemReadOnly, 4*n)
	by, err := ctx.CreateEmptyBuffer(MemWriteOnly, 4*n)
	if err != nil {
		t.Fatal(err)
	}
	defer bx.Release()
	defer by.Release()
	we, err := q.EnqueueWriteBuffer(bx, false, 0, Bytes(x), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.SetArgs(bx, by, int64(n)); err != nil {
		t.Fatal(err)
	}
	ke, err := q.EnqueueNDRangeKernel(k, nil, []int{1024}, []int{64}, []*Event{we})
	if err != nil {
		t.Fatal(err)
	}
	y := make([]float32, n)
	re, err := q.EnqueueReadBuffer(by, true, 0, Bytes(y), []*Event{ke})
	if err != nil {
		t.Fatal(err)
	}
	if dur, err := ke.Duration(); err != nil || dur < 0 {
		t.Fatalf("profiling: %v %v", dur, err)
	}
	for _, e := range []*Event{we, ke, re} {
		if err := e.Release(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range y {
		if y[i] != x[i]*x[i] {
			t.Fatalf("y[%d] = %v, want %v", i, y[i], x[i]*x[i])
		}
	}
	// Out-of-range transfers are refused before reaching the driver.
	if _, err := q.EnqueueReadBuffer(by, true, 4, Bytes(y), nil); err == nil {
		t.Error("read past the end accepted")
	}
	// A bad work-group size names the call and code.
	_, err = q.EnqueueNDRangeKernel(k, nil, []int{1000}, []int{3 * 1000}, nil)
	var ce *Error
	if !errors.As(err, &ce) || ce.Call != "clEnqueueNDRangeKernel" {
		t.Errorf("bad local size: %v", err)
	}
}

func TestBuildErrorShowsLog(t *testing.T) {
	d := firstDevice(t)
	ctx, err := CreateContext([]Device{d})
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Release()
	p, err := ctx.CreateProgramWithSource([]string{"__kernel void broken(__global float *x) { x[0] = undeclared_identifier_xyz; }"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	err = p.BuildProgram(nil, "")
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("BuildProgram of bad source: %v, want *BuildError", err)
	}
	if !strings.Contains(err.Error(), "CL_BUILD_PROGRAM_FAILURE") || !strings.Contains(be.Log, "undeclared_identifier_xyz") {
		t.Fatalf("build error lacks code or log:\n%v", err)
	}
}

// TestMapBuffer writes through a mapping of a host-allocated buffer,
// copies the buffer on the device, reads the copy back with the mapping
// as the destination of a read, and checks the bytes.
func TestMapBuffer(t *testing.T) {
	d := firstDevice(t)
	ctx, err := CreateContext([]Device{d})
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Release()
	q, err := ctx.CreateCommandQueue(d, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	const n = 4099
	pinned, err := ctx.CreateEmptyBuffer(MemReadWrite|MemAllocHostPtr, n)
	if err != nil {
		t.Fatal(err)
	}
	defer pinned.Release()
	dev, err := ctx.CreateEmptyBuffer(MemReadWrite, n)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Release()
	host, ev, err := q.EnqueueMapBuffer(pinned, true, MapRead|MapWrite, 0, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	ev.Release()
	if len(host) != n {
		t.Fatalf("mapping of %d bytes, want %d", len(host), n)
	}
	for i := range host {
		host[i] = byte(i * 7)
	}
	if _, err := q.EnqueueWriteBuffer(dev, true, 0, host, nil); err != nil {
		t.Fatal(err)
	}
	clear(host)
	if _, err := q.EnqueueReadBuffer(dev, true, 0, host, nil); err != nil {
		t.Fatal(err)
	}
	for i, b := range host {
		if b != byte(i*7) {
			t.Fatalf("byte %d = %d after the round trip, want %d", i, b, byte(i*7))
		}
	}
	ue, err := q.EnqueueUnmapMemObject(pinned, host, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ue.Wait(); err != nil {
		t.Fatal(err)
	}
	ue.Release()
	if _, _, err := q.EnqueueMapBuffer(pinned, true, MapRead, n-1, 2, nil); err == nil {
		t.Error("a mapping past the buffer's end was accepted")
	}
}

// TestBufferHost copies a pinned Go slice through a CL_MEM_USE_HOST_PTR
// buffer into a device buffer and reads it back.
func TestBufferHost(t *testing.T) {
	d := firstDevice(t)
	ctx, err := CreateContext([]Device{d})
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Release()
	q, err := ctx.CreateCommandQueue(d, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	src := make([]int32, 3001)
	for i := range src {
		src[i] = int32(i*i) - 5
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&src[0])
	hb, err := ctx.CreateBufferHost(MemUseHostPtr|MemReadOnly, Bytes(src))
	if err != nil {
		t.Fatal(err)
	}
	defer hb.Release()
	dev, err := ctx.CreateEmptyBuffer(MemReadWrite, 4*len(src))
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Release()
	if _, err := q.EnqueueCopyBuffer(hb, dev, 0, 0, 4*len(src), nil); err != nil {
		t.Fatal(err)
	}
	got := make([]int32, len(src))
	if _, err := q.EnqueueReadBuffer(dev, true, 0, Bytes(got), nil); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != src[i] {
			t.Fatalf("element %d = %d, want %d", i, got[i], src[i])
		}
	}
	if _, err := ctx.CreateBufferHost(MemReadOnly, Bytes(src)); err == nil {
		t.Error("CreateBufferHost without MemUseHostPtr accepted")
	}
}
