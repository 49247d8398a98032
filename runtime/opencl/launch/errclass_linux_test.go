//go:build linux

package launch

import (
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// reserve returns n int32 elements of zeroed anonymous memory that the
// kernel backs only where they are written (MAP_NORESERVE), so that an
// array larger than the device's largest allocation costs no memory
// unless something writes it; it is unmapped when t ends.
func reserve(t *testing.T, n int) []int32 {
	b, err := syscall.Mmap(-1, 0, 4*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("cannot reserve %d bytes: %v", 4*n, err)
	}
	t.Cleanup(func() { syscall.Munmap(b) })
	return unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), n)
}

// TestTooLargeForDevice: a call whose arrays are larger than the
// device's largest allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE) runs on
// the CPU, and that call only: the next, smaller call runs on the
// device. The cause is logged once and listed as not permanent.
func TestTooLargeForDevice(t *testing.T) {
	needDevice(t)
	lines := logs(t)
	d, _ := device.Default()
	limit := d.Info.MaxMemAllocSize
	if limit <= 0 || limit > 8<<30 {
		t.Skipf("the device allocates up to %d bytes; the test reserves more than that", limit)
	}
	n := int(limit/4) + 1
	huge, out := reserve(t, n), reserve(t, n)
	k := double("")
	k.At = "toolarge.go:1:1"
	var sum [1]int32
	for range 2 {
		if k.Run(nil, []skel.HostSlice{skel.Slice(huge)}, []skel.HostSlice{skel.Slice(out)}, []skel.HostSlice{skel.Slice(sum[:])}) {
			t.Fatalf("Run over %d bytes on a device that allocates %d = true", 4*n, limit)
		}
	}
	if k.Kernel() == nil {
		t.Fatalf("a call too large for the device disabled its kernel")
	}
	ok, small, s := run(k, []int32{1, 2, 3})
	if !ok || small[2] != 6 || s != 6 {
		t.Errorf("the next call: %v, %v, %d; want true, [2 4 6], 6", ok, small, s)
	}
	l := lines()
	if len(l) != 1 || !strings.Contains(l[0], "OpenCL kernel double: this call runs on the CPU") {
		t.Errorf("log lines %q, want one about the call", l)
	}
	got := listed(k.At)
	if len(got) != 1 || !strings.HasPrefix(got[0].Cause, whyCall) || got[0].Permanent || got[0].Calls != 2 {
		t.Errorf("FallbackList of %s: %+v, want 2 calls of one cause that is not permanent", k.At, got)
	}
}
