package launch

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// listed returns FallbackList's entries of the kernel at at.
func listed(at string) []Fallback {
	var out []Fallback
	for _, f := range FallbackList() {
		if f.At == at {
			out = append(out, f)
		}
	}
	return out
}

// TestPerCall: the OpenCL statuses of one call's sizes are per-call,
// wrapped or not; other statuses and errors without one are not.
func TestPerCall(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&cl.Error{Call: "clCreateBuffer", Code: -61}, true},
		{fmt.Errorf("double: %w", &cl.Error{Call: "clCreateBuffer", Code: -61}), true},
		{&cl.Error{Call: "clEnqueueWriteBuffer", Code: -4}, true},
		{&cl.Error{Call: "clEnqueueNDRangeKernel", Code: -63}, true},
		{&cl.Error{Call: "clEnqueueNDRangeKernel", Code: -5}, false},   // CL_OUT_OF_RESOURCES
		{&cl.Error{Call: "clSetKernelArg", Code: -52}, false},          // CL_INVALID_KERNEL_ARGS
		{&cl.Error{Call: "clEnqueueNDRangeKernel", Code: -999}, false}, // unknown
		{errors.New("double: 1 argument values for 0 arguments"), false},
	} {
		if _, got := perCall(c.err); got != c.want {
			t.Errorf("perCall(%v) = %v, want %v", c.err, got, c.want)
		}
	}
	for name := range perCallCodes {
		found := false
		for code := int32(-100); code < 0; code++ {
			found = found || cl.CodeName(code) == name
		}
		if !found {
			t.Errorf("perCallCodes names %s, which is no OpenCL status", name)
		}
	}
}

// TestFailKeepsKernel: a failed launch of one call's sizes leaves the
// kernel in use, listed as not permanent; any other failure disables
// it, and every later call that asks for it is counted under that cause.
func TestFailKeepsKernel(t *testing.T) {
	lines := logs(t)
	const at = "errclass.go:1:1"
	var b built[int]
	b.once.Do(func() { b.k = new(int) })
	big := fmt.Errorf("fake: %w", &cl.Error{Call: "clCreateBuffer", Code: -61})
	for range 2 {
		why := b.fail(at, "fake", big)
		if !strings.HasPrefix(why, whyCall+" (") {
			t.Errorf("fail(CL_INVALID_BUFFER_SIZE) = %q, want %s", why, whyCall)
		}
		fellBack(at, "fake", why)
	}
	if b.get(at, "fake", false, nil) == nil {
		t.Fatalf("a kernel whose call was too large is disabled")
	}
	bad := &cl.Error{Call: "clSetKernelArg", Code: -52}
	fellBack(at, "fake", b.fail(at, "fake", bad))
	for range 3 {
		if b.get(at, "fake", false, nil) != nil {
			t.Fatalf("a kernel whose launch failed is still in use")
		}
	}
	l := lines()
	if len(l) != 2 || !strings.Contains(l[0], "this call runs on the CPU") || !strings.Contains(l[1], "it runs on the CPU from now on") {
		t.Errorf("log lines %q, want one per cause", l)
	}
	got := listed(at)
	if len(got) != 2 {
		t.Fatalf("FallbackList of %s: %+v, want 2 entries", at, got)
	}
	if !strings.HasSuffix(got[0].Cause, "): fake: clCreateBuffer: CL_INVALID_BUFFER_SIZE (-61)") || got[0].Permanent || got[0].Calls != 2 {
		t.Errorf("per-call entry %+v, want 2 calls, not permanent", got[0])
	}
	if got[1].Cause != whyFailed+": clSetKernelArg: CL_INVALID_KERNEL_ARGS (-52)" || !got[1].Permanent || got[1].Calls != 4 {
		t.Errorf("permanent entry %+v, want 4 calls: the failed launch and 3 that asked for the kernel", got[1])
	}
}

// TestNoPlatformLoggedOnce: without an OpenCL platform every kernel
// runs on the CPU for the same cause: one log line in the process, and
// FallbackList lists each kernel with its calls, also when kernels run
// and the list is read from many goroutines at once.
func TestNoPlatformLoggedOnce(t *testing.T) {
	lines := logs(t)
	old := openDevice
	openDevice = func() (*device.Device, error) { return nil, errors.New("no platform (test)") }
	defer func() { openDevice = old }()
	var ks []*Redomap
	for i := range 19 {
		k := double("")
		k.At = fmt.Sprintf("noplatform.go:%d:1", i+1)
		ks = append(ks, k)
	}
	f, sc := odds(""), prefix()
	f.At, sc.At = "noplatform.go:20:1", "noplatform.go:21:1"
	const goroutines, calls = 4, 5
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for range calls {
				for _, k := range ks {
					if ok, _, _ := run(k, []int32{1, 2}); ok {
						t.Error("Run without a device = true")
					}
				}
				runFilter(f, []int32{1})
				if sc.Kernel() != nil {
					t.Error("Scan.Kernel without a device")
				}
				FallbackList()
			}
		})
	}
	wg.Wait()
	if l := lines(); len(l) != 1 || !strings.Contains(l[0], "OpenCL kernel double runs on the CPU: no OpenCL device: no platform (test)") || !strings.Contains(l[0], "launch.FallbackList") {
		t.Errorf("log lines %q, want one", l)
	}
	for i := range 21 {
		at := fmt.Sprintf("noplatform.go:%d:1", i+1)
		got := listed(at)
		if len(got) != 1 || got[0].Cause != "no OpenCL device: no platform (test)" || !got[0].Permanent || got[0].Calls != goroutines*calls {
			t.Errorf("FallbackList of %s: %+v, want one permanent entry of %d calls", at, got, goroutines*calls)
		}
	}
}
